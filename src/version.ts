// The package version, read once from package.json (two levels above dist/src or src).

import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

function findPackageJson(): { version: string } {
  for (const relative of ['../package.json', '../../package.json']) {
    try {
      return JSON.parse(readFileSync(new URL(relative, import.meta.url), 'utf8')) as { version: string };
    } catch {
      /* try the next level */
    }
  }
  return { version: '0.0.0' };
}

export const VERSION = findPackageJson().version;

/** Folder of an installed npm package (works whatever its `exports` allow). */
export function packageDir(name: string): string | undefined {
  const searchPaths = createRequire(import.meta.url).resolve.paths(name) ?? [];
  return searchPaths.map((dir) => path.join(dir, name)).find((dir) => existsSync(path.join(dir, 'package.json')));
}

/** Version of an installed npm package, for the health report. */
export function packageVersion(name: string): string {
  const dir = packageDir(name);
  if (!dir) return 'unknown';
  return (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}
