// `npm run bundle`: writes dist-bundle/docwasm-<version>.zip, one archive that runs with a plain
// `node` on Linux, macOS and Windows from any folder, read-only, with no install step and no
// network: the built service, its production node_modules (pure JS/WASM) and two launchers.
// Run after `npm run build` (the npm script does both).

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ZipWriter } from './zip-writer.mjs';
import { productionTree } from './production-tree.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SHIPPED = [
  'bin',
  'dist/core',
  'dist/src',
  'dist/wasm',
  'package.json',
  'package-lock.json',
  'README.md',
  'docs',
  'LICENSE',
  'THIRD-PARTY-NOTICES.md',
  'licenses',
  'tessdata',
  'fonts',
];
/**
 * src/cli/malloc-restart.ts's MALLOC_TUNABLES (where they are measured), set here so that the
 * service starts in one process (it starts itself again only when the variable is unset). Other C
 * libraries ignore the variable.
 */
const GLIBC_MALLOC_TUNABLES = 'glibc.malloc.mmap_threshold=32768:glibc.malloc.arena_max=2';
const MALLOC_WHY = 'glibc: give memory of finished worker threads back to the system (docs/performance.md, "Memory").';
const LAUNCHERS = {
  docwasm: {
    mode: 0o755,
    text: [
      '#!/bin/sh',
      '# docwasm, portable: runs the bundled service with the node on PATH.',
      `# ${MALLOC_WHY}`,
      `GLIBC_TUNABLES="\${GLIBC_TUNABLES:-${GLIBC_MALLOC_TUNABLES}}"`,
      'export GLIBC_TUNABLES',
      'exec node "$(dirname "$0")/dist/src/cli/main.js" "$@"',
      '',
    ].join('\n'),
  },
  'docwasm.cmd': {
    mode: 0o644,
    text: '@echo off\r\nrem docwasm, portable: runs the bundled service with the node on PATH.\r\nnode "%~dp0dist\\src\\cli\\main.js" %*\r\n',
  },
};

function main() {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const name = `docwasm-${pkg.version}`;
  if (!fs.existsSync(path.join(ROOT, 'dist/src/cli/main.js'))) throw new Error('dist/ is missing: run `npm run build` first');
  const stage = fs.mkdtempSync(path.join(os.tmpdir(), 'docwasm-bundle-'));
  try {
    const app = path.join(stage, name);
    stageApp(app, pkg);
    const archive = path.join(process.env.DOCWASM_BUNDLE_DIR ?? path.join(ROOT, 'dist-bundle'), `${name}.zip`);
    fs.mkdirSync(path.dirname(archive), { recursive: true });
    const entries = writeZip(app, name, archive);
    const mb = (fs.statSync(archive).size / 1024 / 1024).toFixed(1);
    process.stdout.write(`${path.relative(process.cwd(), archive) || archive}: ${entries} entries, ${mb} MB\n`);
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
}

function stageApp(app, pkg) {
  for (const item of SHIPPED) {
    fs.cpSync(path.join(ROOT, item), path.join(app, item), { recursive: true, filter: (src) => !src.endsWith('.map') });
  }
  // The lock file pins what the tests ran with; the cache serves it, so no network is needed here.
  execFileSync('npm', ['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], {
    cwd: app,
    stdio: ['ignore', 'ignore', 'inherit'],
    shell: process.platform === 'win32',
  });
  removeOptionalPeers(app);
  const natives = findFiles(app, (file) => file.endsWith('.node'));
  if (natives.length > 0) throw new Error(`native addons in the bundle: ${natives.join(', ')}`);
  const shipped = { ...pkg };
  delete shipped.scripts;
  delete shipped.devDependencies;
  fs.writeFileSync(path.join(app, 'package.json'), `${JSON.stringify(shipped, null, 2)}\n`);
  for (const [file, { mode, text }] of Object.entries(LAUNCHERS)) fs.writeFileSync(path.join(app, file), text, { mode });
}

/**
 * `npm ci --omit=dev` keeps packages a user's install of docwasm would not bring: the optional
 * peers of the WebAssembly office that are also docwasm's dev tools (sharp, a native image
 * library whose `*.node` would break "no native code", its platform packages, jszip). The
 * office loads them only for features docwasm does not use; they leave the bundle.
 */
function removeOptionalPeers(app) {
  const { packages } = JSON.parse(fs.readFileSync(path.join(app, 'package-lock.json'), 'utf8'));
  const kept = new Set(productionTree(packages));
  for (const where of Object.keys(packages)) {
    if (where !== '' && !kept.has(where)) fs.rmSync(path.join(app, where), { recursive: true, force: true });
  }
}

/** Adds `dir` under `prefix/`; symbolic links (node_modules/.bin) are left out: nothing runs them. */
function writeZip(dir, prefix, archive) {
  const zip = new ZipWriter(archive);
  let entries = 0;
  const walk = (from, inside) => {
    zip.addDirectory(inside);
    entries += 1;
    for (const entry of fs.readdirSync(from, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const source = path.join(from, entry.name);
      const target = `${inside}/${entry.name}`;
      if (entry.isDirectory()) walk(source, target);
      else if (entry.isFile()) {
        zip.addFile(target, fs.readFileSync(source), fs.statSync(source).mode & 0o777);
        entries += 1;
      }
    }
  };
  walk(dir, prefix);
  zip.close();
  return entries;
}

function findFiles(dir, match) {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && match(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

main();
