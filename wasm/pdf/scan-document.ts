// Opening the PDF that page-by-page work (rendering, OCR, to-images) reads: encrypted input is
// opened with its password, and the last document opened stays open in this worker, so the
// next page of the same file (the usual case: one job per page) does not parse it again.

import fs from 'node:fs';
import * as mupdf from 'mupdf';
import type { FileRef } from '../../core/file-ref.js';
import { openPdf } from './mupdf-document.js';

export interface PdfSource {
  input: FileRef;
  password?: string | undefined;
}

interface Cached {
  key: string;
  doc: mupdf.PDFDocument;
}

let cached: Cached | undefined;

/**
 * The document at `input`, opened (and authenticated) once per file version. `read` reads the
 * file's bytes and `check` judges the document opened; both only when it is not already open.
 */
export function openSource({ input, password }: PdfSource, read: (file: FileRef) => Uint8Array, check: (doc: mupdf.PDFDocument) => void): mupdf.PDFDocument {
  const key = versionKey(input.path, password);
  if (cached?.key === key) return cached.doc;
  closeCachedDocument();
  const doc = openPdf(read(input), password);
  try {
    check(doc);
  } catch (err) {
    doc.destroy(); // not kept: the next page's job must not find it open and unchecked
    throw err;
  }
  cached = { key, doc };
  return doc;
}

export function closeCachedDocument(): void {
  cached?.doc.destroy();
  cached = undefined;
}

/** Changes when the file is replaced or rewritten; a missing file is left to `read` to report. */
function versionKey(input: string, password: string | undefined): string {
  const stat = fs.statSync(input, { throwIfNoEntry: false });
  return JSON.stringify([input, stat?.ino, stat?.size, stat?.mtimeMs, stat?.ctimeMs, password ?? null]);
}
