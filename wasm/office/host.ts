// The WebAssembly office process: LibreOffice compiled to WebAssembly (npm
// @matbee/libreoffice-converter, LibreOfficeKit inside), loaded once and kept warm, converting one
// document at a time for the docwasm process that started it (src/wasm-office/wasm-office.ts).
// Documents arrive as bytes over IPC and are written into the office's in-memory file system,
// alone there besides the office's own files; nothing of the host's file system is mounted in
// it, and the process has no network: no-network.ts, loaded before this module in every thread,
// seals the socket layer.

// First: nothing of the office runs before the network is sealed (a no-op where Node preloaded it).
import './no-network.js';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';
import { withCjkLineMetrics } from '../../core/cjk-line-metrics.js';
import { adaptGlue, WASM_OFFICE_PACKAGE } from '../../core/wasm-office-package.js';
import type { ConvertRequest, HostMessage, HostSettings, StartStage } from '../../core/wasm-office-protocol.js';

interface EmscriptenFs {
  mkdirTree(dir: string): void;
  writeFile(file: string, data: string | Uint8Array): void;
  readFile(file: string): Uint8Array;
  unlink(file: string): void;
}

interface EmscriptenModule {
  FS: EmscriptenFs;
}

/** LibreOfficeKit's calls docwasm converts with (the converter's public `getLokBindings()`). */
interface LokBindings {
  documentLoad(path: string): number;
  /** `options`: what LibreOfficeKit does not take for itself becomes the import filter's FilterOptions. */
  documentLoadWithOptions(path: string, options: string): number;
  documentSaveAs(docPtr: number, outputPath: string, format: string, filterOptions?: string): void;
  documentDestroy(docPtr: number): void;
}

/**
 * The converter's parts docwasm uses: its start (module, fonts, LibreOfficeKit's initialization)
 * and then LibreOfficeKit itself. Its `convert()` would write every document as `doc.<ext>`,
 * which LibreOffice shows (a CSV's sheet name, page headers, file-name fields), and would read a
 * CSV with import options that this build takes as its separators (an empty sheet); docwasm
 * writes the document under the user's own (sanitized) name, as the installed office sees it,
 * and loads, saves and releases it through the bindings with the installed office's options.
 * Both parts are checked for at start: a version without them fails to start, saying so.
 */
interface ConverterLike {
  initialize(): Promise<void>;
  getModule(): EmscriptenModule | null;
  getLokBindings(): LokBindings | null;
}

type ConverterClass = new (options: {
  wasmLoader: { createModule: () => Promise<EmscriptenModule> };
  fonts: { filename: string; data: Uint8Array }[];
}) => ConverterLike;

/** A load or save LibreOfficeKit refused: the document's failure, not the office's. */
class DocumentRejected extends Error {}

const PDFA_VERSIONS = { '1b': '1', '2b': '2', '3b': '3' } as const;

function send(message: HostMessage): void {
  process.send?.(message);
}

const reached = (stage: StartStage) => send({ type: 'stage', stage });

/** Loads the office's Emscripten module from the adapted glue (see wasm-office-package.ts). */
function createModule(settings: HostSettings): Promise<EmscriptenModule> {
  const source = adaptGlue(readFileSync(settings.glue, 'utf8'), settings.glue);
  return new Promise((resolve, reject) => {
    // No `wasmBinary`: the glue keeps what it is given in a variable of its own for the office's
    // life (147 MB beside V8's compiled module); left to read soffice.wasm itself (locateFile), it
    // drops its copy once compiled.
    const module: Record<string, unknown> = {
      preRun: [],
      locateFile: (name: string) => path.join(settings.wasmDir, name),
      print: () => undefined,
      printErr: () => undefined,
      onAbort: (what: unknown) => reject(new Error(`the office aborted while loading: ${String(what)}`)),
      onRuntimeInitialized: () => {
        const loaded = module as unknown as EmscriptenModule;
        for (const [file, text] of Object.entries(settings.profile)) {
          loaded.FS.mkdirTree(path.posix.dirname(file));
          loaded.FS.writeFile(file, text);
        }
        reached('module loaded');
        resolve(loaded);
      },
    };
    (globalThis as { Module?: unknown }).Module = module;
    const run = vm.compileFunction(source, ['exports', 'require', 'module', '__filename', '__dirname'], { filename: settings.glue });
    const exports = {};
    run(exports, createRequire(settings.glue), { exports }, settings.glue, settings.wasmDir);
  });
}

/** A font file's bytes as the office gets them: the shipped CJK face with its line height tuned. */
function fontData(file: string, settings: HostSettings): Uint8Array {
  const bytes = readFileSync(file);
  return settings.cjkFaces.includes(file) ? withCjkLineMetrics(bytes) : bytes;
}

/** The office as docwasm uses it: its in-memory file system and LibreOfficeKit. */
interface Office {
  fs: EmscriptenFs;
  lok: LokBindings;
  /** HostSettings.locale. */
  locale: string | undefined;
}

