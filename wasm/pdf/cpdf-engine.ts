// PdfEngine on cpdf (npm `coherentpdf`, OCaml compiled to JS). The named alternative to mupdf:
// much slower, synchronous and non-reentrant (one job per worker), keeps bookmarks on merge.
// Every document must be freed with deletePdf (about 12 MB leaks per job otherwise).
// It does info, decrypt, rotate and rearrange; metadata, watermark, stamp, compress, PDF/A, redact, forms and signing answer
// BACKEND_UNAVAILABLE (they need mupdf, or Ghostscript through the mupdf engine).

import { createRequire } from 'node:module';
import { ApiError } from '../../core/errors.js';
import type { EncryptOptions, PageSize, PdfEngine, PdfInfo } from './engine.js';
import { passwordRequired } from './password-error.js';
import { checkRangesWithin, pageSequence, selectedPages } from '../../core/page-ranges.js';
import { pdfDateToIso } from './tools/pdf-date.js';

type Cpdf = typeof import('coherentpdf');
const cpdf = createRequire(import.meta.url)('coherentpdf') as Cpdf;
type Pdf = ReturnType<Cpdf['fromMemory']>;

const MAX_PAGE_SIZES = 1000;

export const cpdfEngine: PdfEngine = {
  name: 'cpdf',

  pageCount(pdf, password) {
    return withDocuments([pdf], ([doc]) => cpdf.pages(doc as Pdf), password);
  },

  merge(pdfs, sink, password) {
    return withDocuments(
      pdfs,
      (docs) => {
        const merged = call(() => cpdf.merge(docs, false, false));
        try {
          sink(
            call(() => cpdf.toMemory(merged, false, false)),
            0,
          );
          return { pages: cpdf.pages(merged) };
        } finally {
          cpdf.deletePdf(merged);
        }
      },
      password,
    );
  },

  split(pdf, ranges, sink, password) {
    withDocuments(
      [pdf],
      ([doc]) => {
        checkRangesWithin(ranges, cpdf.pages(doc as Pdf));
        ranges.forEach((range, index) => {
          const part = call(() => cpdf.selectPages(doc as Pdf, cpdf.range(range.first, range.last)));
          try {
            sink(
              call(() => cpdf.toMemory(part, false, false)),
              index,
            );
          } finally {
            cpdf.deletePdf(part);
          }
        });
      },
      password,
    );
  },

  encrypt(pdf, { userPassword, ownerPassword, algorithm }: EncryptOptions, sink, password) {
    const method = algorithm === 'aes128' ? cpdf.aes128bittrue : cpdf.aes256bitisotrue;
    withDocuments(
      [pdf],
      ([doc]) =>
        sink(
          call(() => cpdf.toMemoryEncrypted(doc as Pdf, method, [], ownerPassword, userPassword, false, false)),
          0,
        ),
      password,
    );
  },

  info(pdf, password) {
    const encrypted = isEncrypted(pdf);
    return withDocuments([pdf], ([doc]) => readInfo(doc as Pdf, encrypted), password);
  },

  setMetadata() {
    throw needsMupdf('metadata');
  },

  decrypt(pdf, password, sink) {
    const wasEncrypted = isEncrypted(pdf);
    if (!wasEncrypted) {
      sink(pdf, 0);
      return { wasEncrypted };
    }
    withDocuments(
      [pdf],
      ([doc]) =>
        sink(
          call(() => cpdf.toMemory(doc as Pdf, false, false)),
          0,
        ),
      password,
    );
    return { wasEncrypted };
  },

  rotate(pdf, { degrees, ranges }, sink, password) {
    withDocuments(
      [pdf],
      ([doc]) => {
        const pages = [...selectedPages(ranges, cpdf.pages(doc as Pdf))].sort((a, b) => a - b);
        call(() => cpdf.rotateBy(doc as Pdf, pages, degrees));
        sink(
          call(() => cpdf.toMemory(doc as Pdf, false, false)),
          0,
        );
      },
      password,
    );
  },

  rearrange(pdf, ranges, sink, password) {
    return withDocuments(
      [pdf],
      ([doc]) => {
        checkRangesWithin(ranges, cpdf.pages(doc as Pdf));
        // cpdf copies a repeated page into a page object of its own.
        const pages = pageSequence(ranges);
        const selected = call(() => cpdf.selectPages(doc as Pdf, pages));
        try {
          sink(
            call(() => cpdf.toMemory(selected, false, false)),
            0,
          );
        } finally {
          cpdf.deletePdf(selected);
        }
        return { pages: pages.length };
      },
      password,
    );
  },

  watermark() {
    throw needsMupdf('watermark');
  },

  stamp() {
    throw needsMupdf('stamp');
  },

  compress() {
    throw needsMupdf('compress');
  },

  toPdfa() {
    return Promise.reject(needsMupdf('to-pdfa'));
  },

  redact() {
    throw needsMupdf('redact');
  },

  formFields() {
    throw needsMupdf('form-fields');
  },

  fillForm() {
    throw needsMupdf('fill');
  },

  flatten() {
    throw needsMupdf('flatten');
  },

  sign() {
    throw needsMupdf('sign');
  },

  signatures() {
    throw needsMupdf('signatures');
  },
};

/**
 * cpdf writes a diary to stderr itself ("Attempting to reconstruct the malformed pdf bytes...",
 * "ERROR: decryptPdf: Failure(...)" for each password it tries), which would reach the terminal
 * of a one-shot command and the service log in cpdf's words. What matters reaches the user as
 * the outcome (the repaired result, or the contract error). cpdf is synchronous and runs one
 * call at a time, so the stream is muted for exactly the duration of the call, nothing else's.
 * Every cpdf call runs inside withDocuments or isEncrypted, which run quietly.
 */
