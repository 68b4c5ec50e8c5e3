// The one way docwasm writes outputs: each output is first written to a temp file in its
// target directory (the engine writes straight into it), then renamed over the destination,
// keeping the permission bits of a file it replaces. A failed, timed-out, cancelled or
// interrupted job leaves neither output nor temp file behind. One errno → code mapping.

import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { ApiError } from '../errors.js';
import { identityOf, NO_FOLLOW, swappedError, type FileRef } from '../shared/file-ref.js';
import { isConfined, proveOpenedAt, type PathPolicy } from './paths.js';

const liveTempFiles = new Set<string>();
/** Private work dirs of the service (a pipeline's intermediate files), removed with the temp files. */
const liveTempDirs = new Set<string>();

export interface StagedOutput {
  /** Where the engine writes: the temp file, as created (see src/shared/file-ref.ts). */
  temp: FileRef;
  target: string;
  /** Renames the temp file over the target. */
  commit(): Promise<void>;
  /** Removes the temp file, if it is still there. */
  discard(): Promise<void>;
}

/**
 * A temp file beside `target`, created now: proves the target is writable before any work. When
 * the service is confined, `target` is a checked real path and the temp file is proved to sit
 * beside it (no directory swapped in since the check).
 */
export async function stageOutput(policy: PathPolicy, target: string): Promise<StagedOutput> {
  const dir = path.dirname(target);
  await fs.mkdir(dir, { recursive: true }).catch((err: unknown) => {
    throw outputError(err, target);
  });
  const existing = await fs.stat(target).catch(() => undefined);
  if (existing?.isDirectory()) throw new ApiError('OUTPUT_NOT_WRITABLE', `Output path is a directory: ${target}`);
  const temp = path.join(dir, `.${path.basename(target).slice(0, 100)}.${randomBytes(6).toString('hex')}.docwasm.tmp`);
  const handle = await fs.open(temp, 'wx').catch((err: unknown) => {
    throw outputError(err, target);
  });
  liveTempFiles.add(temp);
  try {
    if (isConfined(policy)) await proveOpenedAt(handle.fd, temp, target);
    const identity = identityOf(await handle.stat({ bigint: true }));
    return { temp: { path: temp, identity }, target, commit: () => commit(temp, target), discard: () => discard(temp) };
  } catch (err) {
    await discard(temp);
    throw err;
  } finally {
    await handle.close();
  }
}

/**
 * Stages every target, hands the temp paths to `work`, then commits them all; any failure
 * removes the temp files and leaves the targets as they were.
 */
export async function withStagedOutputs<T>(policy: PathPolicy, targets: readonly string[], work: (temps: FileRef[]) => Promise<T>): Promise<T> {
  const staged: StagedOutput[] = [];
  try {
    for (const target of targets) staged.push(await stageOutput(policy, target));
    const result = await work(staged.map((s) => s.temp));
    for (const s of staged) await s.commit();
    return result;
  } finally {
    await Promise.all(staged.map((s) => s.discard()));
  }
}

/** Opens a staged temp file for writing on the main thread, as the file that was staged. */
export async function openStaged(temp: FileRef, target: string): Promise<fs.FileHandle> {
  const handle = await fs.open(temp.path, fs.constants.O_WRONLY | fs.constants.O_TRUNC | NO_FOLLOW).catch((err: unknown) => {
    throw outputError(err, target);
  });
  if (identityOf(await handle.stat({ bigint: true })) === temp.identity) return handle;
  await handle.close();
  throw swappedError(target);
}

/** Writes bytes produced on the main thread into a staged temp file. */
export async function writeStaged(temp: FileRef, data: string | Uint8Array, target: string): Promise<void> {
  const handle = await openStaged(temp, target);
  try {
    await handle.writeFile(data);
  } catch (err) {
    throw outputError(err, target);
  } finally {
    await handle.close();
  }
}

/** Synchronous last-resort cleanup for shutdown. */
export function removeAllTempFiles(): void {
  for (const temp of liveTempFiles) rmSync(temp, { force: true });
  liveTempFiles.clear();
  for (const dir of liveTempDirs) rmSync(dir, { recursive: true, force: true });
  liveTempDirs.clear();
}

/** A private work dir of the service, removed at shutdown if its owner has not removed it. */
export function trackTempDir(dir: string): { remove(): Promise<void> } {
  liveTempDirs.add(dir);
  return {
    remove: async () => {
      await fs.rm(dir, { recursive: true, force: true });
      liveTempDirs.delete(dir);
    },
  };
}

/** Maps a file-system error on an output to the contract's code. */
export function outputError(err: unknown, target: string): ApiError {
  const code = (err as NodeJS.ErrnoException)?.code ?? 'unknown error';
  return new ApiError('OUTPUT_NOT_WRITABLE', `Cannot write output ${target} (${code})`);
}

async function commit(temp: string, target: string): Promise<void> {
  try {
    const replaced = await fs.stat(target).catch(() => undefined);
    if (replaced) await fs.chmod(temp, replaced.mode & 0o7777);
    await fs.rename(temp, target);
  } catch (err) {
    throw outputError(err, target);
  }
  liveTempFiles.delete(temp);
}

async function discard(temp: string): Promise<void> {
  if (!liveTempFiles.has(temp)) return;
  await fs.rm(temp, { force: true }).catch(() => undefined);
  liveTempFiles.delete(temp);
}
