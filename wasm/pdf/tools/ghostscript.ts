// Ghostscript in WebAssembly (npm `@bentopdf/gs-wasm`, AGPL): no native code, no network. Its
// WebAssembly is compiled once per thread; each run gets a fresh instance, because an
// Emscripten program's state after main() returns is not fit for a second run.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ApiError } from '../../../core/errors.js';

/** The project's TS lib has no WebAssembly types: the little used here. */
type WasmModule = object;
type WasmInstance = object;
type WasmImports = object;
const { WebAssembly: wasm } = globalThis as unknown as {
  WebAssembly: {
    compile(bytes: Uint8Array): Promise<WasmModule>;
    instantiate(module: WasmModule, imports: WasmImports): Promise<WasmInstance>;
  };
};

interface GhostscriptInstance {
  callMain(args: string[]): number;
  FS: {
    writeFile(path: string, data: Uint8Array | string): void;
    readFile(path: string): Uint8Array;
  };
}

interface GhostscriptOptions {
  print: (line: string) => void;
  printErr: (line: string) => void;
  instantiateWasm: (imports: WasmImports, receive: (instance: WasmInstance, module: WasmModule) => void) => object;
}

type GhostscriptFactory = (options: GhostscriptOptions) => Promise<GhostscriptInstance>;

export interface GhostscriptRun {
  /** Files written into Ghostscript's memory file system before the run. */
  files: Record<string, Uint8Array | string>;
  args: string[];
  /** The file to read back after the run. */
  output: string;
}

let loaded: Promise<{ factory: GhostscriptFactory; module: WasmModule }> | undefined;

function assetsDir(): string {
  // The package exports only its loader (dist/index.js); gs.js and gs.wasm sit in assets/.
  const entry = fileURLToPath(import.meta.resolve('@bentopdf/gs-wasm'));
  return path.join(path.dirname(entry), '..', 'assets');
}

function load(): Promise<{ factory: GhostscriptFactory; module: WasmModule }> {
  loaded ??= (async () => {
    const dir = assetsDir();
    const { default: factory } = (await import(path.join(dir, 'gs.js'))) as { default: GhostscriptFactory };
    const module = await wasm.compile(fs.readFileSync(path.join(dir, 'gs.wasm')));
    return { factory, module };
  })().catch((err: unknown) => {
    loaded = undefined;
    throw new ApiError('BACKEND_UNAVAILABLE', `Ghostscript (WASM) could not be loaded: ${(err as Error).message}`);
  });
  return loaded;
}

/** Runs Ghostscript once; a non-zero exit is an ApiError with the last lines it printed. */
export async function runGhostscript({ files, args, output }: GhostscriptRun): Promise<Uint8Array> {
  const { factory, module } = await load();
  const log: string[] = [];
  const gs = await factory({
    print: (line) => log.push(line),
    printErr: (line) => log.push(line),
    instantiateWasm: (imports, receive) => {
      void wasm.instantiate(module, imports).then((instance) => receive(instance, module));
      return {};
    },
  });
  for (const [name, data] of Object.entries(files)) gs.FS.writeFile(name, data);
  const status = callMain(gs, args);
  if (status !== 0) {
    throw new ApiError('INVALID_INPUT', `Ghostscript failed (exit ${status}): ${log.slice(-5).join(' ').trim()}`);
  }
  return gs.FS.readFile(output);
}

/** Emscripten reports exit() by throwing an ExitStatus object. */
function callMain(gs: GhostscriptInstance, args: string[]): number {
  try {
    return gs.callMain(args);
  } catch (err) {
    const status = (err as { status?: unknown }).status;
    if (typeof status === 'number') return status;
    throw err;
  }
}