function quietly<T>(run: () => T): T {
  const write = process.stderr.write;
  process.stderr.write = (() => true) as typeof process.stderr.write;
  try {
    return run();
  } finally {
    process.stderr.write = write;
  }
}

function needsMupdf(operation: string): ApiError {
  return new ApiError('BACKEND_UNAVAILABLE', `${operation} needs the mupdf engine (--pdf-engine mupdf)`);
}

function readInfo(doc: Pdf, encrypted: boolean): PdfInfo {
  const text = (value: string) => (value === '' ? null : value);
  const date = (value: string) => (value === '' ? null : pdfDateToIso(value));
  const pages = cpdf.pages(doc);
  return {
    pages,
    pdfVersion: `${cpdf.getMajorVersion(doc)}.${cpdf.getVersion(doc)}`,
    encrypted,
    title: text(cpdf.getTitle(doc)),
    author: text(cpdf.getAuthor(doc)),
    subject: text(cpdf.getSubject(doc)),
    keywords: text(cpdf.getKeywords(doc)),
    creator: text(cpdf.getCreator(doc)),
    producer: text(cpdf.getProducer(doc)),
    creationDate: date(cpdf.getCreationDate(doc)),
    modDate: date(cpdf.getModificationDate(doc)),
    pageSizes: Array.from({ length: Math.min(pages, MAX_PAGE_SIZES) }, (_, i) => viewedSize(doc, i + 1)),
  };
}

/** As mupdf-info.ts decides: the CropBox (else MediaBox), turned as /Rotate turns it. */
function viewedSize(doc: Pdf, page: number): PageSize {
  const [minX = 0, maxX = 612, minY = 0, maxY = 792] = cpdf.hasBox(doc, page, '/CropBox') ? cpdf.getCropBox(doc, page) : cpdf.getMediaBox(doc, page);
  const width = Math.round(Math.abs(maxX - minX) * 100) / 100;
  const height = Math.round(Math.abs(maxY - minY) * 100) / 100;
  const quarterTurns = ((Math.round(cpdf.getPageRotation(doc, page) / 90) % 4) + 4) % 4;
  return quarterTurns % 2 === 1 ? { width: height, height: width } : { width, height };
}

function withDocuments<T>(inputs: readonly Uint8Array[], use: (docs: Pdf[]) => T, password?: string): T {
  return quietly(() => {
    const docs: Pdf[] = [];
    try {
      for (const bytes of inputs) docs.push(open(bytes, password));
      return use(docs);
    } finally {
      for (const doc of docs) cpdf.deletePdf(doc);
    }
  });
}

function isEncrypted(bytes: Uint8Array): boolean {
  return quietly(() => {
    const doc = parse(bytes);
    try {
      return cpdf.isEncrypted(doc);
    } finally {
      cpdf.deletePdf(doc);
    }
  });
}

function parse(bytes: Uint8Array): Pdf {
  try {
    return cpdf.fromMemory(bytes, '');
  } catch (err) {
    throw new ApiError('INVALID_INPUT', `Not a readable PDF (cpdf: ${cpdfMessage(err)})`);
  }
}

/** A document open for reading; an encrypted one decrypted with `password` (user, else owner). */
function open(bytes: Uint8Array, password?: string): Pdf {
  const doc = parse(bytes);
  if (!cpdf.isEncrypted(doc)) return doc;
  try {
    if (password === undefined || !decrypt(doc, password)) throw passwordRequired(password);
    return reloaded(doc);
  } finally {
    cpdf.deletePdf(doc);
  }
}

function decrypt(doc: Pdf, password: string): boolean {
  for (const attempt of [cpdf.decryptPdf, cpdf.decryptPdfOwner]) {
    try {
      attempt(doc, password);
      return true;
    } catch {
      // not this kind of password
    }
  }
  return false;
}

/** cpdf writes wrong stream lengths for a document it decrypted; reading it back repairs them. */
function reloaded(doc: Pdf): Pdf {
  return call(() => cpdf.fromMemory(cpdf.toMemory(doc, false, false), ''));
}

/** cpdf throws OCaml values (`[0, [248, "Exports.CPDFError", id], message]`), not Errors. */
function call<T>(operation: () => T, code: 'INVALID_INPUT' | 'INTERNAL_ERROR' = 'INVALID_INPUT'): T {
  try {
    return operation();
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw new ApiError(code, `cpdf: ${cpdfMessage(err)}`);
  }
}

function cpdfMessage(err: unknown): string {
  if (Array.isArray(err)) {
    const text = (err[2] as { c?: unknown } | undefined)?.c;
    if (typeof text === 'string') return plainMessage(text);
  }
  return err instanceof Error ? err.message : 'unknown error';
}

/**
 * cpdf's message without its OCaml dress: `ERROR: fromMemory: Pdf.PDFError("Failed to read PDF -
 * initial error was\n…\nfinal error was \nPdf.PDFError(\"No /Root entry …\")…")` becomes
 * `No /Root entry …` (the final error: what the repair attempt ended with).
 */
function plainMessage(text: string): string {
  const final = text.split('final error was').at(-1) ?? text;
  const inner = /(?:PDFError|Failure)\(\\?"(.*?)\\?"\)/.exec(final)?.[1];
  const message = inner ?? final.replace(/^ERROR: \w+: /, '');
  return message
    .replace(/\\n|\n/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}
