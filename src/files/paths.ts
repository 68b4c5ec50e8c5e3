// Turns request paths into absolute, policy-checked paths. With allowed dirs, the check runs on
// the real path (symlinks and `..` resolved) before any existence check, so a refused path
// reveals nothing about what exists outside; the engines then use that real path, and inputs
// and temp outputs carry the checked file's identity (core/file-ref.ts), so a link
// swapped in after the check cannot redirect a read or a write. Inputs are checked, and later
// read, through a descriptor opened without waiting (core/file-ref.ts): a FIFO, device or
// directory, given or renamed onto the name at any time, is FILE_NOT_FOUND at once.

import fs from 'node:fs/promises';
import path from 'node:path';
import { ApiError } from '../../core/errors.js';
import { fileError, swappedError } from '../../core/file-errors.js';
import { identityOf, notRegularError, openCheckedHandle, openFlags, type FileRef } from '../../core/file-ref.js';
import { readHeadOf } from '../../core/sniff.js';

export interface PathPolicy {
  baseDir: string;
  /** Real paths of the allowed directories; empty = everything allowed. */
  allowedDirs: readonly string[];
  maxInputBytes: number;
}

export async function createPathPolicy(baseDir: string, allowDirs: readonly string[], maxInputBytes: number): Promise<PathPolicy> {
  const allowedDirs = await Promise.all(allowDirs.map((dir) => realPathOfPossiblyMissing(dir)));
  return { baseDir, allowedDirs, maxInputBytes };
}

export const isConfined = (policy: PathPolicy): boolean => policy.allowedDirs.length > 0;

/** An existing regular file that may be read. */
export async function resolveInputPath(policy: PathPolicy, raw: string): Promise<FileRef> {
  return (await resolveInput(policy, raw, 0)).ref;
}

/** As resolveInputPath, with the file's first `length` bytes (to judge its type by content), read through the descriptor that was checked. */
export async function resolveInputWithHead(policy: PathPolicy, raw: string, length: number): Promise<{ ref: FileRef; head: Uint8Array }> {
  const { ref, head } = await resolveInput(policy, raw, length);
  return { ref, head: head ?? new Uint8Array() };
}

async function resolveInput(policy: PathPolicy, raw: string, headLength: number): Promise<{ ref: FileRef; head?: Uint8Array }> {
  const checked = await resolveAllowed(policy, raw);
  const confined = isConfined(policy);
  // Never waiting (a FIFO must not hang the check); never through a link when confined (the real path has none).
  const handle = await fs.open(checked, openFlags(fs.constants.O_RDONLY, confined)).catch((err: unknown) => {
    throw fileError(err, { role: 'input', shown: checked, checked: confined });
  });
  try {
    const stats = await handle.stat({ bigint: true });
    checkInputStats(stats, policy, raw, checked);
    if (confined) await proveOpenedAt(handle.fd, checked, raw);
    const ref = confined ? { path: checked, identity: identityOf(stats) } : { path: checked };
    return headLength > 0 ? { ref, head: await readHeadOf(handle, headLength) } : { ref };
  } finally {
    await handle.close();
  }
}

/** The first `length` bytes of a checked input (to judge its type by content), read as the file that was checked. */
export async function readInputHead(ref: FileRef, length: number, shown = ref.path): Promise<Uint8Array> {
  const handle = await openInput(ref, shown);
  try {
    return await readHeadOf(handle, length);
  } finally {
    await handle.close();
  }
}

/** The bytes of a checked input, read on the main thread as the file that was checked. */
export async function readChecked(ref: FileRef, shown = ref.path): Promise<Buffer> {
  const handle = await openInput(ref, shown);
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/**
 * The one way the main thread opens a checked input again: not waiting, as the file that was
 * checked, a regular file; the contract's code otherwise.
 */
export async function openInput(ref: FileRef, shown = ref.path): Promise<fs.FileHandle> {
  return openCheckedHandle(ref, fs.constants.O_RDONLY, shown).catch((err: unknown) => {
    throw fileError(err, { role: 'input', shown, checked: ref.identity !== undefined });
  });
}

/** A path that may be written; it need not exist yet. The real path when the service is confined. */
export async function resolveOutputPath(policy: PathPolicy, raw: string): Promise<string> {
  return resolveAllowed(policy, raw);
}

/**
 * Proves that an open file is the one at `expected` (a real path): the kernel's name for the
 * descriptor where there is one (Linux), else the real path resolved again after the open.
 */
export async function proveOpenedAt(fd: number, expected: string, shown: string): Promise<void> {
  const opened = await fs.readlink(`/proc/self/fd/${fd}`).catch(() => undefined);
  const actual = opened ?? (await fs.realpath(expected).catch(() => undefined));
  if (actual !== expected) throw swappedError(shown);
}

/**
 * The input is a regular file within the size limit. A message names the path it was looked for
 * at (a relative one resolved against the base dir), and says when it is a directory rather than
 * calling it not found.
 */
function checkInputStats(stats: { isFile(): boolean; isDirectory(): boolean; size: number | bigint }, policy: PathPolicy, raw: string, checked: string): void {
  if (stats.isDirectory()) throw new ApiError('FILE_NOT_FOUND', `Input ${checked} is a directory, not a file`);
  if (!stats.isFile()) throw notRegularError(checked);
  if (Number(stats.size) > policy.maxInputBytes) {
    throw new ApiError('TOO_LARGE', `Input file ${raw} is ${stats.size} bytes; the limit is ${policy.maxInputBytes}`);
  }
}

async function resolveAllowed(policy: PathPolicy, raw: string): Promise<string> {
  const absolute = path.resolve(policy.baseDir, raw);
  if (!isConfined(policy)) return absolute;
  const real = await realPathOfPossiblyMissing(absolute);
  if (!policy.allowedDirs.some((dir) => isInside(real, dir))) {
    throw new ApiError('PATH_NOT_ALLOWED', `Path is outside the allowed directories: ${raw}`);
  }
  return real;
}

/** realpath of the deepest existing ancestor, with the missing rest appended. */
async function realPathOfPossiblyMissing(absolute: string): Promise<string> {
  const missing: string[] = [];
  let current = path.resolve(absolute);
  for (;;) {
    try {
      return path.join(await fs.realpath(current), ...missing.reverse());
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return path.resolve(absolute);
      missing.push(path.basename(current));
      current = parent;
    }
  }
}

/** `dir/..foo` is inside `dir`; `dir/../foo` is not. */
export function isInside(candidate: string, dir: string): boolean {
  const relative = path.relative(dir, candidate);
  if (relative === '') return true;
  return relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}

/** `report.final.pdf` → `report.final`. */
export function fileStem(filePath: string): string {
  const base = path.basename(filePath);
  const ext = path.extname(base);
  return ext ? base.slice(0, -ext.length) : base;
}

/** Lower-case extension without the dot (`.PDF` → `pdf`). */
export function extensionOf(filePath: string): string {
  return path.extname(filePath).slice(1).toLowerCase();
}
