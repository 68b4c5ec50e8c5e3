// The one way docwasm writes outputs: every output is first written to a temp file in its
// target directory, then renamed over the destination. A failed, timed-out or interrupted job
// leaves neither output nor temp file behind.

import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { unlinkSync } from 'node:fs';
import path from 'node:path';
import { ApiError } from '../errors.js';

const liveTempFiles = new Set<string>();

/**
 * Creates a temp file for each destination (proving it is writable before any work), hands the
 * temp paths to `work`, then renames them into place. Any failure removes the temp files.
 */
export async function withStagedOutputs<T>(finalPaths: readonly string[], work: (tempPaths: string[]) => Promise<T>): Promise<T> {
  const tempPaths: string[] = [];
  try {
    for (const finalPath of finalPaths) tempPaths.push(await createTempBeside(finalPath));
    const result = await work(tempPaths);
    await commit(tempPaths, finalPaths);
    return result;
  } finally {
    await Promise.all(tempPaths.map(removeTemp));
  }
}

/** Writes bytes to `finalPath` atomically (used for outputs produced on the main thread). */
export async function writeFileAtomic(finalPath: string, data: string | Uint8Array): Promise<void> {
  await withStagedOutputs([finalPath], async ([tempPath]) => {
    await fs.writeFile(tempPath as string, data).catch((err: unknown) => {
      throw outputError(err, finalPath);
    });
  });
}

/** A temp directory beside `finalPath`, for engines that must write files under names of their own. */
export async function withStagingDir<T>(besidePath: string, work: (dir: string) => Promise<T>): Promise<T> {
  const parent = await ensureParentDir(besidePath);
  const dir = await fs.mkdtemp(path.join(parent, '.docwasm-')).catch((err: unknown) => {
    throw outputError(err, besidePath);
  });
  liveTempFiles.add(dir);
  try {
    return await work(dir);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
    liveTempFiles.delete(dir);
  }
}

/** Synchronous last-resort cleanup for shutdown. */
export function removeAllTempFiles(): void {
  for (const tempPath of liveTempFiles) {
    try {
      unlinkSync(tempPath);
    } catch {
      /* already gone or a directory */
    }
  }
}

async function createTempBeside(finalPath: string): Promise<string> {
  const dir = await ensureParentDir(finalPath);
  const existing = await fs.stat(finalPath).catch(() => undefined);
  if (existing?.isDirectory()) throw new ApiError('OUTPUT_NOT_WRITABLE', `Output path is a directory: ${finalPath}`);
  const tempPath = path.join(dir, `.${path.basename(finalPath).slice(0, 100)}.${randomBytes(6).toString('hex')}.docwasm.tmp`);
  const handle = await fs.open(tempPath, 'wx', 0o644).catch((err: unknown) => {
    throw outputError(err, finalPath);
  });
  liveTempFiles.add(tempPath);
  await handle.close();
  return tempPath;
}

async function ensureParentDir(finalPath: string): Promise<string> {
  const dir = path.dirname(finalPath);
  await fs.mkdir(dir, { recursive: true }).catch((err: unknown) => {
    throw outputError(err, finalPath);
  });
  return dir;
}

async function commit(tempPaths: readonly string[], finalPaths: readonly string[]): Promise<void> {
  for (const [i, tempPath] of tempPaths.entries()) {
    const finalPath = finalPaths[i] as string;
    await fs.rename(tempPath, finalPath).catch((err: unknown) => {
      throw outputError(err, finalPath);
    });
    liveTempFiles.delete(tempPath);
  }
}

async function removeTemp(tempPath: string): Promise<void> {
  if (!liveTempFiles.has(tempPath)) return;
  await fs.rm(tempPath, { force: true, recursive: true }).catch(() => undefined);
  liveTempFiles.delete(tempPath);
}

/** Maps a file-system error on an output to the contract's code. */
export function outputError(err: unknown, finalPath: string): ApiError {
  const code = (err as NodeJS.ErrnoException)?.code ?? 'unknown error';
  return new ApiError('OUTPUT_NOT_WRITABLE', `Cannot write output ${finalPath} (${code})`);
}
