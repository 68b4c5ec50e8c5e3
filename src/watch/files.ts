// The watcher's own file moves and writes: an error record written atomically, an input moved
// (never copied and left, never deleted, never over another file) to the done or failed dir,
// and a result dir put in place of the one this watcher made before (and of nothing else).

import { constants } from 'node:fs';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ApiError } from '../../core/errors.js';
import { cutToBytes, numberedName } from './names.js';

/** The name of a temp file of ours beside `file` (removed by removeLeftovers after a crash). */
const tempBeside = (file: string) => path.join(path.dirname(file), `.${cutToBytes(path.basename(file), 100)}.${randomBytes(6).toString('hex')}.docwasm.tmp`);
const PARTIAL_PREFIX = '.docwasm-partial-';
const LEFTOVER = /^\..+\.docwasm\.tmp$|^\.docwasm-partial-/;
/** Numbered names tried before giving up on a folder (`report (9999).pdf`). */
const MAX_NUMBERED = 9_999;

/** Written whole or not at all: temp file, fsync, rename. */
export async function writeFileAtomically(file: string, text: string): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const temp = tempBeside(file);
  try {
    const handle = await fs.open(temp, 'wx');
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temp, file);
  } finally {
    await fs.rm(temp, { force: true });
  }
}

/** Temp files and partial result dirs a killed watcher left in `dir` (ours by their names). */
export async function removeLeftovers(dir: string): Promise<void> {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  await Promise.all(names.filter((name) => LEFTOVER.test(name)).map((name) => fs.rm(path.join(dir, name), { recursive: true, force: true })));
}

/** A fresh, empty dir in `dir` for a result dir being made (a leftover by its name if we are killed). */
export const makePartialDir = (dir: string): Promise<string> => fs.mkdtemp(path.join(dir, PARTIAL_PREFIX));

/** A private dir an input passes through on its way (`.docwasm-moving-XXXXXX/<name>`). */
const MOVING_PREFIX = '.docwasm-moving-';

/**
 * Moves `file` into `dir` under its own name or, where a file of that name is there already,
 * the first free `name (2).ext`, `name (3).ext`...; never over another file. `companion(name)`
 * names a file that must be free too (the error record that goes beside a failed input).
 * Resolves with the name the file got.
 *
 * The file first leaves the watched folder in one rename, into a private dir in `dir` (so a
 * sender writing that name again makes a new file, never writes into the moved one); from
 * there a hard link puts it at a free name (a link never replaces: EEXIST) and the private
 * name goes. A kill on the way leaves it in the private dir, where recoverMoves() finds it.
 */
export async function moveInto(file: string, dir: string, companion?: (name: string) => string): Promise<string> {
  await fs.mkdir(dir, { recursive: true });
  const staged = await takeAway(file, dir);
  try {
    return await placeStaged(staged, dir, companion);
  } finally {
    await fs.rmdir(path.dirname(staged)).catch(() => undefined);
  }
}

/** `file` renamed into a fresh private dir in `dir` or, across file systems, beside itself. */
async function takeAway(file: string, dir: string): Promise<string> {
  for (const near of [dir, path.dirname(file)]) {
    const box = await fs.mkdtemp(path.join(near, MOVING_PREFIX));
    const staged = path.join(box, path.basename(file));
    try {
      await fs.rename(file, staged);
      return staged;
    } catch (err) {
      await fs.rmdir(box).catch(() => undefined);
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    }
  }
  throw new Error(`Cannot move ${file}`);
}

