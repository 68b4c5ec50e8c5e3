#!/usr/bin/env node
// The package's bin (`docwasm`, `npx docwasm`, `npm link`, and `npm start`). In a clone it first
// builds dist/ when it is missing or older than the sources (scripts/build-if-stale.mjs), so
// `npx docwasm …` works before any `npm run build`; the published tarball and the portable bundle
// ship no scripts/ and no sources, so there it only runs the built CLI.
//
// A long-running command (`serve`) on Linux with glibc starts again with glibc's malloc told to
// give memory back: without it, what the engines' worker threads freed stays in glibc's
// per-thread heaps once they retire (an idle service measured 430–460 MB instead of ~230 MB,
// docs/performance.md, "Memory"). glibc reads GLIBC_TUNABLES only when a process starts, so the
// process must start again: on Node ≥ 22.15 `process.execve` replaces this one; on older Node a
// child runs the service and this process only passes signals on and exits as it does (the
// child ends itself if this process is killed outright). A GLIBC_TUNABLES already set is kept.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

const MALLOC_TUNABLES = 'glibc.malloc.mmap_threshold=131072:glibc.malloc.arena_max=2';

const staleness = new URL('../scripts/build-if-stale.mjs', import.meta.url);
if (fs.existsSync(staleness)) {
  const { buildIfStale } = await import(staleness.href);
  buildIfStale();
}
if (wantsMallocTunables()) startAgainWithTunables();
else await import(new URL('../dist/src/cli/main.js', import.meta.url).href);

function wantsMallocTunables() {
  // The service, as src/cli/main.ts decides it: no command word, `serve`, or flags first.
  const [first] = process.argv.slice(2);
  const serves = first === undefined || first === 'serve' || first.startsWith('-');
  if (!serves || ['-h', '--help', '-v', '--version'].some((flag) => process.argv.includes(flag))) return false;
  if (process.platform !== 'linux' || process.env.GLIBC_TUNABLES !== undefined) return false;
  return Boolean(process.report?.getReport().header.glibcVersionRuntime);
}

function startAgainWithTunables() {
  const args = [...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)];
  const env = { ...process.env, GLIBC_TUNABLES: MALLOC_TUNABLES };
  if (typeof process.execve === 'function') process.execve(process.execPath, [process.execPath, ...args], env);
  const child = spawn(process.execPath, args, { env: { ...env, DOCWASM_LAUNCHER_PID: String(process.pid) }, stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.once('exit', (code, signal) => {
    if (signal === null) process.exit(code ?? 1);
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  });
}
