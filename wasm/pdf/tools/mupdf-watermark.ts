// watermark on mupdf: the text as real text (searchable) centred on the page as a viewer shows
// it, under an ExtGState with the given fill opacity. The page's own content is wrapped in q/Q
// so whatever graphics state it leaves behind cannot move or hide the watermark.

import type * as mupdf from 'mupdf';
import type { WatermarkOptions } from '../engine.js';
import { selectedPages } from '../../../src/shared/page-ranges.js';
import { pageRotation } from './mupdf-info.js';
import { pageObjects } from './mupdf-rotate.js';
import { embedText, type EmbeddedText } from './watermark-font.js';

const FONT_NAME = 'DocwasmWatermarkFont';
const STATE_NAME = 'DocwasmWatermarkState';
/** Roughly half the height of capitals, in em: centres the line vertically. */
const HALF_CAP_HEIGHT = 0.35;

export function stampWatermark(doc: mupdf.PDFDocument, options: WatermarkOptions): void {
  const text = embedText(doc, options.text);
  const state = doc.addObject({ Type: doc.newName('ExtGState'), ca: options.opacity, CA: options.opacity });
  const prefix = doc.addStream('q\n', {});
  // Pages of one size and rotation share one stamp stream (a 1,000-page document usually has one).
  const stamps = new Map<string, mupdf.PDFObject>();
  for (const obj of pageObjects(doc, selectedPages(options.ranges, doc.countPages()))) {
    addResources(doc, obj, text.font, state);
    const content = stampContent(obj, text, options);
    let stamp = stamps.get(content);
    if (!stamp) stamps.set(content, (stamp = doc.addStream(content, {})));
    wrapContents(doc, obj, prefix, stamp);
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
  return `Q q /${STATE_NAME} gs BT /${FONT_NAME} ${fontSize} Tf ${cos} ${sin} ${-sin} ${cos} ${tx} ${ty} Tm <${text.glyphs}> Tj ET Q\n`;
}

function wrapContents(doc: mupdf.PDFDocument, page: mupdf.PDFObject, prefix: mupdf.PDFObject, stamp: mupdf.PDFObject): void {
  const contents = page.get('Contents');
  const wrapped = doc.newArray();
  wrapped.push(prefix);
  if (contents.isArray()) contents.forEach((part) => wrapped.push(part));
  else if (!contents.isNull()) wrapped.push(contents);
  wrapped.push(stamp);
  page.put('Contents', wrapped);
}

/** Puts the font and state into the page's resources (a copy when inherited from the tree). */
function addResources(doc: mupdf.PDFDocument, page: mupdf.PDFObject, font: mupdf.PDFObject, state: mupdf.PDFObject): void {
  let resources = page.get('Resources');
  if (!resources.isDictionary()) {
    resources = copyDictionary(doc, page.getInheritable('Resources'));
    page.put('Resources', resources);
  }
  subDictionary(doc, resources, 'Font').put(FONT_NAME, font);
  subDictionary(doc, resources, 'ExtGState').put(STATE_NAME, state);
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

function visibleBox(page: mupdf.PDFObject): [number, number, number, number] {
  for (const key of ['CropBox', 'MediaBox']) {
    const box = page.getInheritable(key);
    if (box.isArray() && box.length === 4) {
      const [a, b, c, d] = [0, 1, 2, 3].map((i) => box.get(i).asNumber()) as [number, number, number, number];
      return [Math.min(a, c), Math.min(b, d), Math.max(a, c), Math.max(b, d)];
    }
  }
  return [0, 0, 612, 792];
}

function round(n: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(n * factor) / factor || 0;
}
