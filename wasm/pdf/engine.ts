// The PdfEngine capability: what docwasm needs from a PDF library. Engines take and return
// bytes; the worker does the file I/O. Errors are ApiErrors with contract codes.
//
// Every method that reads a PDF takes the input's password as its last, optional argument: an
// encrypted input without it (or with a wrong one) is PASSWORD_REQUIRED. Outputs are written
// without encryption unless the method is `encrypt`.

import type { MetadataUpdate } from '../../src/shared/pdf-metadata.js';
import type { PageRange } from '../../src/shared/page-ranges.js';
import type { PdfaLevel } from '../../src/shared/pdfa.js';

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
export interface PdfSink {
  (pdf: Uint8Array, index: number): void;
  /** Writes an output made of consecutive chunks, in turn, without joining them first (a 40 MB copy). */
  chunks?: (parts: Iterable<Uint8Array>, index: number) => void;
}

/** Hands `parts` to the sink as they are when it takes chunks, else joined. */
export function sinkChunks(sink: PdfSink, parts: Iterable<Uint8Array>, index: number): void {
  if (sink.chunks) sink.chunks(parts, index);
  else sink(Buffer.concat([...parts]), index);
}

export interface PageSize {
  width: number;
  height: number;
}

export interface PdfInfo {
  pages: number;
  /** "1.7", "2.0". */
  pdfVersion: string;
  encrypted: boolean;
  title: string | null;
  author: string | null;
  subject: string | null;
  keywords: string | null;
  creator: string | null;
  producer: string | null;
  /** ISO 8601 when the PDF date parses, else the date string as stored. */
  creationDate: string | null;
  modDate: string | null;
  /**
   * Points, as a viewer shows the page: the CropBox (else MediaBox) with width and height
   * swapped for pages rotated by 90 or 270 degrees. At most the first 1,000 pages.
   */
  pageSizes: PageSize[];
}


export type RotationDegrees = 90 | 180 | 270;

export interface RotateOptions {
  /** Clockwise, added to each selected page's /Rotate. */
  degrees: RotationDegrees;
  /** Pages to rotate (ascending ranges, as split takes them); all pages when absent. */
  ranges?: readonly PageRange[];
}

export interface WatermarkOptions {
  text: string;
  /** 0–1: the fill opacity (ExtGState /ca). */
  opacity: number;
  /** Points. */
  fontSize: number;
  /** Degrees counter-clockwise from the page's horizontal as a viewer shows it. */
  rotation: number;
  ranges?: readonly PageRange[];
}

export interface CompressOptions {
  /** JPEG quality 1–100 for re-encoded photos. */
  quality: number;
  /** Images drawn above this resolution are downsampled to it (50–600). */
  maxDpi: number;
}

export interface CompressResult {
  inputBytes: number;
  outputBytes: number;
  /** True when the result was not smaller and the input's bytes were written instead. */
  unchanged: boolean;
}

export interface PdfEngine {
  readonly name: 'mupdf' | 'cpdf';
  pageCount(pdf: Uint8Array, password?: string): number;
  /** Pages of all inputs in order; bookmarks of every input are kept. `password` is tried on each input. */
  merge(pdfs: readonly Uint8Array[], sink: PdfSink, password?: string): { pages: number };
  /** One document per range, in order; throws INVALID_PAGE_RANGE for ranges beyond the last page. */
  split(pdf: Uint8Array, ranges: readonly PageRange[], sink: PdfSink, password?: string): void;
  encrypt(pdf: Uint8Array, options: EncryptOptions, sink: PdfSink, password?: string): void;
  info(pdf: Uint8Array, password?: string): PdfInfo;
  setMetadata(pdf: Uint8Array, update: MetadataUpdate, sink: PdfSink, password?: string): void;
  /** A non-encrypted input is written as it is. */
  decrypt(pdf: Uint8Array, password: string, sink: PdfSink): { wasEncrypted: boolean };
  rotate(pdf: Uint8Array, options: RotateOptions, sink: PdfSink, password?: string): void;
  /** Exactly the pages of `ranges` in order (descending ranges run backwards, repeats are copies). */
  rearrange(pdf: Uint8Array, ranges: readonly PageRange[], sink: PdfSink, password?: string): { pages: number };
  watermark(pdf: Uint8Array, options: WatermarkOptions, sink: PdfSink, password?: string): void;
  compress(pdf: Uint8Array, options: CompressOptions, sink: PdfSink, password?: string): Promise<CompressResult>;
  toPdfa(pdf: Uint8Array, level: PdfaLevel, sink: PdfSink, password?: string): Promise<void>;
}