async function start(settings: HostSettings): Promise<Office> {
  const { LibreOfficeConverter } = (await import(pathToFileURL(settings.entry).href)) as { LibreOfficeConverter: ConverterClass };
  const fonts = settings.fonts.map((file) => ({ filename: path.basename(file), data: fontData(file, settings) }));
  const converter = new LibreOfficeConverter({ wasmLoader: { createModule: () => createModule(settings) }, fonts });
  await converter.initialize();
  const fs = typeof converter.getModule === 'function' ? converter.getModule()?.FS : undefined;
  const lok = typeof converter.getLokBindings === 'function' ? converter.getLokBindings() : undefined;
  const calls = ['documentLoad', 'documentLoadWithOptions', 'documentSaveAs', 'documentDestroy'] as const;
  if (!fs || !lok || calls.some((call) => typeof lok[call] !== 'function')) {
    throw new Error(
      `${WASM_OFFICE_PACKAGE} ${packageVersion(settings)} lacks the module's file system or the LibreOfficeKit calls (${calls.join(', ')}) docwasm converts with`,
    );
  }
  reached('LibreOfficeKit initialized');
  const office = { fs, lok, locale: settings.locale };
  warmWriterToPdf(office);
  reached('Writer warmed');
  return office;
}

/**
 * One line of text through Writer's import and the PDF export before the office says it is
 * ready: the first document of a kind pays for loading its filters (seconds, measured at 13–19 s
 * with both cores busy), and docx → pdf is the conversion most asked for.
 */
function warmWriterToPdf(office: Office): void {
  convertDocument(office, { type: 'convert', id: 0, bytes: Buffer.from('{\\rtf1\\ansi warm\\par}'), extension: 'rtf', name: 'warm', format: 'pdf' });
}

/** The export filter's options: the request's, or a PDF/A level as the PDF export's SelectPdfVersion. */
function exportOptions({ filterOptions, pdfa }: ConvertRequest): string {
  if (filterOptions !== undefined) return filterOptions;
  return pdfa === undefined ? '' : JSON.stringify({ SelectPdfVersion: { type: 'long', value: PDFA_VERSIONS[pdfa] } });
}

/**
 * LibreOfficeKit's load options: `Language=<tag>` first, which it takes for itself (as the
 * office's locale, whose country gives the paper of a document that sets none: paper.ts), then
 * the import filter's options, which it passes on as FilterOptions.
 */
function loadOptions(locale: string | undefined, { importFilterOptions }: ConvertRequest): string {
  return [locale === undefined ? undefined : `Language=${locale}`, importFilterOptions].filter((part) => part !== undefined).join(',');
}

/**
 * Loads `input`, saves it as `output` and releases it. The bindings throw an Error when
 * LibreOfficeKit answers with no document or a failed save: the document's failure
 * (DocumentRejected). A trap or an abort inside the office (a WebAssembly RuntimeError) is not.
 */
function loadAndSave({ fs, lok, locale }: Office, input: string, output: string, request: ConvertRequest): Uint8Array {
  let step = 'load';
  let doc = 0;
  try {
    doc = lok.documentLoadWithOptions(input, loadOptions(locale, request));
    step = 'save';
    lok.documentSaveAs(doc, output, request.format, exportOptions(request));
    step = 'read the product';
    const bytes = fs.readFile(output);
    if (bytes.length === 0) throw new Error('it is empty');
    return bytes;
  } catch (err) {
    if (err instanceof Error && err.name === 'RuntimeError') throw err;
    throw new DocumentRejected(`${step}: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    if (doc !== 0) lok.documentDestroy(doc);
  }
}

/**
 * Converts one document: it alone in its own directory of the in-memory file system, its product
 * beside it, both removed again however the conversion ends.
 */
function convertDocument(office: Office, request: ConvertRequest): Uint8Array {
  const { fs } = office;
  const input = `/docwasm/in/${request.name}.${request.extension}`;
  const output = `/docwasm/out/${request.name}.${request.format}`;
  try {
    fs.mkdirTree('/docwasm/in');
    fs.mkdirTree('/docwasm/out');
    fs.writeFile(input, request.bytes);
    return loadAndSave(office, input, output, request);
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

function convert(office: Office, request: ConvertRequest): void {
  try {
    send({ type: 'converted', id: request.id, bytes: convertDocument(office, request) });
  } catch (err) {
    if (err instanceof DocumentRejected) return send({ type: 'rejected', id: request.id, message: err.message });
    // Anything else (a WebAssembly trap, an abort) leaves the office in doubt: docwasm replaces it.
    process.stderr.write(`docwasm wasm office: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(70);
  }
}

async function main(): Promise<void> {
  const settings = JSON.parse(process.argv[2] ?? '{}') as HostSettings;
  let office: Office;
  try {
    office = await start(settings);
  } catch (err) {
    send({ type: 'failed', message: err instanceof Error ? err.message : String(err) });
    process.exit(1);
  }
  // One document at a time: docwasm sends the next only after this one's answer.
  process.on('message', (message: ConvertRequest) => convert(office, message));
  // The office's own IPC listener must not keep a parent-less process alive.
  process.on('disconnect', () => process.exit(0));
  send({ type: 'ready', version: `LibreOffice (WebAssembly, ${WASM_OFFICE_PACKAGE} ${packageVersion(settings)})` });
}

function packageVersion(settings: HostSettings): string {
  const manifest = path.join(settings.wasmDir, '..', 'package.json');
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

void main();
