// PdfEngine on mupdf (WebAssembly): the default. Repairs damaged files, copies pages between
// documents (mupdf-pages.ts), encrypts (mupdf-encrypt.ts); the PDF tools live in tools/.

import * as mupdf from 'mupdf';
import { ApiError } from '../../core/errors.js';
import type { CompressOptions, CompressResult, PdfEngine, PdfSink } from './engine.js';
import { copyOf, isEncrypted, PLAIN, readInPlace, save, withDocument, withDocumentAsync, withNewDocument } from './mupdf-document.js';
import { appendOutline, shiftOutline, type OutlineItem } from './mupdf-outline.js';
import { encryptPdf } from './mupdf-encrypt.js';
import { appendPages } from './mupdf-pages.js';
import { checkRangesWithin, pageSequence, type PageRange } from '../../core/page-ranges.js';
import { COMPRESSED_SAVE, recompressImages } from './tools/mupdf-compress.js';
import { readInfo } from './tools/mupdf-info.js';
import { dropThumbnails, dropThumbnailsAndPrivateData } from './tools/private-data.js';
import { applyMetadata } from './tools/mupdf-metadata.js';
import { copyPagesInOrder } from './tools/mupdf-rearrange.js';
import { rotatePages } from './tools/mupdf-rotate.js';
import { stampWatermark } from './tools/mupdf-watermark.js';
import { stampPages } from './tools/mupdf-stamp.js';
import { fillForm, flattenForm } from './tools/mupdf-fill.js';
import { withFields } from './tools/mupdf-form-fields.js';
import { signPdf } from './tools/mupdf-sign.js';
import { listSignatures } from './tools/mupdf-signatures.js';
import { loadIdentity } from './sign/pkcs12.js';
import { matchersOf } from '../../core/redact-patterns.js';
import { REDACTED_SAVE, redactDocument } from './redact/redact.js';
import { assertNothingLeft } from './redact/verify.js';
import { showEveryLayer } from './redact/every-layer.js';
import { convertToPdfa } from './tools/pdfa.js';

