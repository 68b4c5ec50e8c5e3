// The per-document budget of decompressed bytes (--max-decompressed-bytes): before a task that
// interprets a document's content (rendering, compress, PDF/A), every stream but images is
// decoded with a bound (stream-filters.ts) and their lengths are added up; over budget →
// TOO_LARGE in the time the bound takes to decode, where mupdf — which decompresses lazily and
// without a bound — ran a 1.5 GB Flate content stream (a 1.5 MB file) to the 120 s TIMEOUT.
// Images are left out: mupdf decodes no more of an image than its declared size; a JPEG's
// scans are held to their budget (core/image-budget.ts) all the same.

import type * as mupdf from 'mupdf';
import { ApiError } from '../../core/errors.js';
import { checkImageBudget } from '../../core/image-budget.js';
import { withDocument } from './mupdf-document.js';
import { decodedLength, OverBudget } from './stream-filters.js';

/** The document in `pdf` (opened with `password`) checked against the budget. */
export function checkPdfBudget(pdf: Uint8Array, password: string | undefined, budget: number): void {
  withDocument(pdf, (doc) => checkDecompressedBudget(doc, budget), password);
}

export function checkDecompressedBudget(doc: mupdf.PDFDocument, budget: number): void {
  let total = 0;
  const objects = doc.countObjects();
  try {
    for (let num = 1; num < objects; num++) total += decodedStreamLength(doc, num, budget - total);
  } catch (err) {
    if (!(err instanceof OverBudget)) throw err;
    throw new ApiError('TOO_LARGE', `The PDF's streams decompress to more than ${budget} bytes, its budget of decompressed bytes (--max-decompressed-bytes)`);
  }
}

/** The decoded length of object `num` when it is a stream other than an image; 0 otherwise. */
function decodedStreamLength(doc: mupdf.PDFDocument, num: number, remaining: number): number {
  let raw: Uint8Array;
  let filters: string[];
  try {
    const obj = doc.newIndirect(num);
    if (!obj.isStream()) return 0;
    filters = filterNames(obj.get('Filter'));
    if (isImage(obj) && !isJpeg(filters)) return 0;
    const buffer = obj.readRawStream();
    raw = buffer.asUint8Array().slice(); // a copy: the view into WASM memory goes with the buffer
    buffer.destroy();
  } catch {
    return 0; // a damaged object: reported, if it matters, by the task that uses it
  }
  if (!isJpeg(filters)) return decodedLength(raw, filters, remaining);
  // A JPEG image: its size is bounded by its declaration, its scans are not (6,000 took 87 s).
  checkImageBudget('jpeg', raw, Infinity);
  return 0;
}

const isJpeg = (filters: readonly string[]) => filters.length === 1 && (filters[0] === 'DCTDecode' || filters[0] === 'DCT');

function isImage(stream: mupdf.PDFObject): boolean {
  const subtype = stream.get('Subtype');
  return subtype.isName() && subtype.asName() === 'Image';
}

function filterNames(filter: mupdf.PDFObject): string[] {
  const names: string[] = [];
  if (filter.isName()) names.push(filter.asName());
  else if (filter.isArray()) filter.forEach((item) => names.push(item.isName() ? item.asName() : ''));
  return names;
}
