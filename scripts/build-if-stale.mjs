// Builds dist/ only when it is missing or a source is newer than it, so a start with a current
// dist/ takes no compile. Run by `npm start`'s prestart and `npm run docs`, and imported by the
// package's bin (bin/docwasm.mjs) so that `npx docwasm` works in a clone before any build.

import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BUILT = path.join(ROOT, 'dist/src/cli/main.js');
const SOURCES = ['core', 'src', 'wasm', 'tsconfig.json', 'tsconfig.build.json', 'package.json'];

function newestMtime(item) {
  const stat = fs.statSync(item, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...fs.readdirSync(item).map((name) => newestMtime(path.join(item, name))));
}

/** Why a build is needed, or undefined when dist/ is current. A fresh clone has no build yet. */
function buildReason() {
  const built = fs.statSync(BUILT, { throwIfNoEntry: false })?.mtimeMs;
  if (built === undefined) return 'building for the first time (no dist/ yet)';
  if (Math.max(...SOURCES.map((s) => newestMtime(path.join(ROOT, s)))) > built) return 'sources changed since the last build; building';
  return undefined;
}

/**
 * Builds when needed, saying why on stderr. The compiler's own output goes to stderr too: the
 * bin's stdout is the command's answer (`npx docwasm read a.pdf > a.md`, MCP's JSON-RPC).
 */
export function buildIfStale() {
  const reason = buildReason();
  if (reason === undefined) return;
  process.stderr.write(`docwasm: ${reason}…\n`);
  try {
    execSync('npm run build --silent', { cwd: ROOT, stdio: ['ignore', 2, 2] });
  } catch {
    process.stderr.write('docwasm: the build failed (the compiler said why above)\n');
    process.exit(1);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) buildIfStale();
