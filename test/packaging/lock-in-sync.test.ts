// A fresh clone's `npm install` leaves `git status` clean (issue 42, item 2): the root entry of
// package-lock.json says what package.json says, as npm would write it. npm rewrites the lock's
// root entry from package.json on every install, so any field that differs shows up as a
// modified tracked file after a clone and an install. Compared field by field: no network.

import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/service.js';

type Manifest = Record<string, unknown>;

const readJson = (name: string) => JSON.parse(fs.readFileSync(path.join(ROOT, name), 'utf8')) as Manifest;

/** The package.json fields npm copies into the lock's root entry (`packages[""]`). */
const ROOT_FIELDS = [
  'name',
  'version',
  'license',
  'bin',
  'engines',
  'dependencies',
  'devDependencies',
  'optionalDependencies',
  'peerDependencies',
  'os',
  'cpu',
  'workspaces',
] as const;

describe('package-lock.json is the lock npm writes for package.json', () => {
  const manifest = readJson('package.json');
  const lock = readJson('package-lock.json');
  const rootEntry = (lock.packages as Record<string, Manifest>)[''] ?? {};

  for (const field of ROOT_FIELDS) {
    it(`the lock's root entry has package.json's ${field}`, () => {
      expect(rootEntry[field], `package-lock.json packages[""].${field}: run npm install --package-lock-only`).toEqual(manifest[field]);
    });
  }

  it("the lock's top-level name and version are package.json's", () => {
    expect([lock.name, lock.version]).toEqual([manifest.name, manifest.version]);
  });
});
