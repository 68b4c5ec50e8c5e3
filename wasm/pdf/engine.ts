// The PdfEngine capability: what docwasm needs from a PDF library. Engines take and return
// bytes; the worker does the file I/O. Errors are ApiErrors with contract codes.
//
// Every method that reads a PDF takes the input's password as its last, optional argument: an
// encrypted input without it (or with a wrong one) is PASSWORD_REQUIRED. Outputs are written
// without encryption unless the method is `encrypt`.

import type { MetadataUpdate } from '../../core/pdf-metadata.js';
import type { PageRange } from '../../core/page-ranges.js';
import type { PdfaLevel } from '../../core/pdfa.js';
import type { StampPosition } from '../../core/stamp.js';
import type { CertificateSummary, TrustProblem } from './sign/trust.js';

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

/** A stamp: a line of text or an image (its bytes), at a position of the page as a viewer shows it. */
export interface StampOptions {
  text?: string;
  image?: Uint8Array;
  /** Points; the image's own size (at its resolution, else 96 dpi) when absent. */
  imageWidth?: number;
  /** An image of more pixels is TOO_LARGE (decompression bombs). */
  maxImagePixels?: number;
  position: StampPosition;
  /** Points between the stamp's (turned) bounding box and the page edges it is placed against. */
  margin: number;
  /** Points, for text. */
  fontSize: number;
  /** 0–1. */
  opacity: number;
  /** Degrees counter-clockwise, about the stamp's centre. */
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

export interface RedactArea {
  /** 1-based. */
  page: number;
  /** Points from the top-left corner of the page as a viewer shows it. */
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface RedactOptions {
  areas: readonly RedactArea[];
  /** Where OCR read a match in an image: the image's pixels there are blanked (and painted), the text and drawings stay. */
  imageAreas: readonly RedactArea[];
  text: readonly string[];
  patterns: readonly string[];
  /** RGB, 0–1 each. */
  fill: [number, number, number];
}

export interface RedactResult {
  /** Boxes applied on pages plus matches removed elsewhere (annotations, fields, bookmarks, metadata). */
  redactions: number;
  /** 1-based, ascending. */
  pages: number[];
  removedElsewhere: TextRemovals;
}

/** How many strings outside page content lost at least one match, by where they were. */
export interface TextRemovals {
  annotations: number;
  fields: number;
  bookmarks: number;
  metadata: number;
  /** Attachments removed because their name, description or body held a match. */
  attachments: number;
  /** Any other string, name, stream or annotation appearance that lost a match. */
  other: number;
}

export type FormFieldType = 'text' | 'checkbox' | 'radio' | 'choice' | 'signature';

export interface FormField {
  /** The fully qualified name ("parent.child"). */
  name: string;
  type: FormFieldType;
  /** text: the string; checkbox: checked; radio and choice: the option chosen, null when none; signature: null. */
  value: string | boolean | null;
  /** radio: the on-state of each button; choice: the listed options. */
  options?: string[];
  /** 1-based: the page of the field's first widget. */
  page: number;
  readOnly: boolean;
}

/** A value to fill: text as a string, a checkbox as a boolean, a radio or choice by option. */
export type FormValue = string | boolean;

export interface FillOptions {
  values: Readonly<Record<string, FormValue>>;
  flatten: boolean;
}

export interface SignOptions {
  /** The PKCS#12 file's bytes. */
  certificate: Uint8Array;
  certificatePassword?: string;
  reason?: string;
  location?: string;
  /** The signer's name; the certificate's common name when absent. */
  name?: string;
  /** Points from the top-left of the page as shown; an invisible signature when absent. */
  visible?: { page: number; x: number; y: number; width: number; height: number };
}

export interface SignatureInfo {
  name: string;
  /** ISO 8601 (from /M). */
  signedAt: string | null;
  reason: string | null;
  location: string | null;
  /**
   * The byte ranges start at 0 and end at the end of a revision (%%EOF), the gap between them is
   * exactly the dictionary's own /Contents hex string, that dictionary is the one the signed
   * revision holds, and the CMS (SHA-2) verifies over the signed bytes with its certificate.
   */
  valid: boolean;
  /** The byte ranges are sound and their revision is the whole file: nothing was appended after this signature. */
  coversWholeDocument: boolean;
  /** The signer's certificate, as the CMS carries it; null when the signature could not be read. */
  certificate: CertificateSummary | null;
  /** Valid, and the certificate chains to a --trust-cert root and was within its validity when signed. */
  trusted: boolean;
  /** Why the certificate is not trusted; absent when trusted, or when only the signature is at fault. */
  trustProblem?: TrustProblem;
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
  stamp(pdf: Uint8Array, options: StampOptions, sink: PdfSink, password?: string): void;
  compress(pdf: Uint8Array, options: CompressOptions, sink: PdfSink, password?: string): Promise<CompressResult>;
  toPdfa(pdf: Uint8Array, level: PdfaLevel, sink: PdfSink, password?: string): Promise<void>;
  /** Removes (not covers) what lies under the areas and the matches; INVALID_PAGE_RANGE for an area beyond the last page. */
  redact(pdf: Uint8Array, options: RedactOptions, sink: PdfSink, password?: string): RedactResult;
  formFields(pdf: Uint8Array, password?: string): FormField[];
  /** VALIDATION_ERROR naming the field for an unknown name or a value the field cannot take; nothing is written then. */
  fillForm(pdf: Uint8Array, options: FillOptions, sink: PdfSink, password?: string): { filled: string[] };
  /** Form fields (and annotations, unless `annotations` is false) become page content; no AcroForm is left. */
  flatten(pdf: Uint8Array, options: { annotations: boolean }, sink: PdfSink, password?: string): { fields: number };
  /** A PAdES B-B signature as an incremental update; PASSWORD_REQUIRED for a wrong certificate password. */
  sign(pdf: Uint8Array, options: SignOptions, sink: PdfSink, password?: string): { signer: string | null };
  /** `trustRoots`: the PEM certificates given with --trust-cert. */
  signatures(pdf: Uint8Array, trustRoots: readonly string[], password?: string): SignatureInfo[];
}