/** The staged file at the first free name in `dir`. */
async function placeStaged(staged: string, dir: string, companion?: (name: string) => string): Promise<string> {
  const name = path.basename(staged);
  for (let n = 1; n <= MAX_NUMBERED; n++) {
    const candidate = n === 1 ? name : numberedName(name, n);
    if (companion && (await exists(path.join(dir, companion(candidate))))) continue;
    try {
      await placeWithoutReplacing(staged, path.join(dir, candidate));
      return candidate;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  throw new ApiError('OUTPUT_NOT_WRITABLE', `${dir} holds ${name} and ${MAX_NUMBERED - 1} numbered copies of it already`);
}

/**
 * Finishes the moves a killed watcher left half-done in `dirs`: a staged file already linked at
 * its place loses its private name; one that is not is placed in the folder its private dir is
 * in (one left beside the watched folder's file goes back there, and is looked at again).
 */
export async function recoverMoves(dirs: readonly string[]): Promise<void> {
  for (const dir of dirs) {
    const boxes = (await fs.readdir(dir).catch(() => [] as string[])).filter((name) => name.startsWith(MOVING_PREFIX));
    for (const box of boxes.map((name) => path.join(dir, name))) {
      for (const name of await fs.readdir(box).catch(() => [] as string[])) {
        const staged = path.join(box, name);
        const stats = await fs.lstat(staged);
        if (stats.isFile() && stats.nlink > 1) await fs.unlink(staged);
        else await placeStaged(staged, dir);
      }
      await fs.rmdir(box).catch(() => undefined);
    }
  }
}

/**
 * Moves `staged` to `target`, failing with EEXIST where anything is there: link, then unlink
 * the private name. Across file systems the copy is made beside the target and linked into
 * place before the staged file goes.
 */
async function placeWithoutReplacing(staged: string, target: string): Promise<void> {
  try {
    return await renameWithoutReplacing(staged, target);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
  }
  const temp = tempBeside(target);
  try {
    await fs.copyFile(staged, temp, constants.COPYFILE_EXCL);
    const { atime, mtime } = await fs.stat(staged);
    await fs.utimes(temp, atime, mtime);
    await renameWithoutReplacing(temp, target);
  } finally {
    await fs.rm(temp, { force: true });
  }
  await fs.unlink(staged);
}

/** Errors of a file system that has no hard links (FAT, exFAT, some FUSE and SMB mounts). */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK']);

async function renameWithoutReplacing(file: string, target: string): Promise<void> {
  try {
    await fs.link(file, target);
  } catch (err) {
    if (!NO_HARD_LINKS.has((err as NodeJS.ErrnoException).code ?? '')) throw err;
    // No links here: look, then rename. Only a file made at that very name in the same
    // instant, between the look and the rename, could be replaced.
    if (await exists(target)) throw Object.assign(new Error(`${target} exists`), { code: 'EEXIST' });
    return fs.rename(file, target);
  }
  await fs.unlink(file);
}

const exists = (file: string) =>
  fs.lstat(file).then(
    () => true,
    () => false,
  );

/**
 * Puts the result dir `partial` at `target`. Something already at `target` is replaced only
 * when it is the dir this watcher published there for the same input (`published`: its inode,
 * from the state file); anything else there is left alone and the file fails.
 */
export async function publishDir(partial: string, target: string, published: number | undefined): Promise<void> {
  const existing = await fs.lstat(target).catch(() => undefined);
  if (existing === undefined) return fs.rename(partial, target);
  if (!ownResultDir(existing, published)) throw notOurs(target);
  // Moved aside under a leftover's name first: a kill before the rm leaves it to removeLeftovers.
  const old = `${partial}-old`;
  await fs.rename(target, old);
  await fs.rename(partial, target);
  await fs.rm(old, { recursive: true, force: true });
}

/** Whether `target` (lstat'ed, or absent) may be replaced by a new result dir. */
export async function mayReplaceDir(target: string, published: number | undefined): Promise<boolean> {
  const existing = await fs.lstat(target).catch(() => undefined);
  return existing === undefined || ownResultDir(existing, published);
}

const ownResultDir = (stats: { isDirectory(): boolean; ino: number }, published: number | undefined) =>
  stats.isDirectory() && published !== undefined && stats.ino === published;

export const notOurs = (target: string): ApiError =>
  new ApiError(
    'OUTPUT_NOT_WRITABLE',
    `Its result folder ${target} is there already and was not made by this watcher for this file; move it away, then touch the input to try again`,
  );
