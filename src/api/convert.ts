// Document capability: /api/convert and /api/convert/batch on the first available
// DocumentBackend (LibreOffice). Inputs are judged by extension (the matrix) and by content
// before any conversion; outputs go through a private staging dir beside the destination and
// are renamed into place, so a failed file leaves nothing behind.

import fs from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import type { Capability, EngineHealth, ServiceDeps } from '../capability.js';
import { ApiError, toApiError } from '../errors.js';
import { outputError, withStagingDir } from '../files/atomic.js';
import { extensionOf, fileStem, resolveInputPath, resolveOutputPath, type PathPolicy } from '../files/paths.js';
import { postRoute } from '../http/route.js';
import type { ConversionJob, DocumentBackend } from '../documents/backend.js';
import { checkDocumentContent } from '../documents/content-check.js';
import { allowedFormats, familyOfExtension, OUTPUT_FORMATS, supportedInputExtensions, type OutputFormat } from '../documents/formats.js';
import { LibreOfficeBackend } from '../documents/libreoffice-backend.js';
import { INSTALL_HINT, selectDocumentBackend } from '../documents/registry.js';
import { chooseOfficeSandbox, officeSandboxKind } from '../documents/sandbox.js';
import { filePath } from './schemas.js';

const format = z.enum(OUTPUT_FORMATS).describe('output format; allowed per input type: .doc/.docx/.rtf/.odt → pdf, docx, odt, txt; .xls/.xlsx/.ods/.csv → pdf, xlsx, ods, csv; .ppt/.pptx/.odp → pdf, pptx, odp');

const convertBody = z.object({ input: filePath, output: filePath, format });

const batchBody = z.object({
  files: z.array(filePath).min(1, 'needs at least one file'),
  format,
  outputDir: filePath.optional().describe("where the outputs go (default: each input's own directory)"),
});

/** Offices run one conversion at a time each and take 150–300 MB; more than four rarely pays. */
const MAX_SLOTS = 4;

interface BatchResult {
  input: string;
  success: boolean;
  outputPath?: string;
  error?: string;
  code?: string;
}

type PreparedJob = Omit<ConversionJob, 'output'>;

export async function createDocumentCapability({ config, paths }: ServiceDeps): Promise<Capability> {
  chooseOfficeSandbox(config.documentSandbox);
  const { backend, info, reasons } = await selectDocumentBackend([
    () =>
      new LibreOfficeBackend({
        detect: { explicit: config.soffice },
        slots: Math.max(1, Math.min(config.workers, MAX_SLOTS)),
        timeoutMs: config.timeoutMs,
        queueLimit: config.queueLimit,
        recycleAfter: positiveInt(process.env.DOCWASM_SOFFICE_RECYCLE_AFTER),
      }),
  ]);
  const unavailable = () => new ApiError('BACKEND_UNAVAILABLE', `No document conversion backend: ${reasons.join('; ')}. ${INSTALL_HINT}`);
  const requireBackend = (): DocumentBackend => {
    if (!backend) throw unavailable();
    return backend;
  };
  const health = (): EngineHealth =>
    info?.available
      ? { available: true, engine: info.name, version: info.version, backend: info.name, path: info.path, sandbox: officeSandboxKind() }
      : { available: false, engine: 'libreoffice', version: 'none', backend: 'none', reason: reasons.join('; ') };

  return {
    name: 'document',
    health,
    close: async () => backend?.close(),
    routes: [
      postRoute({
        path: '/api/convert',
        summary: 'Convert one office document (LibreOffice)',
        body: convertBody,
        handle: async ({ input, output, format: target }) => {
          const started = performance.now();
          checkMatrix(input, target);
          const docs = requireBackend();
          const source = await prepareInput(paths, input, target);
          const outputPath = await resolveOutputPath(paths, output);
          await withStagingDir(outputPath, async (staging) => {
            const staged = path.join(staging, `converted.${target}`);
            const [outcome] = await docs.convert([{ ...source, output: staged }]);
            if (!outcome?.ok) throw outcome ? new ApiError(outcome.code, outcome.message) : new ApiError('INTERNAL_ERROR', 'No conversion result');
            await fs.rename(staged, outputPath).catch((err: unknown) => {
              throw outputError(err, outputPath);
            });
          });
          const durationMs = Math.round(performance.now() - started);
          return { message: `Converted to ${target}`, outputPath, data: { format: target, backend: docs.name, durationMs } };
        },
      }),
      postRoute({
        path: '/api/convert/batch',
        summary: 'Convert several office documents to one format in one go',
        body: batchBody,
        handle: async ({ files, format: target, outputDir }) => {
          const started = performance.now();
          const dir = outputDir === undefined ? undefined : await resolveOutputPath(paths, outputDir);
          const targets = files.map((file) => path.join(dir ?? path.dirname(path.resolve(paths.baseDir, file)), `${fileStem(file)}.${target}`));
          rejectDuplicateOutputs(files, targets);
          const results: BatchResult[] = files.map((input) => ({ input, success: false }));
          const fail = (i: number, err: unknown) => {
            const e = toApiError(err);
            results[i] = { input: files[i] as string, success: false, error: e.message, code: e.code };
          };
          // Per-file checks first: a bad file fails alone, before any conversion starts.
          const ready: { index: number; job: PreparedJob; target: string }[] = [];
          await Promise.all(
            files.map(async (file, index) => {
              try {
                checkMatrix(file, target);
                requireBackend();
                const job = await prepareInput(paths, file, target);
                ready.push({ index, job, target: await resolveOutputPath(paths, targets[index] as string) });
              } catch (err) {
                fail(index, err);
              }
            }),
          );
          // All files go to the backend in one call (one queue entry, coalesced into as few
          // LibreOffice invocations as possible); each output dir gets its own staging dir.
          const dirs = [...new Set(ready.map((r) => path.dirname(r.target)))];
          await withStagingDirs(dirs, async (stagings) => {
            const staged = ready.flatMap((r, k) => {
              const staging = stagings[dirs.indexOf(path.dirname(r.target))];
              if (typeof staging !== 'string') {
                fail(r.index, staging);
                return [];
              }
              return [{ ...r, output: path.join(staging, `${k}.${target}`) }];
            });
            if (staged.length === 0) return;
            const outcomes = await requireBackend().convert(staged.map((r) => ({ ...r.job, output: r.output })));
            for (const [k, r] of staged.entries()) {
              const outcome = outcomes[k];
              if (!outcome?.ok) {
                fail(r.index, outcome ? new ApiError(outcome.code, outcome.message) : new ApiError('INTERNAL_ERROR', 'No conversion result'));
                continue;
              }
              await fs.rename(r.output, r.target).then(
                () => (results[r.index] = { input: r.job.shownName, success: true, outputPath: r.target }),
                (err: unknown) => fail(r.index, outputError(err, r.target)),
              );
            }
          });
          const succeeded = results.filter((r) => r.success).length;
          const failed = results.length - succeeded;
          return {
            success: failed === 0,
            message: `Converted ${succeeded} of ${results.length} file(s) to ${target}`,
            ...(dir !== undefined && { outputPath: dir }),
            data: { total: results.length, succeeded, failed, format: target, durationMs: Math.round(performance.now() - started), results },
          };
        },
      }),
    ],
  };
}

