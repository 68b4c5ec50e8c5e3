// Drawing above a page's content (watermark, stamp, redaction boxes): the page's own content is
// wrapped in q/Q so whatever graphics state it leaves behind cannot move or hide what is drawn
// after it — as many q/Q as it leaves open or closes beyond its own, and an ET for a text object
// it leaves open, so even a page of unbalanced operators gives the overlay the default state —
// and the resources the overlay names are put into the page's own dictionary, under names the
// page does not already use for something else.

import type * as mupdf from 'mupdf';
import { openState } from './content-strings.js';

/** The streams that open and close wrapped pages' content, by their text, each added to a document once. */
const wrappers = new WeakMap<mupdf.PDFDocument, Map<string, mupdf.PDFObject>>();

/** Appends `overlay` (a content stream of balanced operators) after the page's content, in the default graphics state. */
export function drawAbove(doc: mupdf.PDFDocument, page: mupdf.PDFObject, overlay: mupdf.PDFObject): void {
  const contents = page.get('Contents');
  const parts: mupdf.PDFObject[] = [];
  if (contents.isArray()) contents.forEach((part) => parts.push(part));
  else if (!contents.isNull()) parts.push(contents);
  const left = openState(contentBytes(parts));
  const wrapped = doc.newArray();
  wrapped.push(wrapperStream(doc, 'q\n'.repeat(1 + left.extraRestores)));
  for (const part of parts) wrapped.push(part);
  wrapped.push(wrapperStream(doc, `${left.inText ? 'ET\n' : ''}${'Q\n'.repeat(1 + left.saves)}`));
  wrapped.push(overlay);
  page.put('Contents', wrapped);
}

function wrapperStream(doc: mupdf.PDFDocument, text: string): mupdf.PDFObject {
  let streams = wrappers.get(doc);
  if (!streams) wrappers.set(doc, (streams = new Map()));
  let stream = streams.get(text);
  if (!stream) streams.set(text, (stream = doc.addStream(text, {})));
  return stream;
}

/** The page's content streams decoded and joined (a viewer reads them as one); a part mupdf cannot decode counts as empty. */
function contentBytes(parts: readonly mupdf.PDFObject[]): Uint8Array {
  const chunks = parts.map((part) => {
    try {
      return part.isStream() ? part.readStream().asUint8Array() : new Uint8Array();
    } catch {
      return new Uint8Array();
    }
  });
  return Buffer.concat(chunks.flatMap((chunk) => [chunk, Buffer.from('\n')]));
}

/**
 * Puts `value` under `category` (Font, ExtGState, XObject) of the page's resources (a copy when
 * inherited from the tree) as `name`, or `name1`, `name2`… when the page already names
 * something else so (its own font, an earlier watermark's); returns the name used.
 */
export function addPageResource(doc: mupdf.PDFDocument, page: mupdf.PDFObject, category: string, name: string, value: mupdf.PDFObject): string {
  let resources = page.get('Resources');
  if (!resources.isDictionary()) {
    resources = copyDictionary(doc, page.getInheritable('Resources'));
    page.put('Resources', resources);
  }
  const names = subDictionary(doc, resources, category);
  for (let n = 0; ; n++) {
    const candidate = n === 0 ? name : `${name}${n}`;
    const existing = names.get(candidate);
    if (existing.isNull() || (existing.isIndirect() && value.isIndirect() && existing.asIndirect() === value.asIndirect())) {
      names.put(candidate, value);
      return candidate;
    }
  }
}

function subDictionary(doc: mupdf.PDFDocument, parent: mupdf.PDFObject, key: string): mupdf.PDFObject {
  const existing = parent.get(key);
  if (existing.isDictionary()) return existing;
  const created = doc.newDictionary();
  parent.put(key, created);
  return created;
}

function copyDictionary(doc: mupdf.PDFDocument, source: mupdf.PDFObject): mupdf.PDFObject {
  const copy = doc.newDictionary();
  if (source.isDictionary()) source.forEach((value, key) => copy.put(key, value));
  return copy;
}

export function visibleBox(page: mupdf.PDFObject): [number, number, number, number] {
  for (const key of ['CropBox', 'MediaBox']) {
    const box = page.getInheritable(key);
    if (box.isArray() && box.length === 4) {
      const [a, b, c, d] = [0, 1, 2, 3].map((i) => box.get(i).asNumber()) as [number, number, number, number];
      return [Math.min(a, c), Math.min(b, d), Math.max(a, c), Math.max(b, d)];
    }
  }
  return [0, 0, 612, 792];
}

export function round(n: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(n * factor) / factor || 0;
}
