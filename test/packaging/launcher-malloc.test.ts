// On Linux with glibc the service starts itself again with glibc's malloc settings
// (src/cli/malloc-restart.ts), however it is started: `npm start` and `npx docwasm serve` (they run
// bin/docwasm.mjs) and `node dist/src/cli/main.js serve`. The process that listens must have them,
// signals must reach it, and killing the first process outright must not leave it running. A
// GLIBC_TUNABLES the user set is kept, and one-shot commands are not started twice — except those
// that can read with the OCR engine (issue 46: `docwasm ocr` of a dense A4 page peaks 852 → 698
// MB), which must still cancel on one Ctrl-C that reaches both processes.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { oneShotWantsMallocSettings } from '../../src/cli/malloc-restart.js';
import { OPERATIONS } from '../../src/operations/index.js';
import { commandWords } from '../../src/operations/operation.js';
import { CLI, freePort, ROOT, tempDir } from '../helpers/service.js';
import { stopAtEnd } from '../helpers/cleanup.js';
import { isAlive, waitFor } from '../helpers/documents.js';

const BIN = path.join(ROOT, 'bin/docwasm.mjs');
const TUNABLES = 'glibc.malloc.mmap_threshold=32768:glibc.malloc.arena_max=2';
const report = process.report.getReport() as { header?: { glibcVersionRuntime?: string } };
const glibc = process.platform === 'linux' && Boolean(report.header?.glibcVersionRuntime);

interface Started {
  launcher: ChildProcess;
  /** The pid of the process that listens (the launcher itself where Node can replace a process). */
  service: number;
}

