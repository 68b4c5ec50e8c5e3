// A file that was checked, and a way to open exactly that file later. The path is the real path
// the policy checked; `identity` (device and inode) is the checked file's, so a symlink or
// directory swapped in between the check and the use (by another process) cannot redirect a
// read or a write: the open refuses with O_NOFOLLOW, and a different file answers PATH_NOT_ALLOWED.

import fs from 'node:fs';
import { swappedError } from './file-errors.js';

export interface FileRef {
  path: string;
  /** `dev:ino` of the checked file; absent when no allowed dirs confine the service. */
  identity?: string | undefined;
}

/** O_NOFOLLOW where the platform has it (not on Windows, whose links need privileges to make). */
export const NO_FOLLOW = fs.constants.O_NOFOLLOW ?? 0;

export function identityOf(stats: fs.BigIntStats): string {
  return `${stats.dev}:${stats.ino}`;
}

/** Opens `ref` with `flags` and, when it carries an identity, proves it is the checked file. */
export function openChecked(ref: FileRef, flags: number): number {
  const fd = fs.openSync(ref.path, ref.identity === undefined ? flags : flags | NO_FOLLOW);
  if (ref.identity !== undefined && identityOf(fs.fstatSync(fd, { bigint: true })) !== ref.identity) {
    fs.closeSync(fd);
    throw swappedError(ref.path);
  }
  return fd;
}
