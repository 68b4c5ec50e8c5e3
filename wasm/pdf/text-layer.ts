// The invisible text layer of a searchable PDF, written with mupdf onto existing pages: each
// OCR word is drawn in text render mode 3 (neither filled nor stroked) with the glyphless font,
// on its baseline and stretched (Tz) to its box, so selection, search and pdftotext find it
// where the word is seen. The page's own content streams are kept as they are, bracketed by
// q/Q so that a graphics state they leave behind cannot move the layer.

import { deflateSync } from 'node:zlib';
import * as mupdf from 'mupdf';
import type { OcrLine, OcrPageLayout } from '../../core/ocr-layout.js';
import { joinsWithoutSpace } from '../../core/cjk-text.js';
import { addGlyphlessFont, GLYPH_WIDTH } from './glyphless-font.js';

/** Resource name of the layer's font; unusual enough not to meet a page's own fonts. */
const FONT_NAME = 'DocwasmOcrText';

/** [x0, y0, x1, y1] in mupdf's page space: points, origin at the shown page's top left, y down. */
export type PageRect = [number, number, number, number];

/** The OCR layout of an image and the rectangle of the page that image covers (default: the whole page). */
export interface LayerPlacement {
  rect?: PageRect | undefined;
  layout: OcrPageLayout;
}

export class TextLayerWriter {
  private font: mupdf.PDFObject | undefined;
  private brackets: { open: mupdf.PDFObject; close: mupdf.PDFObject } | undefined;

  constructor(private readonly doc: mupdf.PDFDocument) {}

  /** Adds the layer for `placement` to page `index` (0-based); a layout without words adds nothing. */
  addToPage(index: number, placement: LayerPlacement): void {
    const { toUser, bounds } = pageGeometry(this.doc, index);
    const words = layerOperators(placement.rect ?? bounds, placement.layout);
    if (!words) return;
    const content = `q ${toUser.map(num).join(' ')} cm BT 3 Tr\n${words}ET Q\n`;
    const layer = this.doc.addRawStream(deflateSync(content), { Filter: 'FlateDecode' });
    const page = this.doc.findPage(index);
    page.put('Resources', this.resourcesWithFont(page));
    page.put('Contents', this.contentsWith(page, layer));
  }

  private resourcesWithFont(page: mupdf.PDFObject): mupdf.PDFObject {
    this.font ??= addGlyphlessFont(this.doc);
    // Resources may be inherited or shared with other pages: this page gets its own shallow copy.
    const resources = shallowCopy(this.doc, page.getInheritable('Resources'));
    const fonts = shallowCopy(this.doc, resources.get('Font'));
    fonts.put(FONT_NAME, this.font);
    resources.put('Font', fonts);
    return resources;
  }

  private contentsWith(page: mupdf.PDFObject, layer: mupdf.PDFObject): mupdf.PDFObject {
    this.brackets ??= { open: this.doc.addStream('q\n', {}), close: this.doc.addStream('\nQ\n', {}) };
    const contents = this.doc.newArray();
    const existing = page.get('Contents');
    contents.push(this.brackets.open);
    if (existing.isArray()) existing.forEach((stream) => contents.push(stream));
    else if (!existing.isNull()) contents.push(existing);
    contents.push(this.brackets.close);
    contents.push(layer);
    return contents;
  }
}

/** The text operators of every word, in page space; undefined when there is no word. */
function layerOperators(rect: PageRect, layout: OcrPageLayout): string | undefined {
  const scaleX = (rect[2] - rect[0]) / layout.width;
  const scaleY = (rect[3] - rect[1]) / layout.height;
  const toX = (px: number) => rect[0] + px * scaleX;
  const toY = (py: number) => rect[1] + py * scaleY;
  let out = '';
  for (const line of layout.lines) {
    const size = Math.max(1, (line.box[3] - line.box[1]) * scaleY);
    out += `/${FONT_NAME} ${num(size)} Tf\n`;
    line.words.forEach((word, i) => {
      const next = line.words[i + 1];
      const text = next && !joinsWithoutSpace(word.text, next.text) ? `${word.text} ` : word.text;
      // A word reaches to the next one (its space, if any, sits in the gap): tesseract's boxes
      // of CJK words sometimes overlap their neighbours, and overlapping words read out of order.
      const right = next && next.box[0] > word.box[0] ? next.box[0] : word.box[2];
      const width = (right - word.box[0]) * scaleX;
      const units = utf16Hex(text);
      const natural = (units.length / 4) * GLYPH_WIDTH * size;
      if (width <= 0 || natural <= 0) return;
      const x = toX(word.box[0]);
      const y = toY(baselineAt(line, word.box[0]));
      out += `${num((100 * width) / natural)} Tz 1 0 0 -1 ${num(x)} ${num(y)} Tm <${units}> Tj\n`;
    });
  }
  return out === '' ? undefined : out;
}

function baselineAt({ box, baseline }: OcrLine, x: number): number {
  const span = box[2] - box[0];
  const t = span > 0 ? Math.min(1, Math.max(0, (x - box[0]) / span)) : 0;
  return baseline[0] + (baseline[1] - baseline[0]) * t;
}

/**
 * The page's bounds in mupdf's page space (what the OCR'd rendering covered) and the matrix
 * from that space to the page's PDF user space (undoing rotation, crop box and the y flip).
 */
function pageGeometry(doc: mupdf.PDFDocument, index: number): { toUser: mupdf.Matrix; bounds: PageRect } {
  const page = doc.loadPage(index);
  try {
    const [x0, y0, x1, y1] = page.getBounds();
    return { toUser: mupdf.Matrix.invert(page.getTransform()), bounds: [x0, y0, x1, y1] };
  } finally {
    page.destroy();
  }
}

/** A new dictionary with the entries of `dict` (a reference is followed; anything else gives an empty one). */
function shallowCopy(doc: mupdf.PDFDocument, dict: mupdf.PDFObject): mupdf.PDFObject {
  const copy = doc.newDictionary();
  const source = dict.isIndirect() ? dict.resolve() : dict;
  if (source.isDictionary()) source.forEach((value, key) => copy.put(key, value));
  return copy;
}

/** A string's UTF-16 code units as hex digits (a PDF hex string's bytes, UTF-16BE). */
export function utf16Hex(text: string): string {
  let hex = '';
  for (let i = 0; i < text.length; i++) hex += text.charCodeAt(i).toString(16).padStart(4, '0');
  return hex;
}

function num(value: number): string {
  return String(Math.round(value * 100) / 100);
}
