// `docwasm watch` as a real process of the built CLI, for the watch tests: start it and wait
// for its "watching" line (or its exit), stop it, read its state file and its log lines.

import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { MALLOC_TUNABLES } from '../../src/cli/malloc-restart.js';
import { stopAtEnd } from './cleanup.js';
import { CLI, tempDir } from './service.js';

export const LONG = 240_000;
export const STEPS = [{ operation: 'pdf/compress' }, { operation: 'pdf/watermark', text: 'SEEN', rotation: 0 }];

export interface WatchProcess {
  child: ChildProcess;
  stderr: () => string;
  /** Lines `docwasm watch: done NAME → …` etc. */
  lines: (verb: string) => string[];
}

/** A folder layout for one test: in/, out/ (not made), and steps.json holding `steps`. */
export function layout(steps: readonly object[] = STEPS): { root: string; inDir: string; outDir: string; steps: string } {
  const root = tempDir('docwasm-watch-test-');
  const inDir = path.join(root, 'in');
  fs.mkdirSync(inDir);
  const file = path.join(root, 'steps.json');
  fs.writeFileSync(file, JSON.stringify(steps));
  return { root, inDir, outDir: path.join(root, 'out'), steps: file };
}

function spawnWatch(
  args: string[],
  command: string[],
  extraEnv: NodeJS.ProcessEnv = {},
): { child: ChildProcess; output: () => { stderr: string; stdout: string } } {
  // Later options win: a test's own --settle replaces the default.
  // Started with glibc's malloc settings already set, the watcher is one process (no launcher
  // starting it again, src/cli/malloc-restart.ts): a SIGKILL is its crash, and the locks hold its PID.
  const env = { ...process.env, GLIBC_TUNABLES: process.env.GLIBC_TUNABLES ?? MALLOC_TUNABLES, ...extraEnv };
  const child = stopAtEnd(spawn(process.execPath, [CLI, ...command, '--settle', '0.2', '--workers', '1', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] }));
  let stderr = '';
  let stdout = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  return { child, output: () => ({ stderr, stdout }) };
}

export async function startWatch(
  args: string[],
  command: string[] = ['watch'],
  readyText = 'docwasm watch: watching',
  env: NodeJS.ProcessEnv = {},
): Promise<WatchProcess> {
  const { child, output } = spawnWatch(args, command, env);
  const all = () => output().stderr + output().stdout;
  await waitFor(() => all().includes(readyText) || child.exitCode !== null, `the watcher to start:\n${output().stderr}`);
  if (child.exitCode !== null) throw new Error(`watch exited ${child.exitCode}: ${output().stderr}`);
  const lines = (verb: string) =>
    output()
      .stderr.split('\n')
      .filter((line) => line.startsWith(`docwasm watch: ${verb} `));
  return { child, stderr: () => output().stderr, lines };
}

/**
 * Runs a watcher expected to refuse to start: resolves with its exit status and stderr. One
 * that starts instead is stopped and reported as status null, with what it printed.
 */
export async function refusedWatch(args: string[], command: string[] = ['watch']): Promise<{ status: number | null; stderr: string }> {
  const { child, output } = spawnWatch(args, command);
  await waitFor(
    () => child.exitCode !== null || output().stderr.includes('docwasm watch: watching') || output().stdout.includes('listening on'),
    'the watcher to refuse or start',
  );
  if (child.exitCode === null) {
    await stopWatch({ child, stderr: () => output().stderr, lines: () => [] });
    return { status: null, stderr: output().stderr };
  }
  return { status: child.exitCode, stderr: output().stderr };
}

export async function stopWatch(watch: WatchProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (watch.child.exitCode !== null || watch.child.signalCode !== null) return;
  const exited = new Promise((resolve) => watch.child.once('exit', resolve));
  watch.child.kill(signal);
  await exited;
}

export async function waitFor(condition: () => boolean, what: string, timeoutMs = LONG - 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export interface Entry {
  status: string;
  size: number;
  mtimeMs: number;
  at: string;
  code?: string;
}

export const stateOf = (outDir: string): Record<string, Entry> => {
  try {
    return (JSON.parse(fs.readFileSync(path.join(outDir, '.docwasm-watch.json'), 'utf8')) as { files: Record<string, Entry> }).files;
  } catch {
    return {};
  }
};

/** Every file's status is final (none running) and there are `count` of them. */
export const settled = (outDir: string, count: number) => () =>
  Object.keys(stateOf(outDir)).length === count && Object.values(stateOf(outDir)).every((entry) => entry.status !== 'running');
