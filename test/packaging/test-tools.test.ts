// The one list of programs the tests use (scripts/test-tools.txt), which README tells a newcomer
// to install with scripts/install-test-tools.sh and .ci/run installs the same way. A newcomer's
// `npm test` once failed on `pango-view`, spawned by a test but in neither README's apt line nor
// CI's list (CI passed only because the developer's machine had it). This test fails when a test,
// bench or fixture script spawns a program the list does not install, and names the missing tool
// when the list's programs are not on this machine.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/service.js';

/** Programs every Debian system has (essential packages: coreutils, util-linux, bsdutils, tar, gzip, dash, bash) or that run the tests themselves. */
const BASE_SYSTEM = new Set([
  'sh',
  '/bin/sh',
  'bash',
  'env',
  'ls',
  'cat',
  'chmod',
  'sleep',
  'kill',
  'mknod',
  'mkfifo',
  'tar',
  'gunzip',
  'gzip',
  'script',
  'true',
  'false',
  'id',
  'setpriv',
  'unshare',
  'getconf',
  'node',
  'npm',
  'npx',
]);

/** Programs a test only uses after checking they exist, and why they stay out of the list. */
const PROBED_FIRST: Record<string, string> = {
  gpgconf: 'namespace-processes.test.ts checks the office reaps GnuPG helpers only where GnuPG is installed',
  taskkill: 'Windows only (src/installed-office/process-group.ts)',
};

/** package → programs, as scripts/test-tools.txt lists them. */
function listedTools(): Map<string, string[]> {
  const lines = fs.readFileSync(path.join(ROOT, 'scripts/test-tools.txt'), 'utf8').split('\n');
  const tools = new Map<string, string[]>();
  for (const line of lines.map((text) => text.replace(/#.*/, '').trim()).filter(Boolean)) {
    const [pkg, programs = ''] = line.split(':');
    tools.set(pkg!.trim(), programs.trim().split(/\s+/).filter(Boolean));
  }
  return tools;
}

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.(ts|mjs)$/.test(name))
    .map((name) => path.join(dir, name));
}

/** The programs named as the first, literal argument of a child_process call. */
const SPAWN = /\b(?:spawn|spawnSync|execFile|execFileSync|execSync|exec)\(\s*['"`]([^'"`\s]+)/g;

function spawnedPrograms(): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of ['test', 'fixtures', 'scripts'].flatMap((dir) => sourceFiles(path.join(ROOT, dir)))) {
    for (const match of fs.readFileSync(file, 'utf8').matchAll(SPAWN)) {
      if (!found.has(match[1]!)) found.set(match[1]!, path.relative(ROOT, file));
    }
  }
  return found;
}

describe('the list of test tools (scripts/test-tools.txt)', () => {
  const tools = listedTools();
  const listedPrograms = new Set([...tools.values()].flat());

  it('holds every program a test, bench or fixture script spawns', () => {
    const spawned = spawnedPrograms();
    expect(spawned.size).toBeGreaterThan(20); // the scan itself works: qpdf, pdftotext, pandoc, …
    const unlisted = [...spawned]
      .filter(([program]) => !listedPrograms.has(program) && !BASE_SYSTEM.has(program) && !(program in PROBED_FIRST))
      .map(([program, file]) => `${program} (spawned in ${file})`);
    expect(unlisted, 'add the Debian package that provides each to scripts/test-tools.txt').toEqual([]);
  });

  it('is what .ci/run and README install', () => {
    expect(fs.readFileSync(path.join(ROOT, '.ci/run'), 'utf8')).toContain('scripts/install-test-tools.sh');
    expect(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8')).toContain('scripts/install-test-tools.sh');
  });

  it.runIf(process.platform === 'linux')('is installed on this machine', () => {
    const missing = [...tools].flatMap(([pkg, programs]) =>
      programs.filter((program) => spawnSync('sh', ['-c', `command -v '${program}'`]).status !== 0).map((program) => `${program} (Debian package ${pkg})`),
    );
    expect(missing, 'run scripts/install-test-tools.sh (as root or with sudo)').toEqual([]);
  });
});
