// The LibreOffice compiled to WebAssembly that docwasm runs as its second document backend: the
// npm package @matbee/libreoffice-converter (an optional dependency: a slim install leaves it
// out), where it is, and the one change docwasm makes to its Emscripten glue when loading it.
//
// The glue as published starts a pool of 4 pthread workers while LibreOffice starts 5 threads;
// a Node main thread blocked on a thread that has no worker cannot spawn one, so the office
// deadlocks at start (5 of 6 runs here, CPU idle). The pool size is a literal in the generated
// code with no option for it, so the glue is read and that one literal is changed in memory
// before it runs — never in node_modules (installs may be read-only). The expression is checked
// to be there exactly once; a version whose glue says something else fails loudly, naming the
// file, rather than start an office that may hang.

import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const WASM_OFFICE_PACKAGE = '@matbee/libreoffice-converter';

/** Workers the adapted glue starts: LibreOffice's 5 threads and room to spare (8 worked 4 of 4 runs). */
export const PTHREAD_POOL_SIZE = 8;

/** `initMainThread(){var pthreadPoolSize=4;` as Emscripten 3.1/4.0 write it, minified. */
const POOL_EXPRESSION = /initMainThread\(\)\{var pthreadPoolSize=(\d+);/g;

export interface WasmOfficeFiles {
  /** The package's directory. */
  dir: string;
  /** Its version (package.json). */
  version: string;
  /**
   * Its ES module entry by real path: the office process imports it from there, as it may not
   * read the (symlinked, in some installs) node_modules directories Node would resolve it through.
   */
  entry: string;
  wasmDir: string;
  /** soffice.cjs: the Emscripten glue. */
  glue: string;
}

export type WasmOfficeLookup = { found: true; files: WasmOfficeFiles } | { found: false; reason: string };

/** Where the package is installed, or why it cannot be used. */
export function findWasmOffice(): WasmOfficeLookup {
  let manifest: string;
  try {
    manifest = createRequire(import.meta.url).resolve(`${WASM_OFFICE_PACKAGE}/package.json`);
  } catch {
    return { found: false, reason: `LibreOffice in WebAssembly (npm ${WASM_OFFICE_PACKAGE}) is not installed (an install with --omit=optional leaves it out)` };
  }
  const dir = path.dirname(manifest);
  const wasmDir = path.join(dir, 'wasm');
  const missing = ['soffice.cjs', 'soffice.wasm', 'soffice.data'].filter((name) => !existsSync(path.join(wasmDir, name)));
  if (missing.length > 0) return { found: false, reason: `${WASM_OFFICE_PACKAGE} in ${dir} lacks ${missing.join(', ')}` };
  const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
  const entry = realpathSync(fileURLToPath(import.meta.resolve(WASM_OFFICE_PACKAGE)));
  return { found: true, files: { dir, version, entry, wasmDir, glue: path.join(wasmDir, 'soffice.cjs') } };
}

/**
 * The glue's source with its pthread pool at `size` workers (left as it is when already that
 * large). Throws, naming `file`, unless the pool expression occurs exactly once.
 */
export function adaptGlue(source: string, file: string, size = PTHREAD_POOL_SIZE): string {
  const matches = [...source.matchAll(POOL_EXPRESSION)];
  if (matches.length !== 1) {
    throw new Error(
      `The WebAssembly office's glue ${file} has ${matches.length === 0 ? 'no' : matches.length} pthread pool expression(s) ` +
        '"initMainThread(){var pthreadPoolSize=N;" where docwasm expects exactly one: this version of ' +
        `${WASM_OFFICE_PACKAGE} is not one docwasm can start without the risk of a deadlock (install the version package.json names)`,
    );
  }
  const published = Number(matches[0]?.[1]);
  if (published >= size) return source;
  return source.replace(POOL_EXPRESSION, `initMainThread(){var pthreadPoolSize=${size};`);
}
