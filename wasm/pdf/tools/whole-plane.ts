// A page seen without its boxes: text drawn outside the MediaBox (or CropBox) is still in the
// content stream, and pdftotext -nopgbrk or a grep finds it, but mupdf's text extraction keeps to
// the page. For the time of `run`, the page's boxes are widened to a plane no writer goes past,
// then put back as they were (inherited boxes stay inherited).

import type * as mupdf from 'mupdf';

/** Half the side of the plane, in points (7 km): float32 coordinates still place a glyph to 1/16 pt. */
const REACH = 1_000_000;
const BOXES = ['MediaBox', 'CropBox', 'BleedBox', 'TrimBox', 'ArtBox'] as const;

export function onWholePlane<T>(doc: mupdf.PDFDocument, index: number, run: (page: mupdf.PDFPage) => T): T {
  const dict = doc.findPage(index);
  const saved = BOXES.map((key) => [key, numbersOf(dict.get(key))] as const);
  for (const key of BOXES) dict.delete(key);
  dict.put('MediaBox', [-REACH, -REACH, REACH, REACH]);
  const page = doc.loadPage(index);
  try {
    return run(page);
  } finally {
    page.destroy();
    for (const [key, box] of saved) {
      if (box) dict.put(key, box);
      else dict.delete(key);
    }
  }
}

function numbersOf(box: mupdf.PDFObject): number[] | null {
  if (!box.isArray()) return null;
  return Array.from({ length: box.length }, (_, i) => box.get(i).asNumber());
}
