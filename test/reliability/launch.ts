// Starts the built service like test/helpers/service.ts does, with two extras the fault tests
// need: a file-size limit (`ulimit -f`, inherited by its children) and, when the tests run as
// root (who ignores permission bits), an unprivileged user so that a read-only dir is read-only.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { attachService, CLI, freePort, tempDir, type RunningService } from '../helpers/service.js';
import { MALLOC_TUNABLES } from '../../src/cli/malloc-restart.js';

export interface LaunchOptions {
  flags?: string[];
  env?: NodeJS.ProcessEnv;
  /** `ulimit -f` in 512-byte blocks for the service and everything it starts. */
  fileSizeBlocks?: number;
  /** Run as the unprivileged `nobody` user when the tests run as root. */
  unprivileged?: boolean;
}

const NOBODY = 65534;

/**
 * The two ways the memory suites start the service: with glibc's defaults (an empty
 * GLIBC_TUNABLES, which the service keeps rather than start itself again: src/cli/malloc-restart.ts),
 * and as every start now runs it, with glibc's malloc told to give what finished worker threads
 * freed back to the system. Only the second is held to the memory targets; the first is measured
 * and recorded.
 */
export const STARTS = [
  { name: 'plain', env: { GLIBC_TUNABLES: '' }, memoryGivenBack: false },
  { name: 'launcher', env: { GLIBC_TUNABLES: MALLOC_TUNABLES }, memoryGivenBack: true },
] as const;

export function runsAsRoot(): boolean {
  return process.getuid?.() === 0;
}

export async function launchService({ flags = [], env = {}, fileSizeBlocks, unprivileged = false }: LaunchOptions = {}): Promise<RunningService> {
  const port = await freePort();
  const dir = tempDir('docwasm-rel-');
  const asNobody = unprivileged && runsAsRoot();
  if (asNobody) fs.chmodSync(dir, 0o777);
  const args = [CLI, 'serve', '--port', String(port), '--base-dir', dir, ...flags];
  const quoted = [process.execPath, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const script = `${fileSizeBlocks === undefined ? '' : `ulimit -f ${fileSizeBlocks} && `}exec ${quoted}`;
  const child = spawn('/bin/sh', ['-c', script], {
    env: { ...process.env, ...(asNobody && { HOME: dir }), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(asNobody && { uid: NOBODY, gid: NOBODY }),
  });
  return attachService(child, port, dir);
}

/** Makes `file` (created by the tests) readable and writable for the service's user. */
export function shareWithService(file: string): void {
  fs.chmodSync(file, fs.statSync(file).isDirectory() ? 0o777 : 0o666);
}
