#!/usr/bin/env node
// The package's bin (`docwasm`, `npx docwasm`, `npm link`, and `npm start`). In a clone it first
// builds dist/ when it is missing or older than the sources (scripts/build-if-stale.mjs), so
// `npx docwasm …` works before any `npm run build`; the published tarball and the portable bundle
// ship no scripts/ and no sources, so there it only runs the built CLI. The service starts itself
// again with glibc's malloc settings there (src/cli/malloc-restart.ts), however it is started.

import fs from 'node:fs';

const staleness = new URL('../scripts/build-if-stale.mjs', import.meta.url);
if (fs.existsSync(staleness)) {
  const { buildIfStale } = await import(staleness.href);
  buildIfStale();
}
await import(new URL('../dist/src/cli/main.js', import.meta.url).href);
