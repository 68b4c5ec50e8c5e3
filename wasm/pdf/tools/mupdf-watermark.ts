// watermark on mupdf: the text as real text (searchable) centred on the page as a viewer shows
// it, under an ExtGState with the given fill opacity, drawn above the page (page-overlay.ts).

import type * as mupdf from 'mupdf';
import type { WatermarkOptions } from '../engine.js';
import { selectedPages } from '../../../src/shared/page-ranges.js';
import { pageRotation } from './mupdf-info.js';
import { pageObjects } from './mupdf-rotate.js';
import { embedText, type EmbeddedText } from './watermark-font.js';
import { addPageResource, drawAbove, round, visibleBox } from './page-overlay.js';

const FONT_NAME = 'DocwasmWatermarkFont';
const STATE_NAME = 'DocwasmWatermarkState';
/** Roughly half the height of capitals, in em: centres the line vertically. */
const HALF_CAP_HEIGHT = 0.35;

export function stampWatermark(doc: mupdf.PDFDocument, options: WatermarkOptions): void {
  const text = embedText(doc, options.text);
  const state = doc.addObject({ Type: doc.newName('ExtGState'), ca: options.opacity, CA: options.opacity });
  // Pages of one size and rotation share one stamp stream (a 1,000-page document usually has one).
  const stamps = new Map<string, mupdf.PDFObject>();
  for (const obj of pageObjects(doc, selectedPages(options.ranges, doc.countPages()))) {
    addPageResource(doc, obj, 'Font', FONT_NAME, text.font);
    addPageResource(doc, obj, 'ExtGState', STATE_NAME, state);
    const content = stampContent(obj, text, options);
    let stamp = stamps.get(content);
    if (!stamp) stamps.set(content, (stamp = doc.addStream(content, {})));
    drawAbove(doc, obj, stamp);
  }
}

function stampContent(page: mupdf.PDFObject, text: EmbeddedText, { fontSize, rotation }: WatermarkOptions): string {
  const [x0, y0, x1, y1] = visibleBox(page);
  // The viewer turns the page clockwise by /Rotate: turn the text further to compensate.
  const angle = ((rotation + pageRotation(page)) * Math.PI) / 180;
  const [cos, sin] = [Math.cos(angle), Math.sin(angle)].map((n) => round(n, 6)) as [number, number];
  const [cx, cy] = [(x0 + x1) / 2, (y0 + y1) / 2];
  const [dx, dy] = [(-text.width * fontSize) / 2, -HALF_CAP_HEIGHT * fontSize];
  const tx = round(cx + dx * cos - dy * sin, 3);
  const ty = round(cy + dx * sin + dy * cos, 3);
  return `q /${STATE_NAME} gs BT /${FONT_NAME} ${fontSize} Tf ${cos} ${sin} ${-sin} ${cos} ${tx} ${ty} Tm <${text.glyphs}> Tj ET Q\n`;
}

