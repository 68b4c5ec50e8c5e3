// The published package as a user gets it: `npm pack`, then `npm install <tarball>` into an empty
// project from npm's cache only. The installed tree holds no native addon (`*.node`, optional
// dependencies included), no dangling source map, and `npx docwasm --version` runs.
// Needs `npm run build` first, like every test of the built service.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/service.js';

const NPM_QUIET = ['--no-audit', '--no-fund', '--loglevel=error'];

function npm(args: string[], cwd: string): string {
  return execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32' });
}

/** Installs from the cache only; `--prefer-offline` when the cache lacks something `--offline` needs. */
function installOffline(tarball: string, cwd: string): void {
  try {
    npm(['install', tarball, '--offline', ...NPM_QUIET], cwd);
  } catch {
    npm(['install', tarball, '--prefer-offline', ...NPM_QUIET], cwd);
  }
}

function filesUnder(dir: string, match: (name: string) => boolean): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && match(entry.name))
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

describe('the packed tarball installed into an empty project', () => {
  let work: string;
  let project: string;

  beforeAll(() => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'docwasm-pack-'));
    project = path.join(work, 'project');
    fs.mkdirSync(project);
    fs.writeFileSync(path.join(project, 'package.json'), '{"name":"docwasm-install-check","private":true}\n');
    // dist/ is already built; prepack's clean rebuild is what `npm publish` runs.
    const [packed] = JSON.parse(npm(['pack', '--ignore-scripts', '--json', '--pack-destination', work, ...NPM_QUIET], ROOT)) as { filename: string }[];
    installOffline(path.join(work, (packed as { filename: string }).filename), project);
  }, 180_000);
  afterAll(() => {
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it('holds no native addon anywhere in node_modules', () => {
    expect(filesUnder(path.join(project, 'node_modules'), (name) => name.endsWith('.node'))).toEqual([]);
  });

  it('ships neither source maps nor sources they would point at', () => {
    expect(filesUnder(path.join(project, 'node_modules/docwasm'), (name) => name.endsWith('.map') || name.endsWith('.ts'))).toEqual([]);
  });

  it('runs `npx docwasm --version` and shows users no install script of its own', () => {
    const version = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    expect(npm(['exec', '--offline', '--', 'docwasm', '--version'], project).trim()).toBe(version);
    const installed = JSON.parse(fs.readFileSync(path.join(project, 'node_modules/docwasm/package.json'), 'utf8')) as { scripts?: Record<string, string> };
    for (const hook of ['preinstall', 'install', 'postinstall', 'prepare']) expect(installed.scripts?.[hook]).toBeUndefined();
  });
});
