// One watcher per folder: a lock file `.docwasm-watch.lock` in --out (and one in the watched
// folder) holding the owner's PID, host and process start time. Two watchers of one folder
// would each take every file; the second refuses to start while the first runs. A lock left by
// a watcher killed with SIGKILL (or a machine that went down) is stale when its PID is gone, is
// our own (a container restarted gives the new watcher the old PID) or now belongs to a process
// started at another time; it is then taken over. The PID of a watcher on another host (a shared
// folder, a container whose host name changed) cannot be checked: its owner refreshes the lock's
// mtime every 10 s, and a lock from another host left unrefreshed for a minute is stale.

import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ConfigError } from '../config.js';
import { isAlive } from '../../core/process-alive.js';
import { startTimeOf } from '../../core/process-stat.js';

export const LOCK_FILE = '.docwasm-watch.lock';

/** A lock being written by its owner right now reads empty for a moment: looked at again for this long. */
const PARTIAL_LOCK_WAIT_MS = 2_000;
/** How often the owner touches its lock, and how old a lock of another host may be before it is stale. */
const REFRESH_MS = 10_000;
const FOREIGN_STALE_MS = 60_000;

interface Owner {
  pid: number;
  host: string;
  /** Start time of the process (Linux: clock ticks since boot), null where unknown. */
  started: string | null;
  /** Tells this lock from one written by an earlier process of the same PID. */
  token: string;
}

export interface FolderLock {
  /** Removes the lock file if it is still ours. */
  release(): Promise<void>;
}

/**
 * Takes the lock of `dir` for this process, or throws a ConfigError naming the watcher that has
 * it. `readOnlyOk`: a folder this process cannot write to is not locked (undefined), not refused.
 */
export async function lockFolder(dir: string, what: string, readOnlyOk = false): Promise<FolderLock | undefined> {
  const file = path.join(dir, LOCK_FILE);
  const me: Owner = { pid: process.pid, host: os.hostname(), started: await startTimeOf(process.pid), token: randomBytes(8).toString('hex') };
  const text = `${JSON.stringify(me)}\n`;
  for (let attempt = 0; attempt < 5; attempt++) {
    const created = await createExclusively(file, text);
    if (created === true) return heldLock(file, text);
    if (created !== false) {
      if (readOnlyOk && READ_ONLY.has(created)) return undefined;
      throw new ConfigError(`Cannot create the lock file ${file} (${created})`);
    }
    const seen = await readSettled(file);
    if (seen === undefined) continue;
    const owner = parseOwner(seen);
    const age = Date.now() - ((await fs.stat(file).catch(() => undefined))?.mtimeMs ?? 0);
    if (owner && !(await isStale(owner, age))) {
      const where = owner.host === me.host ? `PID ${owner.pid}` : `PID ${owner.pid} on ${owner.host}, its lock refreshed ${Math.round(age / 1000)} s ago`;
      const gone =
        owner.host === me.host ? `if it is gone, remove ${file}` : `a lock of another host not refreshed for ${FOREIGN_STALE_MS / 1000} s is taken over`;
      throw new ConfigError(`Another docwasm watcher (${where}) is using ${what} ${dir}; stop it first (${gone})`);
    }
    // Stale: removed only if it is still the lock we judged, not one a rival just took.
    if ((await fs.readFile(file, 'utf8').catch(() => undefined)) === seen) await fs.rm(file, { force: true });
  }
  throw new ConfigError(`Could not take the lock ${file}: other watchers keep taking it`);
}

const READ_ONLY = new Set(['EACCES', 'EPERM', 'EROFS']);

/** true: created and written; false: there already; else the error code that stopped it. */
async function createExclusively(file: string, text: string): Promise<boolean | string> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, 'wx', 0o644);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'EEXIST' ? false : (code ?? (err as Error).message);
  }
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  return true;
}

/** The lock's text once it is whole (its owner writes it just after creating it); undefined: gone meanwhile. */
async function readSettled(file: string): Promise<string | undefined> {
  const deadline = Date.now() + PARTIAL_LOCK_WAIT_MS;
  for (;;) {
    const text = await fs.readFile(file, 'utf8').catch(() => undefined);
    if (text === undefined || parseOwner(text) !== undefined || Date.now() > deadline) return text;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function parseOwner(text: string): Owner | undefined {
  try {
    const value = JSON.parse(text) as Partial<Owner>;
    if (typeof value.pid === 'number' && Number.isInteger(value.pid) && value.pid > 0 && typeof value.host === 'string' && typeof value.token === 'string') {
      return { pid: value.pid, host: value.host, started: typeof value.started === 'string' ? value.started : null, token: value.token };
    }
  } catch {
    // Not a whole lock: a writer killed between creating and writing it, or not ours at all.
  }
  return undefined;
}

/** `age`: ms since the lock was last refreshed. */
async function isStale(owner: Owner, age: number): Promise<boolean> {
  if (owner.host !== os.hostname()) return age > FOREIGN_STALE_MS;
  if (owner.pid === process.pid || !isAlive(owner.pid)) return true;
  const started = await startTimeOf(owner.pid);
  return owner.started !== null && started !== null && started !== owner.started;
}

/** The lock we hold: refreshed while we run (a watcher on another host judges it by its age), removed on release. */
function heldLock(file: string, text: string): FolderLock {
  const ours = async () => (await fs.readFile(file, 'utf8').catch(() => undefined)) === text;
  const refresh = setInterval(() => {
    void ours().then((still) => (still ? fs.utimes(file, new Date(), new Date()).catch(() => undefined) : undefined));
  }, REFRESH_MS);
  refresh.unref();
  return {
    release: async () => {
      clearInterval(refresh);
      if (await ours()) await fs.rm(file, { force: true });
    },
  };
}
