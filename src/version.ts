// The package version, read once from package.json (two levels above dist/src or src).

import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function findPackageJson(): { version: string; root: string } {
  for (const relative of ['../package.json', '../../package.json']) {
    const file = new URL(relative, import.meta.url);
    try {
      const { version } = JSON.parse(readFileSync(file, 'utf8')) as { version: string };
      return { version, root: path.dirname(fileURLToPath(file)) };
    } catch {
      /* try the next level */
    }
  }
  return { version: '0.0.0', root: fileURLToPath(new URL('..', import.meta.url)) };
}

const PACKAGE = findPackageJson();
export const VERSION = PACKAGE.version;
/** The folder docwasm's package.json is in (the clone, the installed package, the bundle). */
export const PACKAGE_ROOT = PACKAGE.root;

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
