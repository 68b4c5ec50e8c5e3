// A file that was checked, and the one way to open exactly that file later. The path is the real
// path the policy checked; `identity` (device and inode) is the checked file's, so a symlink or
// directory swapped in between the check and the use (by another process) cannot redirect a
// read or a write: the open refuses with O_NOFOLLOW, and a different file answers PATH_NOT_ALLOWED.
// Every open is non-blocking and answers only for a regular file: a FIFO or a device renamed
// onto the name after the check opens at once and is refused (issue 28: a blocking open of a
// FIFO held a libuv thread, or an engine worker, for good). The main thread (src/files) and the
// engine workers (wasm/shared/io.ts) open through here, the same way.

import fs from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { ApiError } from './errors.js';
import { swappedError } from './file-errors.js';

export interface FileRef {
  path: string;
  /** `dev:ino` of the checked file; absent when no allowed dirs confine the service. */
  identity?: string | undefined;
}

/** O_NOFOLLOW where the platform has it (not on Windows, whose links need privileges to make). */
export const NO_FOLLOW = fs.constants.O_NOFOLLOW ?? 0;
/**
 * Opening a FIFO for reading waits for a writer and opening some devices waits for a carrier:
 * O_NONBLOCK returns at once (regular files read as usual). O_NOCTTY: a terminal device never
 * becomes the service's controlling terminal.
 */
const NEVER_WAIT = (fs.constants.O_NONBLOCK ?? 0) | (fs.constants.O_NOCTTY ?? 0);

export function identityOf(stats: fs.BigIntStats): string {
  return `${stats.dev}:${stats.ino}`;
}

/** `flags` for an open that never waits and, for a `checked` path (a real path), never follows a link. */
export function openFlags(flags: number, checked: boolean): number {
  return flags | NEVER_WAIT | (checked ? NO_FOLLOW : 0);
}

/** The error for an open file that is not the regular file `ref` names (or not the checked one). */
export function refusalOf(ref: FileRef, stats: fs.BigIntStats, shown = ref.path): ApiError | undefined {
  if (!stats.isFile()) return notRegularError(shown);
  if (ref.identity !== undefined && identityOf(stats) !== ref.identity) return swappedError(shown);
  return undefined;
}

/** The contract's answer for a FIFO, device or directory given (or swapped in) as a file. */
export function notRegularError(shown: string): ApiError {
  return new ApiError('FILE_NOT_FOUND', `Input file not found: ${shown} is not a regular file`);
}

/** Opens `ref` with `flags` (synchronously, in engine workers) and proves it is the checked regular file. */
export function openChecked(ref: FileRef, flags: number): number {
  const fd = fs.openSync(ref.path, openFlags(flags, ref.identity !== undefined));
  const refusal = refusalOf(ref, fs.fstatSync(fd, { bigint: true }));
  if (refusal === undefined) return fd;
  fs.closeSync(fd);
  throw refusal;
}

/** As openChecked, for the main thread: a handle on the checked regular file. */
export async function openCheckedHandle(ref: FileRef, flags: number, shown = ref.path): Promise<FileHandle> {
  const handle = await fs.promises.open(ref.path, openFlags(flags, ref.identity !== undefined));
  const refusal = refusalOf(ref, await handle.stat({ bigint: true }), shown);
  if (refusal === undefined) return handle;
  await handle.close();
  throw refusal;
}
