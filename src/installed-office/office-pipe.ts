// Where a running office listens for forwarded requests. A second `soffice` with the same
// profile hands its command line to the first over this pipe (and waits for the result); on
// Unix it is a socket in /tmp named after the MD5 of the profile URL in UTF-16LE. LibreOffice
// writes each digest byte with OUStringBuffer::append(sal_Int32, 16) — hex without zero
// padding (desktop/source/app/officeipcthread.cxx, CreateMD5FromString) — so 0x0a is "a", and
// the name is shorter than 32 digits for the ~64 % of profiles whose digest has a byte below 0x10.

import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';

export function officePipePath(profileUrl: string): string | undefined {
  if (process.platform === 'win32') return undefined;
  const digest = createHash('md5').update(Buffer.from(profileUrl, 'utf16le')).digest();
  const hash = [...digest].map((byte) => byte.toString(16)).join('');
  return `/tmp/OSL_PIPE_${os.userInfo().uid}_SingleOfficeIPC_${hash}`;
}

/** Resolves true once `file` exists, false after `timeoutMs` or when `stillStarting` says stop. */
export async function waitForFile(file: string, timeoutMs: number, stillStarting: () => boolean): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && stillStarting()) {
    if (await fs.stat(file).catch(() => undefined)) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}

/** A killed office leaves its socket behind; a stale one would look like a ready office. */
export async function removeStalePipe(pipePath: string | undefined): Promise<void> {
  if (pipePath !== undefined) await fs.rm(pipePath, { force: true }).catch(() => undefined);
}

/** The same, synchronously: from an exit handler, before anything can start a new office on that profile. */
export function removePipeNow(pipePath: string | undefined): void {
  try {
    if (pipePath !== undefined) rmSync(pipePath, { force: true });
  } catch {
    /* not ours to remove (another user's /tmp entry): nothing more to do */
  }
}

const pipesOfRunningOffices = new Set<string>();
let exitHookInstalled = false;

/**
 * Removes `pipePath` when this process exits while its office still runs: on an uncaught error
 * process-group.ts's exit hook kills the office, and nothing would remove its socket. Returns
 * the function that forgets it again (once the office is gone and its socket removed).
 */
export function removePipeAtExit(pipePath: string | undefined): () => void {
  if (pipePath === undefined) return () => undefined;
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const pipe of pipesOfRunningOffices) removePipeNow(pipe);
    });
  }
  pipesOfRunningOffices.add(pipePath);
  return () => pipesOfRunningOffices.delete(pipePath);
}
