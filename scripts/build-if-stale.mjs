// `npm start`'s prestart: builds only when dist/ is missing or a source is newer than it, so a
// start with a current dist/ takes no compile.

import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BUILT = path.join(ROOT, 'dist/src/cli/main.js');
const SOURCES = ['src', 'wasm', 'tsconfig.json', 'tsconfig.build.json', 'package.json'];

function newestMtime(item) {
  const stat = fs.statSync(item, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...fs.readdirSync(item).map((name) => newestMtime(path.join(item, name))));
}

/** Why a build is needed, or undefined when dist/ is current. A fresh clone has no build yet. */
function buildReason() {
  const built = fs.statSync(BUILT, { throwIfNoEntry: false })?.mtimeMs;
  if (built === undefined) return 'building (first run)';
  if (Math.max(...SOURCES.map((s) => newestMtime(path.join(ROOT, s)))) > built) return 'sources changed since the last build; building';
  return undefined;
}

const reason = buildReason();
if (reason !== undefined) {
  process.stderr.write(`docwasm: ${reason}…\n`);
  execSync('npm run build --silent', { cwd: ROOT, stdio: 'inherit' });
}
