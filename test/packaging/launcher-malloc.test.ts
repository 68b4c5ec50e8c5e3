// On Linux with glibc the service starts itself again with glibc's malloc settings
// (src/cli/malloc-restart.ts), however it is started: `npm start` and `npx docwasm serve` (they run
// bin/docwasm.mjs) and `node dist/src/cli/main.js serve`. The process that listens must have them,
// signals must reach it, and killing the first process outright must not leave it running. A
// GLIBC_TUNABLES the user set is kept, and one-shot commands are not started twice — except those
// that can read with the OCR engine (issue 46: `docwasm ocr` of a dense A4 page peaks 852 → 698
// MB), which must still cancel on one Ctrl-C that reaches both processes. The other long-running
// doors that run the engines in-process start again too: `mcp` (as an MCP client starts it: its
// stdin and stdout pass through, closing stdin or killing the launcher outright leaves nothing
// running) and `watch`.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { oneShotWantsMallocSettings } from '../../src/cli/malloc-restart.js';
import { OPERATIONS } from '../../src/operations/index.js';
import { commandWords } from '../../src/operations/operation.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI, freePort, ROOT, tempDir, workingPid } from '../helpers/service.js';
import { callTool } from '../helpers/mcp-call.js';
import { makePdf } from '../helpers/make-pdf.js';
import { layout } from '../helpers/watch.js';
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
  return { launcher, service: workingPid(launcher.pid!) };
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

/** The process that runs what was launched as `launcher` (its child on older Node), once its environment shows the settings. */
async function workingProcess(launcher: number): Promise<{ pid: number; environ: string[] }> {
  let found = { pid: launcher, environ: [] as string[] };
  await waitFor(() => {
    if (!isAlive(launcher)) return true;
    try {
      const pid = workingPid(launcher);
      found = { pid, environ: environOf(pid) };
    } catch {
      return false; // The child came and went between two reads: the next round sees the launcher gone.
    }
    return found.environ.some((entry) => entry.startsWith('GLIBC_TUNABLES='));
  }, 30_000); // Starting again takes a second; without it (one process) the wait ends here.
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
    let err = '';
    launcher.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    launcher.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => launcher.once('exit', (code) => resolve(code)));
    const { environ } = await workingProcess(launcher.pid!);
    // Once with the cores busy the launcher was gone within half a second, its settings never seen: say how it ended.
    expect(environ, `launcher exit ${launcher.exitCode}, image ${fs.existsSync(path.join(dir, 'line.png'))}; ${err}`).toContain(
      `GLIBC_TUNABLES=${TUNABLES.split(':')[0]}`,
    );
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
    const working = await workingProcess(launcher.pid!);
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

/** The environment without GLIBC_TUNABLES, as an agent's host or a shell passes it. */
const withoutTunables = (): Record<string, string> =>
  Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[0] !== 'GLIBC_TUNABLES' && entry[1] !== undefined));

const hasTheSettings = (environ: string[]) => expect(environ).toContain(`GLIBC_TUNABLES=${TUNABLES.split(':')[0]}`);

