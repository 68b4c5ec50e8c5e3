// watermark on mupdf: the text as real text (searchable) centred on the page as a viewer shows
// it, turned by `rotation`, under an ExtGState with the given fill opacity — the stamp of
// mupdf-stamp.ts at the centre, with no margin.

import type * as mupdf from 'mupdf';
import type { WatermarkOptions } from '../engine.js';
import { stampPages } from './mupdf-stamp.js';

export function stampWatermark(doc: mupdf.PDFDocument, options: WatermarkOptions): void {
  stampPages(doc, { ...options, position: 'center', margin: 0 }, 'watermark');
}
