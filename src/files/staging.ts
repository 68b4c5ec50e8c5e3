// The one way docwasm writes outputs: each output is first written to a temp file in its
// target directory (the engine writes straight into it), then renamed over the destination,
// keeping the permission bits of a file it replaces. A failed, timed-out, cancelled or
// interrupted job leaves neither output nor temp file behind. An existing target must be a
// regular file: a FIFO, device or directory there is refused, never replaced.

import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { pipeline as pipeStreams } from 'node:stream/promises';
import { ApiError } from '../../core/errors.js';
import { CancelledError } from '../../core/job-errors.js';
import { fileError, swappedError } from '../../core/file-errors.js';
import { identityOf, NO_FOLLOW, type FileRef } from '../../core/file-ref.js';
import { claimOutputDir, releaseOutputDir, type OutputDir } from './output-dirs.js';
import { isConfined, openInput, type PathPolicy } from './paths.js';

const liveTempFiles = new Set<string>();
/** Private work dirs of the service (a pipeline's intermediate files), removed with the temp files. */
const liveTempDirs = new Set<string>();

/**
 * Told of each temp file before it is created, by the job that creates it: a queue worker keeps
 * them in Redis so that the job, run again after its worker died (kill -9), first removes the
 * temp files the dead one left (src/queue/queue-worker.ts).
 */
type TempJournal = (temp: string) => Promise<void>;
const journals = new AsyncLocalStorage<TempJournal>();

/** Runs `work` with every temp file it stages told to `journal` first. */
export function withTempJournal<T>(journal: TempJournal, work: () => Promise<T>): Promise<T> {
  return journals.run(journal, work);
}

export interface StagedOutput {
  /** Where the engine writes: the temp file, as created (see core/file-ref.ts), reached through its held directory. */
  temp: FileRef;
  target: string;
  /** Renames the temp file over the target, within the directory that was checked. */
  commit(): Promise<void>;
  /** Removes the temp file, if it is still there. */
  discard(): Promise<void>;
}

/**
 * A temp file beside `target`, created now: proves the target is writable before any work. The
 * target's directory is held open from here to the commit (output-dirs.ts): the engine writes,
 * and the commit renames, within that directory, and the commit first proves that the target's
 * path still leads there, so a folder renamed or swapped for a link mid-job redirects nothing.
 * A directory created for it is removed again if the output is discarded and leaves it empty.
 */
export async function stageOutput(policy: PathPolicy, target: string, journal = journals.getStore()): Promise<StagedOutput> {
  const checked = isConfined(policy);
  const dir = await claimOutputDir(path.dirname(target), checked, target).catch((err: unknown) => {
    // A link met where the checked path had a folder (ELOOP) is a swap: PATH_NOT_ALLOWED.
    throw fileError(err, { role: 'output', shown: target, checked });
  });
  try {
    return await createTemp(dir, target, journal);
  } catch (err) {
    await releaseOutputDir(dir);
    throw err;
  }
}

async function createTemp(dir: OutputDir, target: string, journal: TempJournal | undefined): Promise<StagedOutput> {
  const name = path.basename(target);
  refuseNonRegular(await fs.stat(dir.entry(name)).catch(() => undefined), target);
  const tempName = `.${name.slice(0, 100)}.${randomBytes(6).toString('hex')}.docwasm.tmp`;
  const temp = dir.entry(tempName);
  // By its folder's name (the real path checked), not the held descriptor's /proc path: another process removes it.
  await journal?.(path.join(dir.path, tempName));
  const handle = await fs.open(temp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | NO_FOLLOW).catch((err: unknown) => {
    throw outputError(err, target);
  });
  liveTempFiles.add(temp);
  try {
    const identity = identityOf(await handle.stat({ bigint: true }));
    const output = { dir, tempName, target };
    return { temp: { path: temp, identity }, target, commit: () => commit(output), discard: () => discard(output) };
  } catch (err) {
    await removeTemp(temp);
    throw err;
  } finally {
    await handle.close();
  }
}

/** One staged temp file per target, in the targets' order: a tuple of targets gives a tuple of files. */
export type StagedFiles<T extends readonly string[]> = { -readonly [K in keyof T]: FileRef };

/**
 * Stages every target, hands the temp files to `work`, then commits them all; any failure
 * removes the temp files and leaves the targets as they were.
 */
