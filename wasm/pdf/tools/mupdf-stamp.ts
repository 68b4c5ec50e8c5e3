// Stamps on mupdf: a line of text (as real, searchable text, CJK included) or an image, drawn
// above each selected page's content at one of nine positions of the page as a viewer shows it,
// turned by `rotation` about its own centre, under an ExtGState with the given opacity. The
// watermark is the stamp at the centre with no margin (mupdf-watermark.ts).

import * as mupdf from 'mupdf';
import { ApiError } from '../../../core/errors.js';
import type { StampOptions } from '../engine.js';
import type { StampPosition } from '../../../core/stamp.js';
import { selectedPages } from '../../../core/page-ranges.js';
import { pageRotation } from './mupdf-info.js';
import { pageObjects } from './mupdf-rotate.js';
import { embedText } from './watermark-font.js';
import { addPageResource, drawAbove, round, visibleBox } from './page-overlay.js';
import { hexTextString } from './content-strings.js';

const FONT_NAME = 'DocwasmStampFont';
const IMAGE_NAME = 'DocwasmStampImage';
const STATE_NAME = 'DocwasmStampState';
/** Height of a text line's box, in em: about the height of capitals, so the line looks centred. */
const CAP_HEIGHT = 0.7;

/** What a stamp draws: its size in points and its operators for a box of that size at the origin. */
interface Mark {
  width: number;
  height: number;
  resource: { category: 'Font' | 'XObject'; name: string; value: mupdf.PDFObject };
  /** Content operators, given the matrix `a b c d e f` that places the box and the name the page gives the resource. */
  draw: (matrix: string, name: string) => string;
}

export function stampPages(doc: mupdf.PDFDocument, options: StampOptions, use = 'stamp'): void {
  const mark = options.image ? imageMark(doc, options.image, options) : textMark(doc, options.text ?? '', options.fontSize, use);
  const state = doc.addObject({ Type: doc.newName('ExtGState'), ca: options.opacity, CA: options.opacity });
  // Pages of one size and rotation share one stream (a 1,000-page document usually has one).
  const streams = new Map<string, mupdf.PDFObject>();
  for (const page of pageObjects(doc, selectedPages(options.ranges, doc.countPages()))) {
    const name = addPageResource(doc, page, mark.resource.category, mark.resource.name, mark.resource.value);
    const stateName = addPageResource(doc, page, 'ExtGState', STATE_NAME, state);
    const content = `q /${stateName} gs ${mark.draw(placement(page, mark, options), name)} Q\n`;
    let stream = streams.get(content);
    if (!stream) streams.set(content, (stream = doc.addStream(content, {})));
    drawAbove(doc, page, stream);
  }
}

function textMark(doc: mupdf.PDFDocument, text: string, fontSize: number, use: string): Mark {
  const embedded = embedText(doc, text, use);
  return {
    width: embedded.width * fontSize,
    height: CAP_HEIGHT * fontSize,
    resource: { category: 'Font', name: FONT_NAME, value: embedded.font },
    // Said as ActualText: text extractors (pdftotext) otherwise read a turned line's glyphs as
    // scattered pieces ("CO", "PY"), on any page; with it they read the line whole.
    draw: (matrix, name) => `/Span <</ActualText ${hexTextString(text)}>> BDC BT /${name} ${fontSize} Tf ${matrix} Tm <${embedded.glyphs}> Tj ET EMC`,
  };
}

/** The image at `width` points (its own size at its resolution when absent), the height following its aspect ratio. */
function imageMark(doc: mupdf.PDFDocument, bytes: Uint8Array, { imageWidth: width, maxImagePixels = Infinity }: StampOptions): Mark {
  const image = loadImage(bytes);
  try {
    if (image.getWidth() * image.getHeight() > maxImagePixels)
      throw new ApiError('TOO_LARGE', `The stamp image has ${image.getWidth()} x ${image.getHeight()} pixels, over the limit of ${maxImagePixels}`);
    const natural = (image.getWidth() * 72) / (image.getXResolution() || 96);
    const drawnWidth = width ?? natural;
    const drawnHeight = (drawnWidth * image.getHeight()) / image.getWidth();
    return {
      width: drawnWidth,
      height: drawnHeight,
      resource: { category: 'XObject', name: IMAGE_NAME, value: doc.addImage(image) },
      // An image fills the unit square: scale it to the box first.
      draw: (matrix, name) => `${matrix} cm ${round(drawnWidth, 3)} 0 0 ${round(drawnHeight, 3)} 0 0 cm /${name} Do`,
    };
  } finally {
    image.destroy();
  }
}

function loadImage(bytes: Uint8Array): mupdf.Image {
  try {
    return new mupdf.Image(bytes);
  } catch (err) {
    throw new ApiError('INVALID_INPUT', `The stamp image cannot be read (${(err as Error).message})`);
  }
}

/**
 * The matrix that puts the box's bottom-left corner where the position wants it, turned by
 * `rotation` about the box's centre. Positions and margins are of the page as a viewer shows
 * it (after /Rotate); the rotated box's bounding box keeps the margin from the page edges.
 */
function placement(page: mupdf.PDFObject, mark: Mark, { position, margin, rotation }: StampOptions): string {
  const turn = pageRotation(page);
  const [x0, y0, x1, y1] = visibleBox(page);
  const [viewWidth, viewHeight] = turn % 180 === 0 ? [x1 - x0, y1 - y0] : [y1 - y0, x1 - x0];
  const angle = (rotation * Math.PI) / 180;
  const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
  const spanX = Math.abs(mark.width * cos) + Math.abs(mark.height * sin);
  const spanY = Math.abs(mark.width * sin) + Math.abs(mark.height * cos);
  const [column, row] = ANCHORS[position];
  const centreU = column === 0 ? margin + spanX / 2 : column === 2 ? viewWidth - margin - spanX / 2 : viewWidth / 2;
  const centreV = row === 0 ? margin + spanY / 2 : row === 2 ? viewHeight - margin - spanY / 2 : viewHeight / 2;
  // The box's origin, in the viewer's space: its centre moved back by half the (turned) box.
  const u = centreU - (mark.width / 2) * cos + (mark.height / 2) * sin;
  const v = centreV - (mark.width / 2) * sin - (mark.height / 2) * cos;
  const [x, y] = toPdfSpace(u, v, turn, [x0, y0, x1, y1]);
  // The viewer turns the page clockwise by /Rotate: turn the mark further to compensate.
  const total = ((rotation + turn) * Math.PI) / 180;
  const [c, s] = [Math.cos(total), Math.sin(total)].map((n) => round(n, 6)) as [number, number];
  return `${c} ${s} ${-s} ${c} ${round(x, 3)} ${round(y, 3)}`;
}

/** [column, row] of each position: 0 left/bottom, 1 centre, 2 right/top. */
const ANCHORS: Record<StampPosition, [number, number]> = {
  'top-left': [0, 2],
  top: [1, 2],
  'top-right': [2, 2],
  left: [0, 1],
  center: [1, 1],
  right: [2, 1],
  'bottom-left': [0, 0],
  bottom: [1, 0],
  'bottom-right': [2, 0],
};

/** A point of the page as the viewer shows it (origin bottom-left) in the page's own space. */
function toPdfSpace(u: number, v: number, turn: number, [x0, y0, x1, y1]: [number, number, number, number]): [number, number] {
  switch (((turn % 360) + 360) % 360) {
    case 90:
      return [x1 - v, y0 + u];
    case 180:
      return [x1 - u, y1 - v];
    case 270:
      return [x0 + v, y1 - u];
    default:
      return [x0 + u, y0 + v];
  }
}
