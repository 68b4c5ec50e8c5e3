// Starts the built service (dist/) as a real child process on a free loopback port and talks
// to it over HTTP, as a user's script would.

import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { removeAtEnd, stopAtEnd } from './cleanup.js';
import { watchStderrForWarnings } from './warnings.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CLI = path.join(ROOT, 'dist/src/cli/main.js');

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: Record<string, unknown> & {
    success?: boolean;
    code?: string;
    error?: string;
    message?: string;
    outputPath?: string;
    data?: Record<string, unknown>;
    text?: string;
  };
}

export interface RunningService {
  port: number;
  baseUrl: string;
  /** Working directory for this service's files (also its --base-dir). */
  dir: string;
  child: ChildProcess;
  stderr: () => string;
  post(route: string, body: unknown, headers?: Record<string, string>): Promise<ApiResponse>;
  get(route: string, headers?: Record<string, string>): Promise<ApiResponse>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * The process that does the work of a docwasm started as `pid`: its child where it started again
 * with glibc's malloc settings as a child (Node < 22.15, src/cli/malloc-restart.ts), else itself.
 */
export function workingPid(pid: number): number {
  const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
  return children ? Number(children.split(/\s+/)[0]) : pid;
}

/** A fresh dir in the test file's temp dir, removed when the test file ends. */
export function tempDir(prefix = 'docwasm-test-'): string {
  return removeAtEnd(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}

/** Starts `docwasm serve` with the given extra flags; `--base-dir` defaults to a fresh temp dir. */
export async function startService(flags: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<RunningService> {
  const port = await freePort();
  const dir = tempDir();
  const args = [CLI, 'serve', '--port', String(port), ...(flags.includes('--base-dir') ? [] : ['--base-dir', dir]), ...flags];
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  return attachService(child, port, dir);
}

/** Stops a service started outside a test file (a bench: no per-file cleanup runs there) and removes its base dir. */
export async function stopAndRemove(service: RunningService): Promise<void> {
  await service.stop();
  fs.rmSync(service.dir, { recursive: true, force: true });
}

/** Waits until a spawned service listens, then wraps it for the tests. */
export async function attachService(child: ChildProcess, port: number, dir: string): Promise<RunningService> {
  stopAtEnd(child);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  watchStderrForWarnings(`service on port ${port}`, () => stderr);
  await new Promise<void>((resolve, reject) => {
    let stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('listening on')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`service exited (${code}) before listening:\n${stderr}`)));
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const request = (method: string, route: string, body: unknown, headers: Record<string, string>) => requestJson(baseUrl + route, method, body, headers);
  return {
    port,
    baseUrl,
    dir,
    child,
    stderr: () => stderr,
    post: (route, body, headers = {}) => request('POST', route, body, headers),
    get: (route, headers = {}) => request('GET', route, undefined, headers),
    stop: (signal = 'SIGTERM') =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill(signal);
      }),
  };
}

/**
 * One JSON request, as a user's script sends it. A request that went out on a kept-alive socket
 * the server had just closed (idle) was never answered: it is sent once more on a new connection,
 * as browsers and HTTP clients do. Only that error (undici's "other side closed" from fetch, before
 * any answer), and only once; anything else is the test's to see.
 */
export async function requestJson(url: string, method: string, body: unknown, headers: Record<string, string> = {}): Promise<ApiResponse> {
  const init: RequestInit = { method, headers: { ...(method === 'POST' && { 'content-type': 'application/json' }), ...headers } };
  if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    if (!closedUnanswered(error)) throw error;
    response = await fetch(url, init);
  }
  const text = await response.text();
  let parsed: ApiResponse['body'];
  try {
    parsed = JSON.parse(text) as ApiResponse['body'];
  } catch {
    parsed = { raw: text };
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

/** fetch's failure when the server closed the connection before answering: `fetch failed`, caused by UND_ERR_SOCKET "other side closed". */
function closedUnanswered(error: unknown): boolean {
  const cause = error instanceof TypeError ? (error.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  return cause?.code === 'UND_ERR_SOCKET' && String(cause.message).includes('other side closed');
}

/** Files in `dir` (recursively) whose names mark them as docwasm temp files. */
export function leftoverTempFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.name.includes('.docwasm.tmp') || entry.name.startsWith('.docwasm-')) found.push(path.join(entry.parentPath, entry.name));
  }
  return found;
}
