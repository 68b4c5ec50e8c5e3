// Offices left behind by a docwasm that died without closing (SIGKILL, power loss of the
// terminal…): their profile dirs carry the dead service's PID. The next service that starts
// LibreOffice kills those offices and removes their dirs, and the sockets those offices left
// in /tmp (without an OS sandbox their pipe is the host's /tmp/OSL_PIPE_…, named after the
// profile's URL). Process lookup uses /proc (Linux); elsewhere only the dirs of dead services
// and their sockets are removed.

import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isAlive } from '../../core/process-alive.js';
import { officePipePath, removeStalePipe } from './office-pipe.js';

const PROFILE_DIR = /^docwasm-soffice-(\d+)-/;

export async function reapOrphanedOffices(tmpdir = os.tmpdir()): Promise<number> {
  const entries = await fs.readdir(tmpdir).catch(() => [] as string[]);
  const deadDirs = entries.filter((name) => {
    const owner = Number(PROFILE_DIR.exec(name)?.[1]);
    return Number.isInteger(owner) && owner !== process.pid && !isAlive(owner);
  });
  if (deadDirs.length === 0) return 0;
  let killed = 0;
  if (process.platform === 'linux') {
    for (const pid of await fs.readdir('/proc').catch(() => [] as string[])) {
      if (!/^\d+$/.test(pid)) continue;
      const cmdline = await fs.readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
      if (!deadDirs.some((dir) => cmdline.includes(`${path.join(tmpdir, dir)}/`))) continue;
      try {
        process.kill(Number(pid), 'SIGKILL');
        killed++;
      } catch {
        /* already gone */
      }
    }
  }
  await Promise.all(
    deadDirs.map(async (dir) => {
      const root = path.join(tmpdir, dir);
      await removeSlotPipes(root);
      await fs.rm(root, { recursive: true, force: true }).catch(() => undefined);
    }),
  );
  return killed;
}

/** The pipes of the slot profiles (`<root>/slot-N/profile`) of a dead service, once their offices are gone. */
async function removeSlotPipes(root: string): Promise<void> {
  const slots = await fs.readdir(root).catch(() => [] as string[]);
  await Promise.all(slots.map((slot) => removeStalePipe(officePipePath(pathToFileURL(path.join(root, slot, 'profile')).href))));
}
