// `npm run build`'s last step: tsc writes files 0644, but the built CLI is run as a program too —
// by the package's bin (bin/docwasm.mjs, executable in git), the portable bundle's launchers and
// `./dist/src/cli/main.js` itself. Whatever runs it as a program would answer "Permission denied"
// unless an npm step happened to chmod it (a read-only copy, an exec of the file itself); so the
// build marks the bins and the CLI they run executable.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = 'dist/src/cli/main.js';
const { bin } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

for (const file of new Set([...(typeof bin === 'string' ? [bin] : Object.values(bin)), CLI])) {
  const target = path.join(ROOT, file);
  fs.chmodSync(target, fs.statSync(target).mode | 0o111);
}
