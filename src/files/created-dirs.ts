// The directories staging creates to hold outputs (`outputDir: "new/folder"`), removed again if
// they end up empty: a failed or cancelled operation leaves no empty folder behind. A directory
// is claimed once per output staged in it and looked at when the last claim is released, so an
// output still pending in it (a batch, another request) keeps it.

import fs from 'node:fs/promises';
import path from 'node:path';

interface Claim {
  /** Outputs staged in the directory and not yet committed or discarded. */
  pending: number;
  /** The topmost directory staging created for it (mkdir -p's answer); undefined if it existed. */
  created: string | undefined;
}

const claims = new Map<string, Claim>();
/** Removals under way: a new claim waits for them, or it could stage into a directory being removed. */
const removals = new Map<string, Promise<void>>();

/** Makes `dir` and its missing parents, and counts one pending output in it. */
export async function claimOutputDir(dir: string): Promise<void> {
  const removal = removals.get(dir);
  const claim = claims.get(dir) ?? { pending: 0, created: undefined };
  claim.pending += 1;
  claims.set(dir, claim);
  try {
    await removal;
    claim.created ??= await fs.mkdir(dir, { recursive: true });
  } catch (err) {
    await releaseOutputDir(dir);
    throw err;
  }
}

/** An output in `dir` was committed or discarded; after the last one, the directories staging made go if empty. */
export async function releaseOutputDir(dir: string): Promise<void> {
  const claim = claims.get(dir);
  if (!claim || --claim.pending > 0) return;
  claims.delete(dir);
  if (claim.created === undefined) return;
  const removal = removeEmptyDirs(dir, claim.created).finally(() => removals.delete(dir));
  removals.set(dir, removal);
  await removal;
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
