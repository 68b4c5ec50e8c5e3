// Building on demand, run for real in stand-in clones whose `npm run build` writes dist/ at once
// (a real tsc build would take minutes on a busy machine and prove nothing more about these
// scripts): `npm start`'s prestart (scripts/build-if-stale.mjs) tells a fresh clone it is being
// built for the first time (not that sources "changed"), leaves a current build alone and
// rebuilds after a newer source; the package's bin (bin/docwasm.mjs) run by `npx docwasm` builds a
// clone that has no dist/ yet, keeps the compiler's output off the command's stdout, and where
// there are no sources (the published tarball, the portable bundle) only runs the built CLI.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers/service.js';

/** The stand-in CLI prints its arguments; its "compiler" prints a line to stdout, as tsc does. */
const BUILD = [
  "require('fs').mkdirSync('dist/src/cli',{recursive:true})",
  "require('fs').writeFileSync('dist/src/cli/main.js','process.stdout.write(JSON.stringify(process.argv.slice(2)))')",
  "console.log('compiler output')",
].join(';');

function standInClone(withSources = true): string {
  const clone = tempDir('docwasm-build-if-stale-');
  for (const file of ['bin/docwasm.mjs', ...(withSources ? ['scripts/build-if-stale.mjs'] : [])]) {
    fs.mkdirSync(path.dirname(path.join(clone, file)), { recursive: true });
    fs.copyFileSync(path.join(ROOT, file), path.join(clone, file));
  }
  if (withSources) {
    fs.mkdirSync(path.join(clone, 'src'));
    fs.writeFileSync(path.join(clone, 'src/main.ts'), 'export {};\n');
  }
  const pkg = {
    name: 'docwasm',
    version: '0.0.0',
    private: true,
    type: 'module',
    bin: { docwasm: 'bin/docwasm.mjs' },
    scripts: { build: `node -e "${BUILD}"` },
  };
  fs.writeFileSync(path.join(clone, 'package.json'), JSON.stringify(pkg));
  return clone;
}

const run = (command: string, args: string[], cwd: string) => spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 120_000 });
const prestart = (clone: string) => run(process.execPath, ['scripts/build-if-stale.mjs'], clone);
/** `npx docwasm …` as README gives it, offline (npx finds the clone's own bin; nothing to fetch). */
const npxDocwasm = (clone: string, ...args: string[]) => run('npx', ['--offline', 'docwasm', ...args], clone);

describe('npm start builds only when it must, saying why', () => {
  it('a fresh clone: "building for the first time"; then nothing; a newer source: "sources changed"', () => {
    const clone = standInClone();

    const first = prestart(clone);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stderr).toContain('docwasm: building for the first time (no dist/ yet)…');
    expect(first.stderr).not.toMatch(/changed/);
    expect(fs.existsSync(path.join(clone, 'dist/src/cli/main.js'))).toBe(true);

    const second = prestart(clone);
    expect([second.status, second.stderr]).toEqual([0, '']);

    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(path.join(clone, 'src/main.ts'), later, later);
    const third = prestart(clone);
    expect(third.status, third.stderr).toBe(0);
    expect(third.stderr).toContain('docwasm: sources changed since the last build; building…');
  });

  it('a failed build: says so and exits 1, not a stack trace', () => {
    const clone = standInClone();
    const pkg = JSON.parse(fs.readFileSync(path.join(clone, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    pkg.scripts.build = 'node -e "process.exit(3)"';
    fs.writeFileSync(path.join(clone, 'package.json'), JSON.stringify(pkg));
    const result = prestart(clone);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('docwasm: the build failed');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('npx docwasm in a clone works before any build', () => {
  it('builds a clone with no dist/ first, then runs the CLI with its arguments; the compiler writes to stderr, not the answer', () => {
    const clone = standInClone();

    const first = npxDocwasm(clone, 'pdf', 'info', 'a.pdf');
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toBe('["pdf","info","a.pdf"]');
    expect(first.stderr).toContain('docwasm: building for the first time (no dist/ yet)…');
    expect(first.stderr).toContain('compiler output');

    const second = npxDocwasm(clone, '--version');
    expect([second.status, second.stdout, second.stderr]).toEqual([0, '["--version"]', '']);
  });

  it('where there are no sources (tarball, bundle): runs the built CLI and never builds', () => {
    const installed = standInClone(false);
    const pkg = path.join(installed, 'package.json');
    fs.writeFileSync(pkg, fs.readFileSync(pkg, 'utf8').replace(BUILD, 'process.exit(9)'));
    fs.mkdirSync(path.join(installed, 'dist/src/cli'), { recursive: true });
    fs.writeFileSync(path.join(installed, 'dist/src/cli/main.js'), 'process.stdout.write("built CLI")');
    const result = run(path.join(installed, 'bin/docwasm.mjs'), [], installed);
    expect([result.status, result.stdout, result.stderr]).toEqual([0, 'built CLI', '']);
  });
});