/**
 * A staging dir beside each of `dirs` (see withStagingDir), all alive while `work` runs. A dir
 * whose staging dir cannot be created is handed over as its error, so only its files fail.
 */
async function withStagingDirs<T>(dirs: readonly string[], work: (stagings: (string | ApiError)[]) => Promise<T>): Promise<T> {
  const step = async (i: number, stagings: (string | ApiError)[]): Promise<T> => {
    if (i === dirs.length) return work(stagings);
    let entered = false;
    try {
      return await withStagingDir(path.join(dirs[i] as string, '.staging'), (staging) => {
        entered = true;
        return step(i + 1, [...stagings, staging]);
      });
    } catch (err) {
      if (entered) throw err;
      return step(i + 1, [...stagings, toApiError(err)]);
    }
  };
  return step(0, []);
}

/** UNSUPPORTED_CONVERSION when the input's extension does not allow `format`. */
function checkMatrix(input: string, target: OutputFormat): void {
  const extension = extensionOf(input);
  const family = familyOfExtension(extension);
  if (!family) {
    throw new ApiError('UNSUPPORTED_CONVERSION', `Unsupported input type "${extension ? `.${extension}` : path.basename(input)}"; supported: ${supportedInputExtensions().map((e) => `.${e}`).join(', ')}`);
  }
  if (!allowedFormats(family).includes(target)) {
    throw new ApiError('UNSUPPORTED_CONVERSION', `Cannot convert .${extension} to ${target}; .${extension} converts to ${allowedFormats(family).join(', ')}`);
  }
}

async function prepareInput(paths: PathPolicy, input: string, target: OutputFormat): Promise<PreparedJob> {
  const extension = extensionOf(input);
  const family = familyOfExtension(extension);
  if (!family) throw new ApiError('UNSUPPORTED_CONVERSION', `Unsupported input type .${extension}`);
  const resolved = await resolveInputPath(paths, input);
  await checkDocumentContent(resolved, extension, family, input);
  return { input: resolved, extension, family, format: target, shownName: input };
}

function rejectDuplicateOutputs(files: readonly string[], targets: readonly string[]): void {
  // Case-insensitive file systems (macOS, Windows) would make x.pdf and X.pdf one file.
  const fold = process.platform === 'darwin' || process.platform === 'win32' ? (p: string) => p.toLowerCase() : (p: string) => p;
  const seen = new Map<string, number>();
  for (const [i, t] of targets.entries()) {
    const earlier = seen.get(fold(t));
    if (earlier !== undefined) {
      throw new ApiError('VALIDATION_ERROR', `files[${earlier}] (${files[earlier]}) and files[${i}] (${files[i]}) would both be written to ${t}`);
    }
    seen.set(fold(t), i);
  }
}

function positiveInt(raw: string | undefined): number | undefined {
  const value = Number(raw);
  return raw !== undefined && Number.isInteger(value) && value > 0 ? value : undefined;
}
