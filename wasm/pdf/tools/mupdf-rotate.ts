// rotate on mupdf: adds to each selected page's /Rotate, normalised to 0–270. The value is
// written on the page itself, since an inherited /Rotate may be shared with unselected pages.

import type * as mupdf from 'mupdf';
import type { RotateOptions } from '../engine.js';
import { selectedPages } from '../../../src/shared/page-ranges.js';
import { pageRotation } from './mupdf-info.js';

export function rotatePages(doc: mupdf.PDFDocument, { degrees, ranges }: RotateOptions): void {
  const count = doc.countPages();
  for (const page of selectedPages(ranges, count)) {
    const obj = doc.findPage(page - 1);
    obj.put('Rotate', normalisedRotation(pageRotation(obj) + degrees));
  }
}

export function normalisedRotation(degrees: number): number {
  return (((Math.round(degrees / 90) * 90) % 360) + 360) % 360;
}