export const mupdfEngine: PdfEngine = {
  name: 'mupdf',

  pageCount(pdf, password) {
    return withDocument(pdf, (doc) => doc.countPages(), password);
  },

  merge(pdfs, sink, password) {
    // Appending to the first document copies only the other inputs' objects.
    const [first, ...rest] = pdfs;
    if (!first) throw new ApiError('VALIDATION_ERROR', 'Nothing to merge');
    return withDocument(
      first,
      (target) => {
        const appended: OutlineItem[] = [];
        let pages = target.countPages();
        for (const bytes of rest) {
          withDocument(
            bytes,
            (source) => {
              const count = source.countPages();
              appendPages(target, source, pageIndices(0, count - 1));
              appended.push(...shiftOutline(source.loadOutline() ?? [], pages));
              pages += count;
            },
            password,
          );
        }
        appendOutline(target, appended);
        save(target, PLAIN, sink, 0);
        return { pages };
      },
      password,
    );
  },

  split(pdf, ranges, sink, password) {
    withDocument(
      pdf,
      (source) => {
        checkRangesWithin(ranges, source.countPages());
        ranges.forEach((range, index) => extractRange(source, range, sink, index));
      },
      password,
    );
  },

  encrypt(pdf, options, sink, password) {
    encryptPdf(pdf, options, sink, password);
  },

  info(pdf, password) {
    return withDocument(pdf, (doc) => readInfo(doc, isEncrypted(doc)), password);
  },

  setMetadata(pdf, update, sink, password) {
    withDocument(pdf, (doc) => edit(doc, () => applyMetadata(doc, update), sink), password);
  },

  decrypt(pdf, password, sink) {
    return withDocument(
      pdf,
      (doc) => {
        const wasEncrypted = isEncrypted(doc);
        if (wasEncrypted) save(doc, PLAIN, sink, 0);
        else sink(pdf, 0);
        return { wasEncrypted };
      },
      password,
    );
  },

  rotate(pdf, options, sink, password) {
    withDocument(pdf, (doc) => edit(doc, () => rotatePages(doc, options), sink), password);
  },

  rearrange(pdf, ranges, sink, password) {
    return withDocument(
      pdf,
      (source) => {
        checkRangesWithin(ranges, source.countPages());
        const indices = pageSequence(ranges).map((page) => page - 1);
        withNewDocument((target) => {
          copyPagesInOrder(target, source, indices);
          save(target, PLAIN, sink, 0);
        });
        return { pages: indices.length };
      },
      password,
    );
  },

  watermark(pdf, options, sink, password) {
    // compress: the font's width array and ToUnicode map cover all its glyphs (~400 KB as text).
    withDocument(pdf, (doc) => edit(doc, () => stampWatermark(doc, options), sink, `${PLAIN},compress=yes`), password);
  },

  stamp(pdf, options, sink, password) {
    withDocument(pdf, (doc) => edit(doc, () => stampPages(doc, options), sink, `${PLAIN},compress=yes`), password);
  },

  async compress(pdf, options, sink, password) {
    // Read in place: a photo PDF is large, and compress's own peak (decoded images) comes on top.
    const input = readInPlace(pdf);
    try {
      return await withDocumentAsync(input, (doc) => compressOpened(doc, pdf, options, sink), password);
    } finally {
      input.destroy();
    }
  },

  async toPdfa(pdf, level, sink, password) {
    const readable = await withDocumentAsync(pdf, async (doc) => (isEncrypted(doc) ? copyOf(doc.saveToBuffer(PLAIN)) : pdf), password);
    sink(await convertToPdfa(readable, level), 0);
  },

  formFields(pdf, password) {
    return withDocument(pdf, (doc) => withFields(doc, (fields) => [...fields.values()].map((entry) => entry.field)), password);
  },

  fillForm(pdf, options, sink, password) {
    return withDocument(
      pdf,
      (doc) => {
        const result = fillForm(doc, options);
        save(doc, `${PLAIN},garbage=yes,compress=yes`, sink, 0);
        return result;
      },
      password,
    );
  },

  flatten(pdf, { annotations }, sink, password) {
    return withDocument(
      pdf,
      (doc) => {
        const fields = flattenForm(doc, annotations);
        save(doc, `${PLAIN},garbage=yes,compress=yes`, sink, 0);
        return { fields };
      },
      password,
    );
  },

  sign(pdf, options, sink, password) {
    const identity = loadIdentity(options.certificate, options.certificatePassword);
    sink(signPdf(pdf, identity, options, password), 0);
    return { signer: options.name ?? null };
  },

  signatures(pdf, trustRoots, password) {
    return withDocument(pdf, (doc) => listSignatures(doc, pdf, password, trustRoots), password);
  },

  redact(pdf, options, sink, password) {
    return withDocument(
      pdf,
      (opened) => {
        // Hidden layers are searched and redacted too (a viewer can turn them on).
        const shown = showEveryLayer(opened);
        try {
          const doc = shown.doc;
          const result = redactDocument(doc, options);
          shown.restore();
          // Thumbnails show the pages as they were (and may show anything): they go.
          dropThumbnails(doc);
          // Read whole before anything is written: a match left anywhere fails the request.
          const saved = doc.saveToBuffer(REDACTED_SAVE);
          try {
            assertNothingLeft(saved.asUint8Array(), matchersOf(options));
            sink(saved.asUint8Array(), 0);
          } finally {
            saved.destroy();
          }
          return result;
        } finally {
          shown.close();
        }
      },
      password,
    );
  },
};

async function compressOpened(doc: mupdf.PDFDocument, pdf: Uint8Array, options: CompressOptions, sink: PdfSink): Promise<CompressResult> {
  // First, so that thumbnails (unused from then on, dropped on save) are not re-encoded for nothing.
  dropThumbnailsAndPrivateData(doc);
  await recompressImages(doc, options);
  const buffer = doc.saveToBuffer(COMPRESSED_SAVE);
  try {
    const output = buffer.asUint8Array();
    const unchanged = output.length >= pdf.length;
    sink(unchanged ? pdf : output, 0);
    return { inputBytes: pdf.length, outputBytes: unchanged ? pdf.length : output.length, unchanged };
  } finally {
    buffer.destroy();
  }
}

function edit(doc: mupdf.PDFDocument, change: () => void, sink: PdfSink, options = PLAIN): void {
  change();
  save(doc, options, sink, 0);
}

function extractRange(source: mupdf.PDFDocument, range: PageRange, sink: PdfSink, index: number): void {
  withNewDocument((target) => {
    appendPages(target, source, pageIndices(range.first - 1, range.last - 1));
    save(target, PLAIN, sink, index);
  });
}

function* pageIndices(first: number, last: number): Generator<number> {
  for (let index = first; index <= last; index++) yield index;
}