export function withStagedOutputs<const T extends readonly string[], R>(
  policy: PathPolicy,
  targets: T,
  work: (temps: StagedFiles<T>) => Promise<R>,
): Promise<R> {
  return withLazyStaging(policy, undefined, async (stage) => {
    const temps: FileRef[] = [];
    for (const target of targets) temps.push(await stage(target));
    // One file per target, in order: the shape StagedFiles<T> describes.
    return work(temps as StagedFiles<T>);
  });
}

/** Stages one more output; `signal` aborted → CancelledError instead. */
export type Stage = (target: string) => Promise<FileRef>;

/**
 * For many outputs made one by one (a page each): `work` stages each output when it is about to
 * be written, so a long document holds a temp file per page done, not one per page upfront, and
 * a cancel finds few to remove. All are committed once `work` succeeds; any failure removes them.
 * withStagedOutputs is the case of outputs all known upfront.
 */
export async function withLazyStaging<T>(policy: PathPolicy, signal: AbortSignal | undefined, work: (stage: Stage) => Promise<T>): Promise<T> {
  const staged: StagedOutput[] = [];
  // The job's journal, taken now: `stage` may be called back from an engine's events, outside the job's context.
  const journal = journals.getStore();
  const stage: Stage = async (target) => {
    if (signal?.aborted) throw new CancelledError();
    const output = await stageOutput(policy, target, journal);
    staged.push(output);
    return output.temp;
  };
  try {
    const result = await work(stage);
    for (const s of staged) await s.commit();
    return result;
  } finally {
    await Promise.all(staged.map((s) => s.discard()));
  }
}

/** Opens a staged temp file for writing on the main thread, as the file that was staged. */
export async function openStaged(temp: FileRef, target: string): Promise<fs.FileHandle> {
  const handle = await fs.open(temp.path, fs.constants.O_WRONLY | fs.constants.O_TRUNC | NO_FOLLOW).catch((err: unknown) => {
    throw fileError(err, { role: 'output', shown: target, checked: true });
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

/** Copies a file the service made (an office's product, a pipeline's result) into a staged temp file, as the file that was staged. */
export async function copyToStaged(source: string, temp: FileRef, target: string): Promise<void> {
  // Opened as every input is (not waiting, a regular file only).
  const from = await openInput({ path: source }, path.basename(source));
  try {
    const handle = await openStaged(temp, target);
    await pipeStreams(from.createReadStream({ autoClose: false }), handle.createWriteStream()).catch((err: unknown) => {
      throw outputError(err, target);
    });
  } finally {
    await from.close();
  }
}

/** A file of the service's own private dirs (an office's warm-up output), created now to be written as a staged file is. */
export async function createPrivateOutput(file: string): Promise<FileRef> {
  const handle = await fs.open(file, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | NO_FOLLOW);
  try {
    return { path: file, identity: identityOf(await handle.stat({ bigint: true })) };
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

function outputError(err: unknown, target: string): ApiError {
  return fileError(err, { role: 'output', shown: target });
}

/**
 * A rename would replace a FIFO or a device node with a regular file (as root, an output of
 * /dev/null would replace the system's), and a directory is no file to write. The target is
 * followed through links: a link to /dev/null is refused too.
 */
function refuseNonRegular(existing: { isFile(): boolean; isDirectory(): boolean } | undefined, target: string): void {
  if (!existing || existing.isFile()) return;
  const kind = existing.isDirectory() ? 'a directory' : 'not a regular file (a FIFO, socket or device)';
  throw new ApiError('OUTPUT_NOT_WRITABLE', `Output path ${target} exists and is ${kind}; refused`);
}

interface Output {
  dir: OutputDir;
  tempName: string;
  target: string;
}

async function commit({ dir, tempName, target }: Output): Promise<void> {
  const temp = dir.entry(tempName);
  const final = dir.entry(path.basename(target));
  try {
    // The target's folder may have been renamed, or swapped for a link, while the job ran.
    await dir.verify(target);
    const replaced = await fs.stat(final).catch(() => undefined);
    // Checked again: something else may have been put there while the job ran.
    refuseNonRegular(replaced, target);
    if (replaced) await fs.chmod(temp, replaced.mode & 0o7777);
    await fs.rename(temp, final);
  } catch (err) {
    throw outputError(err, target);
  }
  liveTempFiles.delete(temp);
  await releaseOutputDir(dir);
}

async function discard({ dir, tempName }: Output): Promise<void> {
  const temp = dir.entry(tempName);
  if (!liveTempFiles.has(temp)) return;
  await removeTemp(temp);
  await releaseOutputDir(dir);
}

async function removeTemp(temp: string): Promise<void> {
  await fs.rm(temp, { force: true }).catch(() => undefined);
  liveTempFiles.delete(temp);
}
