// The code of the three floors as files, for the structure checks that read it (the format
// registry's, the one bounded-concurrency helper's).

import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './service.js';

/** Every .ts/.js file under `dirs` (relative to the repo), as repo-relative paths. */
export function codeFiles(...dirs: string[]): string[] {
  return dirs.flatMap((dir) =>
    fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
      const relative = `${dir}/${entry.name}`;
      if (entry.isDirectory()) return codeFiles(relative);
      return /\.(ts|mts|js|mjs)$/.test(entry.name) ? [relative] : [];
    }),
  );
}

/** A code file's text. */
export const codeOf = (file: string): string => fs.readFileSync(path.join(ROOT, file), 'utf8');
