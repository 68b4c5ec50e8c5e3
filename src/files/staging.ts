// The one way docwasm writes outputs: each output is first written to a temp file in its
// target directory (the engine writes straight into it), then renamed over the destination,
// keeping the permission bits of a file it replaces. A failed, timed-out, cancelled or
// interrupted job leaves neither output nor temp file behind. One errno → code mapping.

import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { ApiError } from '../errors.js';

const liveTempFiles = new Set<string>();

export interface StagedOutput {
  /** Where the engine writes. */
  temp: string;
  target: string;
  /** Renames the temp file over the target. */
  commit(): Promise<void>;
  /** Removes the temp file, if it is still there. */
  discard(): Promise<void>;
}

/** A temp file beside `target`, created now: proves the target is writable before any work. */
export async function stageOutput(target: string): Promise<StagedOutput> {
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
  await handle.close();
  return { temp, target, commit: () => commit(temp, target), discard: () => discard(temp) };
}

/**
 * Stages every target, hands the temp paths to `work`, then commits them all; any failure
 * removes the temp files and leaves the targets as they were.
 */
export async function withStagedOutputs<T>(targets: readonly string[], work: (temps: string[]) => Promise<T>): Promise<T> {
  const staged: StagedOutput[] = [];
  try {
    for (const target of targets) staged.push(await stageOutput(target));
    const result = await work(staged.map((s) => s.temp));
    for (const s of staged) await s.commit();
    return result;
  } finally {
    await Promise.all(staged.map((s) => s.discard()));
  }
}

/** Writes bytes produced on the main thread into a staged temp file. */
export async function writeStaged(temp: string, data: string | Uint8Array, target: string): Promise<void> {
  await fs.writeFile(temp, data).catch((err: unknown) => {
    throw outputError(err, target);
  });
}

/** Synchronous last-resort cleanup for shutdown. */
export function removeAllTempFiles(): void {
  for (const temp of liveTempFiles) rmSync(temp, { force: true });
  liveTempFiles.clear();
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
