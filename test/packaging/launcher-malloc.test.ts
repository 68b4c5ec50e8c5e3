// On Linux with glibc the service starts itself again with glibc's malloc settings
// (src/cli/malloc-restart.ts), however it is started: `npm start` and `npx docwasm serve` (they run
// bin/docwasm.mjs) and `node dist/src/cli/main.js serve`. The process that listens must have them,
// signals must reach it, and killing the first process outright must not leave it running. A
// GLIBC_TUNABLES the user set is kept, and one-shot commands are not started twice.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
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
