// PdfEngine on mupdf (WebAssembly): the default. Repairs damaged files, copies pages between
// documents (mupdf-pages.ts) and encrypts with AES while saving.

import * as mupdf from 'mupdf';
import { ApiError } from '../../src/errors.js';
import type { EncryptOptions, PdfEngine, PdfSink } from './engine.js';
import { appendPages } from './mupdf-pages.js';
import { checkRangesWithin, type PageRange } from '../../src/shared/page-ranges.js';

type OutlineItem = NonNullable<ReturnType<mupdf.PDFDocument['loadOutline']>>[number];

export const mupdfEngine: PdfEngine = {
  name: 'mupdf',

  pageCount(pdf) {
    return withDocument(pdf, (doc) => doc.countPages());
  },

  merge(pdfs, sink) {
    // Appending to the first document copies only the other inputs' objects.
    const [first, ...rest] = pdfs;
    if (!first) throw new ApiError('VALIDATION_ERROR', 'Nothing to merge');
    return withDocument(first, (target) => {
      const appended: OutlineItem[] = [];
      let pages = target.countPages();
      for (const bytes of rest) {
        withDocument(bytes, (source) => {
          const count = source.countPages();
          appendPages(target, source, pageIndices(0, count - 1));
          appended.push(...shiftOutline(source.loadOutline() ?? [], pages));
          pages += count;
        });
      }
      appendOutline(target, appended);
      save(target, '', sink, 0);
      return { pages };
    });
  },

  split(pdf, ranges, sink) {
    withDocument(pdf, (source) => {
      checkRangesWithin(ranges, source.countPages());
      ranges.forEach((range, index) => extractRange(source, range, sink, index));
    });
  },

  encrypt(pdf, options, sink) {
    withDocument(pdf, (doc) => save(doc, encryptionOptions(options), sink, 0));
  },
};

function extractRange(source: mupdf.PDFDocument, range: PageRange, sink: PdfSink, index: number): void {
  const target = new mupdf.PDFDocument();
  try {
    appendPages(target, source, pageIndices(range.first - 1, range.last - 1));
    save(target, '', sink, index);
  } finally {
    target.destroy();
  }
}

function* pageIndices(first: number, last: number): Generator<number> {
  for (let index = first; index <= last; index++) yield index;
}

function withDocument<T>(bytes: Uint8Array, use: (doc: mupdf.PDFDocument) => T): T {
  const doc = openPdf(bytes);
  try {
    return use(doc);
  } finally {
    doc.destroy();
  }
}

function openPdf(bytes: Uint8Array): mupdf.PDFDocument {
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
  if (pdf.needsPassword()) {
    pdf.destroy();
    throw new ApiError('PASSWORD_REQUIRED', 'The PDF is encrypted; remove its password first');
  }
  try {
    pdf.countPages();
  } catch (err) {
    pdf.destroy();
    throw new ApiError('INVALID_INPUT', `Not a readable PDF (${(err as Error).message})`);
  }
  return pdf;
}

function save(doc: mupdf.PDFDocument, options: string, sink: PdfSink, index: number): void {
  const buffer = doc.saveToBuffer(options);
  try {
    sink(buffer.asUint8Array(), index);
  } finally {
    buffer.destroy();
  }
}

function encryptionOptions({ userPassword, ownerPassword, algorithm }: EncryptOptions): string {
  // mupdf's option string has no escaping: a comma would end the password early.
  if ([userPassword, ownerPassword].some((pw) => pw.includes(','))) {
    throw new ApiError('VALIDATION_ERROR', 'The mupdf engine cannot use passwords containing a comma; use --pdf-engine cpdf');
  }
  const method = algorithm === 'aes128' ? 'aes-128' : 'aes-256';
  return `encrypt=${method},user-password=${userPassword},owner-password=${ownerPassword}`;
}

function shiftOutline(items: readonly OutlineItem[], offset: number): OutlineItem[] {
  return items.map((item) => ({
    title: item.title,
    uri: item.page !== undefined && item.page >= 0 ? undefined : item.uri,
    open: item.open,
    ...(item.page !== undefined && item.page >= 0 && { page: item.page + offset }),
    ...(item.down && { down: shiftOutline(item.down, offset) }),
  }));
}

/** Adds `items` after the document's existing top-level bookmarks. */
function appendOutline(doc: mupdf.PDFDocument, items: readonly OutlineItem[]): void {
  if (items.length === 0) return;
  const iterator = doc.outlineIterator();
  try {
    if (iterator.item()) while (iterator.next() === mupdf.OutlineIterator.ITERATOR_AT_ITEM);
    insertItems(doc, iterator, items);
  } finally {
    iterator.destroy();
  }
}

function insertItems(doc: mupdf.PDFDocument, iterator: mupdf.OutlineIterator, items: readonly OutlineItem[]): void {
  for (const item of items) {
    const uri = item.page !== undefined ? doc.formatLinkURI(new mupdf.LinkDestination(0, item.page, 'Fit')) : item.uri;
    iterator.insert({ title: item.title, uri, open: item.open });
    if (item.down?.length) {
      iterator.prev();
      iterator.down();
      insertItems(doc, iterator, item.down);
      iterator.up();
      iterator.next();
    }
  }
}
