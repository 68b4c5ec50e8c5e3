// How large each image is drawn: runs every page through a device that records, per image,
// the most pixels any drawing of it needs at the target resolution. Images are matched to
// their objects through mupdf's store, which hands out the same fz_image for the same object
// (pdf_load_image); an image the store has let go of just stays at full size. The images seen
// are held until they are matched: a freed fz_image's address could otherwise be handed to
// another image, which would then take the first one's size.

import * as mupdf from 'mupdf';

export interface PixelNeed {
  width: number;
  height: number;
}

/** Pixels needed per image object number, for drawings at `dpi`. */
export function pixelsNeeded(doc: mupdf.PDFDocument, dpi: number): Map<number, PixelNeed> {
  const byPointer = new Map<number, PixelNeed>();
  const held = new Map<number, mupdf.Image>();
  const record = (image: mupdf.Image, ctm: mupdf.Matrix) => {
    const need = drawnPixels(ctm, dpi);
    const known = byPointer.get(image.pointer);
    byPointer.set(image.pointer, known ? { width: Math.max(known.width, need.width), height: Math.max(known.height, need.height) } : need);
    if (held.has(image.pointer)) image.destroy();
    else held.set(image.pointer, image);
  };
  const device = new mupdf.Device({ fillImage: record, fillImageMask: record, clipImageMask: record });
  try {
    for (let i = 0; i < doc.countPages(); i++) runPage(doc, i, device);
  } finally {
    device.close();
    device.destroy();
  }
  try {
    return byObject(doc, byPointer);
  } finally {
    for (const image of held.values()) image.destroy();
  }
}

function runPage(doc: mupdf.PDFDocument, index: number, device: mupdf.Device): void {
  const page = doc.loadPage(index);
  try {
    page.run(device, mupdf.Matrix.identity);
  } finally {
    page.destroy();
  }
}

/** An image is drawn on the unit square: the matrix's column lengths are its size in points. */
function drawnPixels([a, b, c, d]: mupdf.Matrix, dpi: number): PixelNeed {
  return { width: (Math.hypot(a, b) * dpi) / 72, height: (Math.hypot(c, d) * dpi) / 72 };
}

function byObject(doc: mupdf.PDFDocument, byPointer: Map<number, PixelNeed>): Map<number, PixelNeed> {
  const needs = new Map<number, PixelNeed>();
  for (const ref of imageObjects(doc)) {
    const image = doc.loadImage(ref);
    const need = byPointer.get(image.pointer);
    image.destroy();
    if (need) needs.set(ref.asIndirect(), need);
  }
  return needs;
}

/** A reference to every image XObject of the document. */
export function* imageObjects(doc: mupdf.PDFDocument): Generator<mupdf.PDFObject> {
  for (let num = 1; num < doc.countObjects(); num++) {
    const ref = doc.newIndirect(num);
    // isStream answers for the reference; the resolved dictionary does not know it has a stream.
    if (ref.isStream() && isName(ref.get('Subtype'), 'Image')) yield ref;
  }
}

export function isName(obj: mupdf.PDFObject, name: string): boolean {
  return obj.isName() && obj.asName() === name;
}
