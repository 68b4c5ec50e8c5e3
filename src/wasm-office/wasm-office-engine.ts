// How the WebAssembly office's Node runs LibreOffice's 147 MB module: the V8 flags and the one
// environment variable its process is started with (measured in docs/documents-backend.md,
// "Start-up time and memory").
//
// - `--liftoff-only`: every function is compiled once, by V8's baseline compiler, on its first
//   call. By default V8 also recompiles the functions it finds hot with its optimizing compiler
//   in background threads; for LibreOffice that work never settles: it took more CPU than the
//   conversions themselves, its compiler threads' malloc arenas and the second copy of the code
//   held ~450 MB, and the warm conversions were not faster for it.
// - `--wasm-lazy-validation`: a function is validated when it is first compiled rather than all
//   147 MB of them at start (the module is the installed package's, not input).
// - MALLOC_ARENA_MAX=2 (glibc): without it each of the process's ~18 threads may take a 64 MB
//   malloc arena of its own. Other C libraries ignore it.
//
// A Node whose V8 lacks one of the flags would refuse to start with it ("bad option"): the flags
// are checked against this Node's `--v8-options` once, and one it lacks is left out and logged
// (the office then runs as V8 runs it by default: slower to start and larger, still correct).

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { logEvent } from '../../core/log.js';

export const OFFICE_V8_FLAGS = ['--liftoff-only', '--wasm-lazy-validation'] as const;

/** The office process's whole environment: it inherits nothing of docwasm's (no token, no proxy). */
export const OFFICE_ENVIRONMENT: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2' };

let checked: Promise<string[]> | undefined;

/** The flags of OFFICE_V8_FLAGS this Node's V8 knows; asked once per docwasm process. */
export function officeV8Flags(): Promise<string[]> {
  checked ??= knownFlags(OFFICE_V8_FLAGS);
  return checked;
}

async function knownFlags(flags: readonly string[]): Promise<string[]> {
  let listing: string;
  try {
    ({ stdout: listing } = await promisify(execFile)(process.execPath, ['--v8-options'], { maxBuffer: 16 * 1024 * 1024 }));
  } catch (err) {
    logEvent(
      `docwasm libreoffice-wasm: could not list this Node's V8 options (${err instanceof Error ? err.message : String(err)}); the office runs with V8's defaults`,
    );
    return [];
  }
  const known = flags.filter((flag) => listing.includes(`  ${flag} (`));
  const missing = flags.filter((flag) => !known.includes(flag));
  if (missing.length > 0)
    logEvent(`docwasm libreoffice-wasm: this Node's V8 has no ${missing.join(', ')}; the office starts slower and takes more memory without`);
  return known;
}
