// Opening and saving documents with mupdf: the one place that turns mupdf's failures on open
// into contract codes (INVALID_INPUT, PASSWORD_REQUIRED) and that hands saved bytes to a sink.

import * as mupdf from 'mupdf';
import { ApiError } from '../../core/errors.js';
import type { PdfSink } from './engine.js';
import { passwordRequired } from './password-error.js';
import './mupdf-log.js';

/** Save options for every output but encrypt's: written unencrypted, whatever the input was. */
export const PLAIN = 'encrypt=none';

export function withDocument<T>(bytes: Uint8Array, use: (doc: mupdf.PDFDocument) => T, password?: string): T {
  const doc = openPdf(bytes, password);
  try {
    return use(doc);
  } finally {
    doc.destroy();
  }
}

/** As withDocument, for work that awaits while the document is open. */
export async function withDocumentAsync<T>(bytes: Uint8Array | mupdf.Stream, use: (doc: mupdf.PDFDocument) => Promise<T>, password?: string): Promise<T> {
  const doc = openPdf(bytes, password);
  try {
    return await use(doc);
  } finally {
    doc.destroy();
  }
}

/**
 * A stream mupdf reads `bytes` through where they lie, a piece at a time, instead of the copy
 * of the whole file it makes in its heap when given the bytes (a heap that never shrinks). The
 * bytes must stay as they are while a document opened on the stream is in use.
 */
export function readInPlace(bytes: Uint8Array): mupdf.Stream {
  return new mupdf.Stream({
    fileSize: () => bytes.length,
    read: (memory, offset, length, position) => {
      const piece = bytes.subarray(position, Math.min(bytes.length, position + length));
      memory.set(piece, offset);
      return piece.length;
    },
    close: () => undefined,
  });
}

export function openPdf(bytes: Uint8Array | mupdf.Stream, password?: string): mupdf.PDFDocument {
  // mupdf takes the password as a C string: "abc\0def" would be tried as "abc".
  if (password?.includes('\0')) throw new ApiError('VALIDATION_ERROR', 'A password must not contain NUL characters');
  let doc: mupdf.Document;
  try {
    doc = mupdf.Document.openDocument(bytes, 'application/pdf');
  } catch (err) {
    throw new ApiError('INVALID_INPUT', `Not a readable PDF (${(err as Error).message})`);
  }
  const pdf = doc.asPDF();
  if (!pdf) {
    doc.destroy();
    throw new ApiError('INVALID_INPUT', 'Not a PDF document');
  }
  if (pdf.needsPassword() && !unlock(pdf, password)) {
    pdf.destroy();
    throw passwordRequired(password);
  }
  let pages: number;
  try {
    pages = pdf.countPages();
  } catch (err) {
    pdf.destroy();
    throw new ApiError('INVALID_INPUT', `Not a readable PDF (${(err as Error).message})`);
  }
  // A file mupdf had to rebuild and found no page in has lost its page tree (a truncated file):
  // nothing in it can be shown, merged or rendered.
  if (pages === 0 && pdf.wasRepaired()) {
    pdf.destroy();
    throw new ApiError('INVALID_INPUT', 'Not a readable PDF (damaged: no page could be recovered)');
  }
  return pdf;
}

function unlock(pdf: mupdf.PDFDocument, password: string | undefined): boolean {
  // 0 = wrong; 1 = no password needed; 2 = user password; 4 = owner password (bits may combine).
  return password !== undefined && pdf.authenticatePassword(password) !== 0;
}

export function isEncrypted(doc: mupdf.PDFDocument): boolean {
  return !doc.getTrailer().get('Encrypt').isNull();
}

export function save(doc: mupdf.PDFDocument, options: string, sink: PdfSink, index = 0): void {
  const buffer = doc.saveToBuffer(options);
  try {
    sink(buffer.asUint8Array(), index);
  } finally {
    buffer.destroy();
  }
}

/** Runs `use` with a new empty document, destroyed afterwards. */
export function withNewDocument<T>(use: (doc: mupdf.PDFDocument) => T): T {
  const doc = new mupdf.PDFDocument();
  try {
    return use(doc);
  } finally {
    doc.destroy();
  }
}

/** The bytes of a mupdf buffer in JS memory, the buffer freed. */
export function copyOf(buffer: mupdf.Buffer): Uint8Array {
  try {
    return buffer.asUint8Array().slice();
  } finally {
    buffer.destroy();
  }
}
