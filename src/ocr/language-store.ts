// The OCR languages of this service: validates requested sets against the installed data
// and serves tesseract.js its one `langPath` folder. That folder is a private temp dir of
// links to the installed files (or repaired copies, see traineddata.ts), so neither
// node_modules, the tessdata dir nor the working directory is ever written. It is named with the
// service's PID: a service killed with SIGKILL leaves it, and the next one removes it.

import fs from 'node:fs/promises';
import path from 'node:path';
import { ApiError } from '../../core/errors.js';
import { makeOwnedTempDir, reapOrphanedTempDirs } from '../files/owned-temp-dirs.js';
import type { LanguageFiles } from './languages.js';
import { inflateTraineddata, traineddataProblem, withoutSubLanguages } from './traineddata.js';

export const DEFAULT_LANGUAGE = 'chi_sim+eng';
const STAGING_PREFIX = 'docwasm-tessdata-';

export class LanguageStore {
  private readonly files: LanguageFiles;
  private dir: Promise<string> | undefined;
  private readonly staged = new Map<string, Promise<void>>();

  constructor(files: LanguageFiles) {
    this.files = files;
  }

  get codes(): string[] {
    return [...this.files.keys()];
  }

  /** Splits `chi_sim+eng` into installed codes; any unknown code → UNSUPPORTED_LANGUAGE. */
  parse(language: string): string[] {
    const codes = [...new Set(language.split('+').map((code) => code.trim()))];
    const missing = codes.filter((code) => !this.files.has(code));
    if (missing.length > 0 || codes.length === 0) {
      const installed = this.codes.join(', ') || 'none';
      const named = missing.filter((code) => code !== '').join(', ') || `"${language}"`;
      throw new ApiError('UNSUPPORTED_LANGUAGE', `OCR language not installed: ${named}. Installed: ${installed}`);
    }
    return codes;
  }

  /** The langPath folder holding `<code>.traineddata` for every code (gzip content is sniffed by tesseract.js). */
  async prepare(codes: readonly string[]): Promise<string> {
    const dir = await this.stagingDir();
    await Promise.all(codes.map((code) => this.stage(dir, code)));
    return dir;
  }

  async close(): Promise<void> {
    const dir = this.dir;
    this.dir = undefined;
    this.staged.clear();
    if (dir) await fs.rm(await dir, { recursive: true, force: true }).catch(() => undefined);
  }

  private stagingDir(): Promise<string> {
    this.dir ??= reapOrphanedTempDirs(STAGING_PREFIX).then(() => makeOwnedTempDir(STAGING_PREFIX));
    return this.dir;
  }

  private stage(dir: string, code: string): Promise<void> {
    let staged = this.staged.get(code);
    if (!staged) {
      staged = stageLanguage(dir, code, this.files.get(code) as string);
      staged.catch(() => this.staged.delete(code));
      this.staged.set(code, staged);
    }
    return staged.catch((err: unknown) => {
      if (err instanceof ApiError) throw err;
      throw new ApiError('UNSUPPORTED_LANGUAGE', `OCR language data for ${code} cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
    });
  }
}

async function stageLanguage(dir: string, code: string, source: string): Promise<void> {
  const target = path.join(dir, `${code}.traineddata`);
  const traineddata = await inflateTraineddata(await fs.readFile(source));
  const problem = traineddataProblem(traineddata);
  if (problem) throw new ApiError('UNSUPPORTED_LANGUAGE', `OCR language data for ${code} is unusable: ${problem} (${source})`);
  const repaired = withoutSubLanguages(traineddata);
  // The folder is private and each code is staged once (see `staged`): no temp name needed,
  // only a clean slate when an earlier attempt failed halfway.
  await fs.rm(target, { force: true });
  if (repaired) await fs.writeFile(target, repaired);
  else await fs.symlink(source, target).catch(() => fs.copyFile(source, target));
}
