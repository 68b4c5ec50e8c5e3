// The watcher's own file moves and writes: an error record written atomically, an input moved
// (never copied and left, never deleted) to the done or failed dir.

import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/** The name of a temp file of ours beside `file` (removed by removeLeftovers after a crash). */
const tempBeside = (file: string) => path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.docwasm.tmp`);
const LEFTOVER = /^\..+\.docwasm\.tmp$|^\.docwasm-partial-/;

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

/**
 * Moves `file` into `dir` under its name. Across file systems (a rename cannot), the copy is
 * made beside the target and renamed into place before the original is removed, so a crash
 * leaves the file in one place or both, never in none.
 */
export async function moveInto(file: string, dir: string): Promise<void> {
  await fs.mkdir(dir, { recursive: true });
  const target = path.join(dir, path.basename(file));
  try {
    await fs.rename(file, target);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    const temp = tempBeside(target);
    try {
      await fs.copyFile(file, temp);
      const { atime, mtime } = await fs.stat(file);
      await fs.utimes(temp, atime, mtime);
      await fs.rename(temp, target);
    } finally {
      await fs.rm(temp, { force: true });
    }
    await fs.rm(file);
  }
}
