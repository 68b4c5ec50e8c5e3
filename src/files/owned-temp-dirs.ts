// Private temp dirs named with the owning service's PID (`<prefix><pid>-XXXXXX`), so that what a
// service killed with SIGKILL (or a power loss) could not remove is found and removed by the next
// one: the pipeline's work dirs, the OCR language staging dir.

import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isAlive } from '../../core/process-alive.js';

/** A fresh dir `<prefix><this PID>-XXXXXX` in the system temp dir, mode 0700. */
export function makeOwnedTempDir(prefix: string): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), `${prefix}${process.pid}-`));
}

/** Removes the dirs of `prefix` whose owning process no longer runs. */
export async function reapOrphanedTempDirs(prefix: string, tmpdir = os.tmpdir()): Promise<void> {
  const entries = await fs.readdir(tmpdir).catch(() => [] as string[]);
  const dead = entries.filter((name) => {
    if (!name.startsWith(prefix)) return false;
    const owner = Number(/^(\d+)-/.exec(name.slice(prefix.length))?.[1]);
    return Number.isInteger(owner) && owner !== process.pid && !isAlive(owner);
  });
  await Promise.all(dead.map((name) => fs.rm(path.join(tmpdir, name), { recursive: true, force: true }).catch(() => undefined)));
}