describe.runIf(glibc).each(ENTRIES)('$name mcp, started by an MCP client', ({ entry }) => {
  const clients: Client[] = [];
  afterEach(() => Promise.all(clients.splice(0).map((client) => client.close())));

  /** An SDK client connected to `docwasm mcp` over stdio, and the process that serves it. */
  async function connect(): Promise<{ client: Client; launcher: number; server: number; dir: string }> {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'a.pdf'), makePdf({ pages: ['One', 'Two'] }));
    const transport = new StdioClientTransport({ command: process.execPath, args: [entry, 'mcp', '--base-dir', dir], env: withoutTunables(), stderr: 'pipe' });
    const client = new Client({ name: 'launcher-test', version: '1.0.0' });
    clients.push(client);
    await client.connect(transport);
    const launcher = transport.pid!;
    const { pid, environ } = await workingProcess(launcher);
    hasTheSettings(environ);
    return { client, launcher, server: pid, dir };
  }

  it('answers a tool call from a process started with the settings, and closing the client ends both', async () => {
    const { client, launcher, server } = await connect();
    const { envelope } = await callTool(client, 'pdf_info', { input: 'a.pdf' });
    expect(envelope).toMatchObject({ success: true, data: { pages: 2 } });
    await client.close();
    expect(await waitFor(() => !isAlive(server) && !isAlive(launcher), 60_000)).toBe(true);
  }, 240_000);

  it('a launcher killed outright (SIGKILL) leaves no docwasm process behind, though the client still holds its stdin', async () => {
    const { launcher, server } = await connect();
    process.kill(launcher, 'SIGKILL');
    expect(await waitFor(() => !isAlive(server), 60_000)).toBe(true);
  }, 240_000);

  it('ends by itself, status 0 passed back, when its stdin closes (a client that exits or is killed), with no signal sent', async () => {
    const launcher = stopAtEnd(spawn(process.execPath, [entry, 'mcp', '--base-dir', tempDir()], { env: withoutTunables(), stdio: ['pipe', 'pipe', 'pipe'] }));
    const exited = new Promise<number | null>((resolve) => launcher.once('exit', (code) => resolve(code)));
    const { pid, environ } = await workingProcess(launcher.pid!);
    hasTheSettings(environ);
    launcher.stdin!.end();
    expect(await exited).toBe(0);
    expect(await waitFor(() => !isAlive(pid), 60_000)).toBe(true);
  }, 240_000);

  it('passes its exit status back: a bad flag is status 2, with its message', () => {
    const result = spawnSync(process.execPath, [entry, 'mcp', '--no-such-flag'], { env: withoutTunables(), input: '', encoding: 'utf8', timeout: 120_000 });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--no-such-flag');
  });
});

describe.runIf(glibc).each(ENTRIES)('$name watch', ({ entry }) => {
  /** `docwasm watch` started from a shell (its own process group, as a terminal's job), once it watches. */
  async function startWatcher(): Promise<{
    launcher: ChildProcess;
    watcher: number;
    exited: Promise<number | null>;
    stderr: () => string;
    inDir: string;
    outDir: string;
  }> {
    const { inDir, outDir, steps } = layout();
    const launcher = stopAtEnd(
      spawn(process.execPath, [entry, 'watch', inDir, '--steps', steps, '--out', outDir, '--settle', '0.2', '--workers', '1'], {
        env: withoutTunables(),
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      }),
    );
    let stderr = '';
    launcher.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => launcher.once('exit', (code) => resolve(code)));
    expect(await waitFor(() => stderr.includes('docwasm watch: watching') || !isAlive(launcher.pid!), 120_000)).toBe(true);
    const { pid, environ } = await workingProcess(launcher.pid!);
    hasTheSettings(environ);
    return { launcher, watcher: pid, exited, stderr: () => stderr, inDir, outDir };
  }

  it.each([
    { how: 'SIGTERM to the launcher', stop: (launcher: ChildProcess) => launcher.kill('SIGTERM') },
    { how: 'one Ctrl-C (SIGINT to the process group, reaching both)', stop: (launcher: ChildProcess) => process.kill(-launcher.pid!, 'SIGINT') },
  ])(
    'runs a file through its pipeline in a process with the settings; $how stops both with status 0',
    async ({ stop }) => {
      const { launcher, watcher, exited, stderr, inDir, outDir } = await startWatcher();
      fs.writeFileSync(path.join(inDir, 'a.pdf'), makePdf({ pages: ['One'] }));
      expect(await waitFor(() => fs.existsSync(path.join(outDir, 'a.pdf')), 120_000)).toBe(true);
      stop(launcher);
      expect(await exited).toBe(0);
      expect(await waitFor(() => !isAlive(watcher), 60_000)).toBe(true);
      expect(stderr().match(/docwasm watch: stopping/g)).toHaveLength(1);
    },
    240_000,
  );

  it('a launcher killed outright (SIGKILL) does not leave the watcher running', async () => {
    const { launcher, watcher } = await startWatcher();
    launcher.kill('SIGKILL');
    expect(await waitFor(() => !isAlive(watcher), 60_000)).toBe(true);
  }, 240_000);
});
