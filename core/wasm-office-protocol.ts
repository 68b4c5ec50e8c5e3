// The messages between docwasm and its WebAssembly office process (wasm/office/host.ts), over
// the child's IPC channel with structured-clone serialization (a document travels as bytes: the
// office process opens no file of the host's but its own package and fonts).

import type { PdfaLevel } from './pdfa.js';

/** What the office process is started with (its one argument, as JSON). */
export interface HostSettings {
  /** The package's ES module entry (WasmOfficeFiles.entry). */
  entry: string;
  /** The package's wasm directory. */
  wasmDir: string;
  glue: string;
  /** Font files copied into the office's in-memory file system (CJK face, --font-dir). */
  fonts: string[];
  /**
   * The locale documents are loaded under (a BCP 47 tag, LibreOfficeKit's `Language=` load
   * option): its country sets the paper of documents that set none (paper.ts).
   */
  locale?: string | undefined;
  /** Those of `fonts` that are the shipped CJK face: the office gets them with its line height tuned (cjk-line-metrics.ts). */
  cjkFaces: string[];
  /** Files of the office's user profile (the hardened registrymodifications.xcu, its fontconfig aliases), by path in its file system. */
  profile: Record<string, string>;
}

export interface ConvertRequest {
  type: 'convert';
  id: number;
  /** The document's bytes; it is the only document in the office's file system while it converts. */
  bytes: Uint8Array;
  /** The input's extension (`docx`, `csv`, …): the office's import filter is picked from it. */
  extension: string;
  /** The document's stem as the user named it, sanitized (LibreOffice shows it in fields and sheet names). */
  name: string;
  format: string;
  /** Options of the import filter (CSV: separator, quote, encoding); undefined: the filter's defaults. */
  importFilterOptions?: string | undefined;
  /** Options of the export filter (CSV: separator, encoding, first sheet only). */
  filterOptions?: string | undefined;
  pdfa?: PdfaLevel | undefined;
}

/** A start's steps in order: the module compiled and its file system filled, LibreOfficeKit up, Writer → PDF warmed. */
export type StartStage = 'module loaded' | 'LibreOfficeKit initialized' | 'Writer warmed';

export type HostMessage =
  | { type: 'ready'; version: string }
  /** How far a start has come, for the messages of a start that hangs or fails. */
  | { type: 'stage'; stage: StartStage }
  | { type: 'failed'; message: string }
  | { type: 'converted'; id: number; bytes: Uint8Array }
  /** The office could not read or write this document (its own failure, not the office's). */
  | { type: 'rejected'; id: number; message: string };
