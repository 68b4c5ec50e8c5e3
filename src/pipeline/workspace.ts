// The private work dir of one pipeline run: intermediate files live here, under the system temp
// dir, mode 0700, named with the service's PID, and are removed whatever happens (success,
// failure, cancel, shutdown). A service killed with SIGKILL cannot clean up: the next pipeline
// removes the work dirs of services that are no longer running.

import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isConfined, type PathPolicy } from '../files/paths.js';
import { trackTempDir } from '../files/staging.js';
import { isAlive } from '../../core/process-alive.js';

const PREFIX = 'docwasm-pipeline-';
const WORK_DIR = /^docwasm-pipeline-(\d+)-/;

export interface Workspace {
  dir: string;
  /**
   * The caller's path policy, plus this dir when the caller is confined to allowed dirs: the
   * steps read and write here; the user's own paths were checked against the caller's policy.
   */
  policy: PathPolicy;
  /** A fresh dir for one run of one step. */
  dirFor(step: number, item: number): string;
  remove(): Promise<void>;
}

let orphansReaped: Promise<void> | undefined;

export async function openWorkspace(policy: PathPolicy): Promise<Workspace> {
  orphansReaped ??= reapOrphanedWorkspaces();
  await orphansReaped;
  const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), `${PREFIX}${process.pid}-`)));
  const tracked = trackTempDir(dir);
  return {
    dir,
    policy: isConfined(policy) ? { ...policy, allowedDirs: [...policy.allowedDirs, dir] } : policy,
    dirFor: (step, item) => path.join(dir, `step${step}-item${item}`),
    remove: () => tracked.remove(),
  };
}

/** Work dirs whose service died without removing them (kill -9, power loss). */
async function reapOrphanedWorkspaces(tmpdir = os.tmpdir()): Promise<void> {
  const entries = await fs.readdir(tmpdir).catch(() => [] as string[]);
  const dead = entries.filter((name) => {
    const owner = Number(WORK_DIR.exec(name)?.[1]);
    return Number.isInteger(owner) && owner !== process.pid && !isAlive(owner);
  });
  await Promise.all(dead.map((name) => fs.rm(path.join(tmpdir, name), { recursive: true, force: true }).catch(() => undefined)));
}
