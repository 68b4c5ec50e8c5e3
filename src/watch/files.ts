// The watcher's own file moves and writes: an error record written atomically, an input moved
// (never copied and left, never deleted) to the done or failed dir.

import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

export async function writeFileAtomically(file: string, text: string): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await fs.writeFile(temp, text, { flag: 'wx' });
    await fs.rename(temp, file);
  } finally {
    await fs.rm(temp, { force: true });
  }
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
    const temp = path.join(dir, `.${path.basename(file)}.${randomBytes(4).toString('hex')}.tmp`);
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
