// The private work dir of one pipeline run: intermediate files live here, under the system temp
// dir, mode 0700, named with the service's PID, and are removed whatever happens (success,
// failure, cancel, shutdown). A service killed with SIGKILL cannot clean up: the next pipeline
// removes the work dirs of services that are no longer running.

import fs from 'node:fs/promises';
import path from 'node:path';
import { isConfined, type PathPolicy } from '../files/paths.js';
import { makeOwnedTempDir, reapOrphanedTempDirs } from '../files/owned-temp-dirs.js';
import { trackTempDir } from '../files/staging.js';

const PREFIX = 'docwasm-pipeline-';

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
  orphansReaped ??= reapOrphanedTempDirs(PREFIX);
  await orphansReaped;
  const dir = await fs.realpath(await makeOwnedTempDir(PREFIX));
  const tracked = trackTempDir(dir);
  return {
    dir,
    policy: isConfined(policy) ? { ...policy, allowedDirs: [...policy.allowedDirs, dir] } : policy,
    dirFor: (step, item) => path.join(dir, `step${step}-item${item}`),
    remove: () => tracked.remove(),
  };
}
