// The directories outputs are staged in. Each is made when missing, held open while outputs are
// pending in it, and removed again if staging made it and it ends up empty (a failed or
// cancelled operation leaves no empty folder behind).
//
// Held open, because a path names a directory only at the moment it is resolved: a folder
// renamed, or swapped for a symlink, while a job runs would otherwise redirect the job's writes,
// renames and removals (issue 41: a CSV landed outside --allow-dir, replacing a file there).
// Every use of an entry goes through the descriptor where the OS lets a path do so (Linux's
// /proc/self/fd/N/name is openat/renameat/unlinkat in a path), and `verify` proves, before a
// commit, that the path still names the held directory where it was checked.

import fs from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { swappedError } from '../../core/file-errors.js';
import { NO_FOLLOW } from '../../core/file-ref.js';

/** Paths through a descriptor (Linux, and any OS with a /proc like it); elsewhere entries go by name after `verify`. */
const FD_PATHS = existsSync('/proc/self/fd');
const OPEN_DIR = (fsConstants: typeof fs.constants) => fsConstants.O_RDONLY | (fsConstants.O_DIRECTORY ?? 0);

export interface OutputDir {
  /** The directory's path as checked (its real path when the service is confined). */
  readonly path: string;
  /** `name` in the held directory: through its descriptor where the OS allows, else by name. */
  entry(name: string): string;
  /** PATH_NOT_ALLOWED unless the directory still sits where it was checked. */
  verify(shown: string): Promise<void>;
}

interface Claim {
  /** Outputs staged in the directory and not yet committed or discarded (counted before it opens). */
  pending: number;
  opened: Promise<{ held: HeldDir; created: string | undefined }>;
}

const claims = new Map<string, Claim>();
/** Removals under way: a new claim waits for them, or it could stage into a directory being removed. */
const removals = new Map<string, Promise<void>>();

/**
 * Makes `dir` and its missing parents (each new one through its parent's descriptor), holds it
 * open and counts one pending output in it. `checked`: `dir` is a real path the policy checked,
 * and opening it must prove that no link was swapped in since.
 */
export async function claimOutputDir(dir: string, checked: boolean, shown: string): Promise<OutputDir> {
  await removals.get(dir);
  let claim = claims.get(dir);
  if (!claim) {
    claim = { pending: 0, opened: openDir(dir, checked, shown) };
    claims.set(dir, claim);
  }
  claim.pending += 1;
  try {
    const { held } = await claim.opened;
    await held.verify(shown);
    return held;
  } catch (err) {
    await release(dir);
    throw err;
  }
}

/** An output in `dir` was committed or discarded; after the last one, the directory is closed, and removed if staging made it and it is empty. */
export function releaseOutputDir(dir: OutputDir): Promise<void> {
  return release(dir.path);
}

async function release(dir: string): Promise<void> {
  const claim = claims.get(dir);
  if (!claim || --claim.pending > 0) return;
  claims.delete(dir);
  const opened = await claim.opened.catch(() => undefined);
  if (!opened) return;
  await opened.held.close();
  if (opened.created === undefined) return;
  const removal = removeEmptyDirs(dir, opened.created).finally(() => removals.delete(dir));
  removals.set(dir, removal);
  await removal;
}

async function openDir(dir: string, checked: boolean, shown: string): Promise<{ held: HeldDir; created: string | undefined }> {
  const { handle, created } = FD_PATHS ? await openCreatingThroughFds(dir, checked) : await openCreatingByName(dir, checked);
  try {
    const where = await whereOpened(handle, dir);
    if (checked && where !== dir) throw swappedError(shown);
    return { held: new HeldDir(dir, handle, where), created };
  } catch (err) {
    await handle.close();
    throw err;
  }
}

/** mkdir -p where each new directory is made in, and opened through, its parent's descriptor. */
async function openCreatingThroughFds(dir: string, checked: boolean): Promise<{ handle: fs.FileHandle; created: string | undefined }> {
  const missing: string[] = [];
  let existing = dir;
  while (!(await fs.stat(existing).catch(() => undefined)) && path.dirname(existing) !== existing) {
    missing.unshift(path.basename(existing));
    existing = path.dirname(existing);
  }
  // A checked path is a real path: a link anywhere on it was swapped in since (the open would say ENOTDIR).
  if (checked && (await fs.lstat(existing).catch(() => undefined))?.isSymbolicLink()) throw swappedError(dir);
  let handle = await fs.open(existing, OPEN_DIR(fs.constants) | (checked ? NO_FOLLOW : 0));
  let created: string | undefined;
  let current = existing;
  try {
    if (checked && (await whereOpened(handle, existing)) !== existing) throw swappedError(dir);
    for (const name of missing) {
      const made = await fs.mkdir(`/proc/self/fd/${handle.fd}/${name}`).then(
        () => true,
        (err: NodeJS.ErrnoException) => {
          if (err.code !== 'EEXIST') throw err;
          return false;
        },
      );
      current = path.join(current, name);
      if (made) created ??= current;
      const next = await fs.open(`/proc/self/fd/${handle.fd}/${name}`, OPEN_DIR(fs.constants) | NO_FOLLOW);
      await handle.close();
      handle = next;
    }
    return { handle, created };
  } catch (err) {
    await handle.close();
    throw err;
  }
}

/** Without descriptor paths: mkdir -p by name, then open (the open is proved by the caller). */
async function openCreatingByName(dir: string, checked: boolean): Promise<{ handle: fs.FileHandle; created: string | undefined }> {
  const created = await fs.mkdir(dir, { recursive: true });
  return { handle: await fs.open(dir, OPEN_DIR(fs.constants) | (checked ? NO_FOLLOW : 0)), created };
}

/** The real path of an open directory: the kernel's name for it where there is one, else its path resolved now. */
async function whereOpened(handle: fs.FileHandle, byName: string): Promise<string | undefined> {
  if (FD_PATHS) return fs.readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined);
  return fs.realpath(byName).catch(() => undefined);
}

class HeldDir implements OutputDir {
  /** Where the directory was when opened (its real path); undefined where the OS cannot say. */
  private readonly where: string | undefined;
  private readonly identity: Promise<string>;

  constructor(
    readonly path: string,
    private readonly handle: fs.FileHandle,
    where: string | undefined,
  ) {
    this.where = where;
    this.identity = handle.stat({ bigint: true }).then((s) => `${s.dev}:${s.ino}`);
  }

  entry(name: string): string {
    return FD_PATHS ? `/proc/self/fd/${this.handle.fd}/${name}` : path.join(this.path, name);
  }

  async verify(shown: string): Promise<void> {
    const now = await whereOpened(this.handle, this.path);
    const named = await fs.stat(this.path, { bigint: true }).catch(() => undefined);
    const same = named !== undefined && `${named.dev}:${named.ino}` === (await this.identity);
    if (!same || (this.where !== undefined && now !== this.where)) throw swappedError(shown);
  }

  close(): Promise<void> {
    return this.handle.close();
  }
}

/** Removes `dir`, then its parents up to `top`, stopping at the first that holds anything. */
async function removeEmptyDirs(dir: string, top: string): Promise<void> {
  for (let current = dir; ; current = path.dirname(current)) {
    const removed = await fs.rmdir(current).then(
      () => true,
      () => false,
    );
    if (!removed || current === top || path.dirname(current) === current) return;
  }
}
