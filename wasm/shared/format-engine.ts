// The face an input format with engine code of its own shows the engine workers
// (wasm/shared/format-engines.ts lists them): what each worker asks of it.

import type { Rendered } from '../../core/markdown-join.js';
import type { PdfSink } from '../pdf/engine.js';
import type { PackageLimits } from '../read/package.js';
import type { DocumentSignature } from '../../core/document-signature.js';

/** What reading a format of its own answers beside its Markdown or text. */
export interface FormatFacts {
  /** The document's custom data (an e-invoice's fields), name → value. */
  fields: Record<string, string>;
  pages: number;
  /** The signatures it carries, checked (CONTRACT v0.5 `data.signatures`). */
  signatures?: DocumentSignature[];
}

export interface FormatEngine {
  /** The document as Markdown, cut at `maxCharacters` (read, convert to md). */
  markdown(bytes: Uint8Array, maxCharacters: number, limits: PackageLimits): Promise<Rendered & FormatFacts>;
  /** The document's plain text (convert to txt). */
  text(bytes: Uint8Array, limits: PackageLimits): Promise<{ text: string } & FormatFacts>;
  /** The document drawn as a PDF into `sink` (convert to pdf). */
  pdf(bytes: Uint8Array, maxPixels: number, sink: PdfSink, limits: PackageLimits): Promise<FormatFacts>;
}
