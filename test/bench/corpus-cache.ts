// The one cache of a built corpus: its files in a dir of their own beside a manifest.json that
// holds the stamp they were built under (a hash of the recipe and its inputs) and their entries.
// A stamp that changed empties the dir and builds again: printing and typesetting take minutes.

import fs from 'node:fs';
import path from 'node:path';

/**
 * The entries built into `cacheDir` by `build` under `stamp`, or read from its manifest while the
 * stamp is unchanged. `build` gets the emptied dir.
 */
export function cachedEntries<E>(cacheDir: string, stamp: string, build: (dir: string) => E[]): E[] {
  const manifestFile = path.join(cacheDir, 'manifest.json');
  const cached = (fs.existsSync(manifestFile) ? JSON.parse(fs.readFileSync(manifestFile, 'utf8')) : {}) as { stamp?: string; entries?: E[] };
  if (cached.stamp === stamp) return cached.entries ?? [];
  fs.rmSync(cacheDir, { recursive: true, force: true });
  fs.mkdirSync(cacheDir, { recursive: true });
  const entries = build(cacheDir);
  fs.writeFileSync(manifestFile, JSON.stringify({ stamp, entries }, null, 1));
  return entries;
}