async function startWith(entry: string, env: NodeJS.ProcessEnv = {}): Promise<Started> {
  const port = await freePort();
  const launcher = spawn(process.execPath, [entry, 'serve', '--port', String(port), '--base-dir', tempDir()], {
    env: { ...process.env, GLIBC_TUNABLES: undefined, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  stopAtEnd(launcher);
  await new Promise<void>((resolve, reject) => {
    let out = '';
    launcher.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()) && out.includes('listening on') && resolve());
    launcher.once('exit', (code) => reject(new Error(`exited ${code} before listening`)));
  });
  const children = fs.readFileSync(`/proc/${launcher.pid}/task/${launcher.pid}/children`, 'utf8').trim();
  return { launcher, service: children ? Number(children.split(/\s+/)[0]) : launcher.pid! };
}

/** The process's environment as it started; glibc, parsing GLIBC_TUNABLES, ends each setting with a NUL in place. */
const environOf = (pid: number): string[] => fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
const ENTRIES = [
  { name: 'bin/docwasm.mjs', entry: BIN },
  { name: 'node dist/src/cli/main.js', entry: CLI },
];

describe.runIf(glibc).each(ENTRIES)('$name serve starts the service with glibc’s malloc settings', ({ entry }) => {
  const startWithBin = (env: NodeJS.ProcessEnv = {}) => startWith(entry, env);

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'the listening process has them, and %s to the launcher stops both with status 0',
    async (signal) => {
      const { launcher, service } = await startWithBin();
      const environ = environOf(service);
      expect(environ).toContain(`GLIBC_TUNABLES=${TUNABLES.split(':')[0]}`);
      expect(environ).toContain(TUNABLES.split(':')[1]);
      const exited = new Promise<number | null>((resolve) => launcher.once('exit', (code) => resolve(code)));
      launcher.kill(signal);
      expect(await exited).toBe(0);
      expect(await waitFor(() => !isAlive(service), 30_000)).toBe(true);
    },
    120_000,
  );

  it('a launcher killed outright (SIGKILL) does not leave the service running', async () => {
    const { launcher, service } = await startWithBin();
    launcher.kill('SIGKILL');
    expect(await waitFor(() => !isAlive(service), 30_000)).toBe(true);
  }, 120_000);

  it('keeps a GLIBC_TUNABLES the user set, in one process', async () => {
    const own = 'glibc.malloc.arena_max=1';
    const { launcher, service } = await startWithBin({ GLIBC_TUNABLES: own });
    expect(service).toBe(launcher.pid);
    expect(environOf(service)).toContain(`GLIBC_TUNABLES=${own}`);
    launcher.kill('SIGTERM');
  }, 120_000);

  it('runs one-shot commands once, without the settings', () => {
    const result = spawnSync(process.execPath, [entry, '--version'], { env: { ...process.env, GLIBC_TUNABLES: undefined }, encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});

/** A line of English text as a PNG (ImageMagick). */
function textImage(dir: string, size = '900x140'): string {
  const file = path.join(dir, 'line.png');
  spawnSync('convert', ['-size', size, 'xc:white', '-fill', 'black', '-pointsize', '48', '-annotate', '+30+90', 'Memory given back', file]);
  return file;
}

/** The process that runs a one-shot launched as `launcher` (its child on older Node), once its environment shows the settings. */
async function workingProcess(launcher: ChildProcess): Promise<{ pid: number; environ: string[] }> {
  let found = { pid: launcher.pid!, environ: [] as string[] };
  await waitFor(() => {
    if (launcher.exitCode !== null || launcher.signalCode !== null) return true;
    const children = fs.readFileSync(`/proc/${launcher.pid}/task/${launcher.pid}/children`, 'utf8').trim();
    const pid = children ? Number(children.split(/\s+/)[0]) : launcher.pid!;
    found = { pid, environ: environOf(pid) };
    return found.environ.some((entry) => entry.startsWith('GLIBC_TUNABLES='));
  }, 120_000);
  return found;
}

/** The process's resident set in MB (/proc/PID/status VmRSS). */
const residentMb = (pid: number): number => Number(/^VmRSS:\s*(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

describe.runIf(glibc).each(ENTRIES)('$name: one-shot commands that can read with OCR', ({ entry }) => {
  it('`ocr` runs in a process started with the settings, and prints the text', async () => {
    const dir = tempDir();
    const launcher = stopAtEnd(
      spawn(process.execPath, [entry, 'ocr', textImage(dir), '--language', 'eng'], {
        env: { ...process.env, GLIBC_TUNABLES: undefined },
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
    let out = '';
    launcher.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => launcher.once('exit', (code) => resolve(code)));
    const { environ } = await workingProcess(launcher);
    expect(environ).toContain(`GLIBC_TUNABLES=${TUNABLES.split(':')[0]}`);
    expect(await exited).toBe(0);
    expect(out).toMatch(/Memory given back/);
  }, 300_000);

  it('one Ctrl-C (SIGINT to the whole process group, as a terminal sends it) cancels a PP-OCR read of an A4 page: status 130, no output file', async () => {
    const dir = tempDir();
    const output = path.join(dir, 'out.pdf');
    const launcher = stopAtEnd(
      spawn(process.execPath, [entry, 'ocr', textImage(dir, '2480x3508'), '--engine', 'paddle', '-o', output], {
        env: { ...process.env, GLIBC_TUNABLES: undefined },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      }),
    );
    let err = '';
    launcher.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => launcher.once('exit', (code) => resolve(code)));
    const working = await workingProcess(launcher);
    expect(working.environ).toContain(`GLIBC_TUNABLES=${TUNABLES.split(':')[0]}`);
    // Under way (its Ctrl-C handler set) once onnxruntime loads: the CLI alone stays near 100 MB.
    expect(await waitFor(() => residentMb(working.pid) >= 200, 120_000)).toBe(true);
    process.kill(-launcher.pid!, 'SIGINT');
    expect(await exited).toBe(130);
    expect(err).toContain('docwasm: cancelled');
    expect(fs.readdirSync(dir)).toEqual(['line.png']);
  }, 300_000);
});

describe('the one-shot commands started again with the settings', () => {
  it('are exactly those whose operation can read with the OCR engine', () => {
    for (const operation of OPERATIONS)
      expect([commandWords(operation).join(' '), oneShotWantsMallocSettings(commandWords(operation))]).toEqual([
        commandWords(operation).join(' '),
        operation.engines.includes('ocr'),
      ]);
  });
});
