// The WebAssembly office process: LibreOffice compiled to WebAssembly (npm
// @matbee/libreoffice-converter, LibreOfficeKit inside), loaded once and kept warm, converting one
// document at a time for the docwasm process that started it (src/documents/wasm-office.ts).
// Documents arrive as bytes over IPC and are written into the office's in-memory file system,
// alone there besides the office's own files; nothing of the host's file system is mounted in
// it and the process has no means of network access left (fetch, WebSocket and XMLHttpRequest
// are removed before the office loads: Emscripten's sockets would need one of them).

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';
import { adaptGlue, WASM_OFFICE_PACKAGE } from '../../src/documents/wasm-office-package.js';
import type { ConvertRequest, HostMessage, HostSettings } from '../../src/documents/wasm-office-protocol.js';

interface EmscriptenFs {
  mkdirTree(dir: string): void;
  writeFile(file: string, data: string | Uint8Array): void;
  readFile(file: string): Uint8Array;
  unlink(file: string): void;
}

interface EmscriptenModule {
  FS: EmscriptenFs;
  wasmBinary?: ArrayBuffer | undefined;
}

interface ConversionOptions {
  outputFormat: string;
  inputFormat: string;
  filterOptions?: string;
  pdf?: { pdfaLevel: string };
}

/**
 * The converter's parts docwasm uses. `convert()` would write every document as `doc.<ext>`,
 * which LibreOffice shows (a CSV's sheet name, page headers, file-name fields); docwasm writes
 * the document under the user's own (sanitized) name, as the installed office sees it, and has
 * the converter's `performConversion` (load, save as, release) work on that file. Both parts are
 * checked for at start: a version without them fails to start, saying so.
 */
interface ConverterLike {
  initialize(): Promise<void>;
  module: EmscriptenModule | null;
  performConversion(inputPath: string, outputPath: string, options: ConversionOptions): Promise<Uint8Array>;
}

type ConverterClass = new (options: { wasmLoader: { createModule: () => Promise<EmscriptenModule> }; fonts: { filename: string; data: Uint8Array }[] }) => ConverterLike;

/** Errors of the converter that are the document's: it could not be read or written. */
const DOCUMENT_ERRORS = new Set(['LOAD_FAILED', 'CONVERSION_FAILED', 'INVALID_INPUT', 'UNSUPPORTED_FORMAT']);

const PDFA_NAMES = { '1b': 'PDF/A-1b', '2b': 'PDF/A-2b', '3b': 'PDF/A-3b' } as const;

function send(message: HostMessage): void {
  process.send?.(message);
}

/** No network: what Emscripten's socket layer and any fetch would use is gone before the office loads. */
function removeNetworkGlobals(): void {
  for (const name of ['fetch', 'WebSocket', 'XMLHttpRequest', 'EventSource']) Reflect.deleteProperty(globalThis, name);
}

/** Loads the office's Emscripten module from the adapted glue (see wasm-office-package.ts). */
function createModule(settings: HostSettings): Promise<EmscriptenModule> {
  const source = adaptGlue(readFileSync(settings.glue, 'utf8'), settings.glue);
  const wasm = readFileSync(path.join(settings.wasmDir, 'soffice.wasm'));
  return new Promise((resolve, reject) => {
    const module: Record<string, unknown> = {
      wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength),
      preRun: [],
      locateFile: (name: string) => path.join(settings.wasmDir, name),
      print: () => undefined,
      printErr: () => undefined,
      onAbort: (what: unknown) => reject(new Error(`the office aborted while loading: ${String(what)}`)),
      onRuntimeInitialized: () => {
        const loaded = module as unknown as EmscriptenModule;
        // The compiled module holds what it needs; the 147 MB binary need not stay in memory.
        loaded.wasmBinary = undefined;
        for (const [file, text] of Object.entries(settings.profile)) {
          loaded.FS.mkdirTree(path.posix.dirname(file));
          loaded.FS.writeFile(file, text);
        }
        resolve(loaded);
      },
    };
    (globalThis as { Module?: unknown }).Module = module;
    const run = vm.compileFunction(source, ['exports', 'require', 'module', '__filename', '__dirname'], { filename: settings.glue });
    const exports = {};
    run(exports, createRequire(settings.glue), { exports }, settings.glue, settings.wasmDir);
  });
}

async function start(settings: HostSettings): Promise<ConverterLike> {
  removeNetworkGlobals();
  const { LibreOfficeConverter } = (await import(WASM_OFFICE_PACKAGE)) as { LibreOfficeConverter: ConverterClass };
  const fonts = settings.fonts.map((file) => ({ filename: path.basename(file), data: readFileSync(file) }));
  const converter = new LibreOfficeConverter({ wasmLoader: { createModule: () => createModule(settings) }, fonts });
  await converter.initialize();
  if (typeof converter.performConversion !== 'function' || !converter.module?.FS) {
    throw new Error(`${WASM_OFFICE_PACKAGE} ${packageVersion()} lacks the performConversion method or the module's file system docwasm converts with`);
  }
  return converter;
}

async function convert(converter: ConverterLike, request: ConvertRequest): Promise<void> {
  const { id, bytes, extension, name, format, filterOptions, pdfa } = request;
  const fs = converter.module?.FS as EmscriptenFs;
  // The document alone in its own directory of the in-memory file system, and its product beside it.
  const input = `/docwasm/in/${name}.${extension}`;
  const output = `/docwasm/out/${name}.${format}`;
  try {
    const options = { outputFormat: format, inputFormat: extension, ...(filterOptions !== undefined && { filterOptions }), ...(pdfa !== undefined && { pdf: { pdfaLevel: PDFA_NAMES[pdfa] } }) };
    fs.mkdirTree('/docwasm/in');
    fs.mkdirTree('/docwasm/out');
    fs.writeFile(input, bytes);
    const data = await converter.performConversion(input, output, options);
    send({ type: 'converted', id, bytes: data });
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'string' && DOCUMENT_ERRORS.has(code)) return send({ type: 'rejected', id, message: (err as Error).message });
    // Anything else (a WebAssembly trap, an abort) leaves the office in doubt: docwasm replaces it.
    process.stderr.write(`docwasm wasm office: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(70);
  } finally {
    for (const file of [input, output]) {
      try {
        fs.unlink(file);
      } catch {
        /* not written */
      }
    }
  }
}

async function main(): Promise<void> {
  const settings = JSON.parse(process.argv[2] ?? '{}') as HostSettings;
  let converter: ConverterLike;
  try {
    converter = await start(settings);
  } catch (err) {
    send({ type: 'failed', message: err instanceof Error ? err.message : String(err) });
    process.exit(1);
  }
  // One document at a time: docwasm sends the next only after this one's answer.
  process.on('message', (message: ConvertRequest) => void convert(converter, message));
  // The office's own IPC listener must not keep a parent-less process alive.
  process.on('disconnect', () => process.exit(0));
  send({ type: 'ready', version: `LibreOffice (WebAssembly, ${WASM_OFFICE_PACKAGE} ${packageVersion()})` });
}

function packageVersion(): string {
  const manifest = createRequire(import.meta.url).resolve(`${WASM_OFFICE_PACKAGE}/package.json`);
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

void main();
