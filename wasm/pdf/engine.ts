// The PdfEngine capability: what docwasm needs from a PDF library. Engines take and return
// bytes; the worker does the file I/O. Errors are ApiErrors with contract codes.

import type { PageRange } from '../../src/shared/page-ranges.js';

export type EncryptionAlgorithm = 'aes256' | 'aes128';

export interface EncryptOptions {
  userPassword: string;
  ownerPassword: string;
  algorithm: EncryptionAlgorithm;
}

/**
 * Receives an output document. The bytes may be a view into engine memory that is freed once
 * the sink returns: write them out, do not keep them (this saves a copy of every output).
 */
export type PdfSink = (pdf: Uint8Array, index: number) => void;

export interface PdfEngine {
  readonly name: 'mupdf' | 'cpdf';
  pageCount(pdf: Uint8Array): number;
  /** Pages of all inputs in order; bookmarks of every input are kept. */
  merge(pdfs: readonly Uint8Array[], sink: PdfSink): { pages: number };
  /** One document per range, in order; throws INVALID_PAGE_RANGE for ranges beyond the last page. */
  split(pdf: Uint8Array, ranges: readonly PageRange[], sink: PdfSink): void;
  encrypt(pdf: Uint8Array, options: EncryptOptions, sink: PdfSink): void;
}
