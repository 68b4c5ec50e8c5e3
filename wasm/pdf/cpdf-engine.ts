// PdfEngine on cpdf (npm `coherentpdf`, OCaml compiled to JS). The named alternative to mupdf:
// much slower, synchronous and non-reentrant (one job per worker), keeps bookmarks on merge.
// Every document must be freed with deletePdf (about 12 MB leaks per job otherwise).

import { createRequire } from 'node:module';
import { ApiError } from '../../src/errors.js';
import type { EncryptOptions, PdfEngine } from './engine.js';
import { checkRangesWithin } from '../../src/shared/page-ranges.js';

type Cpdf = typeof import('coherentpdf');
const cpdf = createRequire(import.meta.url)('coherentpdf') as Cpdf;
type Pdf = ReturnType<Cpdf['fromMemory']>;

export const cpdfEngine: PdfEngine = {
  name: 'cpdf',

  pageCount(pdf) {
    return withDocuments([pdf], ([doc]) => cpdf.pages(doc as Pdf));
  },

  merge(pdfs, sink) {
    return withDocuments(pdfs, (docs) => {
      const merged = call(() => cpdf.merge(docs, false, false));
      try {
        sink(call(() => cpdf.toMemory(merged, false, false)), 0);
        return { pages: cpdf.pages(merged) };
      } finally {
        cpdf.deletePdf(merged);
      }
    });
  },

  split(pdf, ranges, sink) {
    withDocuments([pdf], ([doc]) => {
      checkRangesWithin(ranges, cpdf.pages(doc as Pdf));
      ranges.forEach((range, index) => {
        const part = call(() => cpdf.selectPages(doc as Pdf, cpdf.range(range.first, range.last)));
        try {
          sink(call(() => cpdf.toMemory(part, false, false)), index);
        } finally {
          cpdf.deletePdf(part);
        }
      });
    });
  },

  encrypt(pdf, { userPassword, ownerPassword, algorithm }: EncryptOptions, sink) {
    const method = algorithm === 'aes128' ? cpdf.aes128bittrue : cpdf.aes256bitisotrue;
    withDocuments([pdf], ([doc]) =>
      sink(call(() => cpdf.toMemoryEncrypted(doc as Pdf, method, [], ownerPassword, userPassword, false, false)), 0),
    );
  },
};

function withDocuments<T>(inputs: readonly Uint8Array[], use: (docs: Pdf[]) => T): T {
  const docs: Pdf[] = [];
  try {
    for (const bytes of inputs) docs.push(open(bytes));
    return use(docs);
  } finally {
    for (const doc of docs) cpdf.deletePdf(doc);
  }
}

function open(bytes: Uint8Array): Pdf {
  const doc = call(() => cpdf.fromMemory(bytes, ''), 'INVALID_INPUT');
  if (cpdf.isEncrypted(doc)) {
    cpdf.deletePdf(doc);
    throw new ApiError('PASSWORD_REQUIRED', 'The PDF is encrypted; remove its password first');
  }
  return doc;
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
    if (typeof text === 'string') return text;
  }
  return err instanceof Error ? err.message : 'unknown error';
}
