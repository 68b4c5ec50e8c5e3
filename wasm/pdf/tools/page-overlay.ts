// Drawing above a page's content (watermark, stamp, redaction boxes): the page's own content is
// wrapped in q/Q so whatever graphics state it leaves behind cannot move or hide what is drawn
// after it, and the resources the overlay names are put into the page's own dictionary.

import type * as mupdf from 'mupdf';

/** The `q` and `Q` streams around every wrapped page's content, one pair per document. */
const wrappers = new WeakMap<mupdf.PDFDocument, { open: mupdf.PDFObject; close: mupdf.PDFObject }>();

/** Appends `overlay` (a content stream of balanced operators) after the page's content, in the default graphics state. */
export function drawAbove(doc: mupdf.PDFDocument, page: mupdf.PDFObject, overlay: mupdf.PDFObject): void {
  let wrapper = wrappers.get(doc);
  if (!wrapper) wrappers.set(doc, (wrapper = { open: doc.addStream('q\n', {}), close: doc.addStream('Q\n', {}) }));
  const contents = page.get('Contents');
  const wrapped = doc.newArray();
  wrapped.push(wrapper.open);
  if (contents.isArray()) contents.forEach((part) => wrapped.push(part));
  else if (!contents.isNull()) wrapped.push(contents);
  wrapped.push(wrapper.close);
  wrapped.push(overlay);
  page.put('Contents', wrapped);
}

/** Puts `value` under `category` (Font, ExtGState, XObject) of the page's resources (a copy when inherited from the tree). */
export function addPageResource(doc: mupdf.PDFDocument, page: mupdf.PDFObject, category: string, name: string, value: mupdf.PDFObject): void {
  let resources = page.get('Resources');
  if (!resources.isDictionary()) {
    resources = copyDictionary(doc, page.getInheritable('Resources'));
    page.put('Resources', resources);
  }
  subDictionary(doc, resources, category).put(name, value);
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
