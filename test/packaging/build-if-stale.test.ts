// `npm start`'s prestart (scripts/build-if-stale.mjs), run for real in a stand-in clone whose
// `npm run build` writes dist/ at once: a fresh clone is told it is being built for the first
// time (not that sources "changed"), a current build is left alone, a newer source rebuilds.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers/service.js';

function standInClone(): string {
  const clone = tempDir('docwasm-build-if-stale-');
  fs.mkdirSync(path.join(clone, 'scripts'));
  fs.mkdirSync(path.join(clone, 'src'));
  fs.copyFileSync(path.join(ROOT, 'scripts/build-if-stale.mjs'), path.join(clone, 'scripts/build-if-stale.mjs'));
  fs.writeFileSync(path.join(clone, 'src/main.ts'), 'export {};\n');
  const build = "require('fs').mkdirSync('dist/src/cli',{recursive:true});require('fs').writeFileSync('dist/src/cli/main.js','')";
  fs.writeFileSync(path.join(clone, 'package.json'), JSON.stringify({ name: 'stand-in', private: true, scripts: { build: `node -e "${build}"` } }));
  return clone;
}

const prestart = (clone: string) => spawnSync(process.execPath, ['scripts/build-if-stale.mjs'], { cwd: clone, encoding: 'utf8', timeout: 60_000 });

describe('npm start builds only when it must, saying why', () => {
  it('a fresh clone: "building (first run)"; then nothing; a newer source: "sources changed"', () => {
    const clone = standInClone();

    const first = prestart(clone);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stderr).toContain('docwasm: building (first run)…');
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
});
