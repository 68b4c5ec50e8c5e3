// The safety net of redaction: the saved output is opened again and read whole — every object's
// strings (each decoding), names and keys, every stream but images, fonts and colour profiles
// (decoded, read as Latin-1, UTF-8, UTF-16 either way and with XML references resolved; content
// streams by their string tokens, since their numbers are not text), and the text of every page
// and annotation on the whole plane, off-page text included. A match found anywhere fails the
// request: nothing is written rather than a file that still holds what was to be removed.

import * as mupdf from 'mupdf';
import { ApiError } from '../../../core/errors.js';
import { findMatches, type TextMatcher } from '../../../core/redact-patterns.js';
import { contentStrings } from '../tools/content-strings.js';
import { isPdfVocabulary } from '../tools/pdf-vocabulary.js';
import { readingsOf } from '../tools/text-readings.js';
import { onWholePlane } from '../tools/whole-plane.js';
import { showEveryLayer } from './every-layer.js';

/** Throws INVALID_INPUT naming where a match remains in `pdf`. */
export function assertNothingLeft(pdf: Uint8Array, matchers: readonly TextMatcher[]): void {
  if (matchers.length === 0) return;
  const matches = (text: string) => findMatches(text, matchers).length > 0;
  const opened = new mupdf.PDFDocument(pdf);
  // Pages are read with every layer shown: text in a layer that is off (in a subset font, no readable string) is still there.
  const shown = showEveryLayer(opened);
  const doc = shown.doc;
  try {
    const where = objectHolding(doc, matches) ?? pageHolding(doc, matches);
    if (where) {
      throw new ApiError(
        'INVALID_INPUT',
        `A match could not be removed from ${where} (a place or an encoding this redaction cannot rewrite); nothing was written`,
      );
    }
  } finally {
    shown.close();
    opened.destroy();
  }
}

function objectHolding(doc: mupdf.PDFDocument, matches: (text: string) => boolean): string | null {
  const contentStreams = new Set<number>();
  for (let index = 0; index < doc.countPages(); index++) {
    const contents = doc.findPage(index).get('Contents');
    for (const part of contents.isArray() ? Array.from({ length: contents.length }, (_, i) => contents.get(i)) : [contents]) {
      if (part.isIndirect()) contentStreams.add(part.asIndirect());
    }
  }
  for (let num = 1; num < doc.countObjects(); num++) {
    const ref = doc.newIndirect(num);
    if (valueHolds(ref.resolve(), matches)) return `object ${num}`;
    if (ref.isStream() && streamHolds(ref, contentStreams.has(num), matches)) return `the stream of object ${num}`;
  }
  return valueHolds(doc.getTrailer(), matches) ? 'the trailer' : null;
}

function valueHolds(value: mupdf.PDFObject, matches: (text: string) => boolean): boolean {
  if (value.isString()) return matches(value.asString()) || readingsOf(value.asByteString()).some(matches);
  // Names and keys of PDF's own vocabulary are syntax: /Type /Page holds no copy of "Page".
  const isText = (name: string) => matches(name) && !isPdfVocabulary(value._doc, name);
  if (value.isName()) return isText(value.asName());
  if (!value.isDictionary() && !value.isArray()) return false;
  let found = false;
  value.forEach((child, key) => {
    if (found) return;
    found = (typeof key === 'string' && isText(key)) || (!child.isIndirect() && valueHolds(child, matches));
  });
  return found;
}

const BINARY_SUBTYPES = new Set(['Image', 'Type1C', 'CIDFontType0C', 'OpenType']);

function streamHolds(stream: mupdf.PDFObject, isPageContent: boolean, matches: (text: string) => boolean): boolean {
  const subtype = stream.get('Subtype');
  const name = subtype.isName() ? subtype.asName() : '';
  // Pixels, font programs and ICC profiles are not text; a font's name is checked with its dictionary.
  if (BINARY_SUBTYPES.has(name) || !stream.get('Length1').isNull() || !stream.get('N').isNull()) return false;
  const data = stream.readStream().asUint8Array();
  if (isPageContent || name === 'Form') return contentStrings(data).some((token) => readingsOf(token.bytes).some(matches));
  return readingsOf(data).some(matches);
}

function pageHolding(doc: mupdf.PDFDocument, matches: (text: string) => boolean): string | null {
  for (let index = 0; index < doc.countPages(); index++) {
    const found = onWholePlane(doc, index, (page) => {
      const stext = page.toStructuredText('preserve-whitespace');
      try {
        return matches(stext.asText());
      } finally {
        stext.destroy();
      }
    });
    if (found) return `the text of page ${index + 1}`;
  }
  return null;
}
