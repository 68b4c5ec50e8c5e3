// Every opener of an input, given a FileRef whose name now holds a FIFO, a device or a directory
// — the state a rename after the check leaves — answers the contract's FILE_NOT_FOUND at once,
// deterministically (the race test in non-regular-inputs.test.ts hits these only by chance):
// the engine workers' reader (wasm/shared/io.ts), the main thread's head and whole-file reads
// (src/files/paths.ts; the watcher's kindOfFile reads heads this way), the content check before
// LibreOffice and the staging copy for it (src/documents). The built modules run in a child
// process killed after a bound: an opener that waits on the FIFO fails here, not hangs the run.

import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { stopAtEnd } from '../helpers/cleanup.js';
import { ROOT, tempDir } from '../helpers/service.js';

/** Each refusal takes microseconds; the child starts in well under a second. */
const CHILD_LIMIT_MS = 20_000;

const module = (relative: string) => JSON.stringify(pathToFileURL(path.join(ROOT, 'dist', relative)).href);

/** Runs every opener on `file` (as a ref carrying `identity`) in a child; the error code each answered. */
async function openersOn(file: string, identity: string | undefined, slotDir: string): Promise<Record<string, string>> {
  const script = `
    const { readInputFile } = await import(${module('wasm/shared/io.js')});
    const { openInput, readChecked, readInputHead } = await import(${module('src/files/paths.js')});
    const { inspectDocument } = await import(${module('src/document-checks/content-check.js')});
    const { stageDocument } = await import(${module('src/installed-office/office-staging.js')});
    const ref = JSON.parse(process.argv[1]);
    const openers = {
      readInputFile: async () => readInputFile(ref),
      readInputHead: () => readInputHead(ref, 1024),
      readChecked: () => readChecked(ref),
      openInput: async () => (await openInput(ref)).close(),
      inspectDocument: () => inspectDocument(ref),
      stageDocument: () => stageDocument(process.argv[2], { input: ref, extension: 'docx', shownName: 'x.docx' }),
    };
    const codes = {};
    for (const [name, open] of Object.entries(openers)) codes[name] = await open().then(() => 'opened', (err) => err.code ?? String(err));
    process.stdout.write(JSON.stringify(codes));
  `;
  const ref = identity === undefined ? { path: file } : { path: file, identity };
  const child = stopAtEnd(spawn(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(ref), slotDir], { stdio: ['ignore', 'pipe', 'pipe'] }));
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_LIMIT_MS);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
  clearTimeout(timer);
  if (code !== 0) throw new Error(`the openers did not all answer within ${CHILD_LIMIT_MS} ms (exit ${code}): ${stdout}${stderr}`);
  return JSON.parse(stdout) as Record<string, string>;
}

describe('every opener of a checked input refuses what is not a regular file, at once', () => {
  let dir: string;
  let identity: string;

  beforeAll(() => {
    dir = tempDir('docwasm-test-checked-open-');
    const regular = path.join(dir, 'input.docx');
    fs.copyFileSync(path.join(ROOT, 'fixtures', 'documents', 'text-docx.docx'), regular);
    const stats = fs.statSync(regular, { bigint: true });
    identity = `${stats.dev}:${stats.ino}`;
    execFileSync('mkfifo', [path.join(dir, 'fifo.docx')]);
    fs.mkdirSync(path.join(dir, 'dir.docx'));
    fs.mkdirSync(path.join(dir, 'slot'));
  });

  const everyOpener = (code: string) => ({
    readInputFile: code,
    readInputHead: code,
    readChecked: code,
    openInput: code,
    inspectDocument: code,
    stageDocument: code,
  });

  it('opens the regular file it was given (the control)', async () => {
    expect(await openersOn(path.join(dir, 'input.docx'), identity, path.join(dir, 'slot'))).toEqual(everyOpener('opened'));
  });

  it('answers FILE_NOT_FOUND for a FIFO renamed onto a checked name, confined (identity) or not', async () => {
    fs.renameSync(path.join(dir, 'fifo.docx'), path.join(dir, 'swapped.docx'));
    expect(await openersOn(path.join(dir, 'swapped.docx'), identity, path.join(dir, 'slot'))).toEqual(everyOpener('FILE_NOT_FOUND'));
    expect(await openersOn(path.join(dir, 'swapped.docx'), undefined, path.join(dir, 'slot'))).toEqual(everyOpener('FILE_NOT_FOUND'));
  });

  it('answers FILE_NOT_FOUND for a directory and for /dev/zero', async () => {
    expect(await openersOn(path.join(dir, 'dir.docx'), identity, path.join(dir, 'slot'))).toEqual(everyOpener('FILE_NOT_FOUND'));
    expect(await openersOn('/dev/zero', undefined, path.join(dir, 'slot'))).toEqual(everyOpener('FILE_NOT_FOUND'));
  });

  it('stages nothing for a refused input', () => {
    const documents = path.join(dir, 'slot', 'documents');
    const staged = fs.existsSync(documents) ? fs.readdirSync(documents) : [];
    // The control's copy is the only one: one staged dir, holding the regular input.
    expect(staged).toHaveLength(1);
  });
});
