// A real Redis for the queue's tests: Debian's redis-server on a free loopback port, persistence
// off (nothing written to disk), stopped and removed when the test file ends. Also `docwasm
// worker` processes, started like the service (dist/), for the queue to hand jobs to.

import { spawn, type ChildProcess } from 'node:child_process';
import { stopAtEnd } from './cleanup.js';
import { CLI, freePort } from './service.js';

export interface RunningRedis {
  port: number;
  url: string;
  /** Stops the server (SIGKILL: as a crash would), resolving once it has exited. */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty. */
  restart(): Promise<void>;
}

export async function startRedis(): Promise<RunningRedis> {
  const port = await freePort();
  let child: ChildProcess = await spawnRedis(port);
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    kill: () => stopChild(child, 'SIGKILL'),
    restart: async () => {
      child = await spawnRedis(port);
    },
  };
}

async function spawnRedis(port: number): Promise<ChildProcess> {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', '/tmp'];
  const child = stopAtEnd(spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] }));
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Ready to accept connections')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}) before it was ready:\n${out}`)));
  });
  return child;
}

export interface RunningWorker {
  child: ChildProcess;
  stderr: () => string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** `docwasm worker --queue <url>`; resolves once it says it runs. */
export async function startWorker(url: string, flags: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<RunningWorker> {
  const child = stopAtEnd(
    spawn(process.execPath, [CLI, 'worker', '--queue', url, ...flags], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] }),
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    let stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('worker running')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`worker exited (${code}) before it ran:\n${stderr}`)));
  });
  return { child, stderr: () => stderr, stop: (signal = 'SIGTERM') => stopChild(child, signal) };
}

function stopChild(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}
