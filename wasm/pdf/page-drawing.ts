// What a PDF page draws besides the text mupdf's structured text gives: the horizontal and
// vertical lines (strokes, thin filled rectangles, edges of filled boxes) that rule tables, and
// the colour each run of text is filled in (a heading is often set apart by colour alone: a CJK
// font without a bold face). One pass of the page through a mupdf Device with callbacks.
//
// Bounded: a page whose content streams (its own and its forms', decompressed) pass
// MAX_CONTENT_BYTES is a drawing, not a page of tables, and is not run a second time (its
// structured text already cost one interpretation: 1e6 tiny paths take mupdf about a second).
// Below that, every path and text object costs a call from WebAssembly into JavaScript, so past
// MAX_PATHS paths (or MAX_SEGMENTS segments) the rulings are dropped and the callbacks removed —
// what is left of the run is mupdf's own interpretation, with no JavaScript per path (a small
// form drawn many times). The same holds for text objects past MAX_TEXTS.

import * as mupdf from 'mupdf';
import type { PageDrawing, Ruling, TextPaint } from '../read/pdf-grid.js';
import type { Pen } from '../read/pdf-grid-geometry.js';

export const MAX_CONTENT_BYTES = 2 * 1024 * 1024;
export const MAX_PATHS = 20_000;
const MAX_SEGMENTS = 60_000;
const MAX_TEXTS = 20_000;
/** A filled rectangle this thin (points) is a line. */
const THIN = 3;
/** Tolerance (points) for a segment to count as horizontal or vertical. */
const AXIS = 0.5;

type Point = [number, number];
type Matrix = mupdf.Matrix;

/** The device callbacks used here; optional so they can be taken off once a cap is reached. */
interface Callbacks {
  fillPath?: (path: mupdf.Path, evenOdd: boolean, ctm: Matrix, colorspace: mupdf.ColorSpace, color: number[], alpha: number) => void;
  strokePath?: (path: mupdf.Path, stroke: mupdf.StrokeState, ctm: Matrix, colorspace: mupdf.ColorSpace, color: number[], alpha: number) => void;
  fillText?: (text: mupdf.Text, ctm: Matrix, colorspace: mupdf.ColorSpace, color: number[], alpha: number) => void;
}

export interface DrawingStats {
  /** Paths handed to JavaScript (at most MAX_PATHS + 1). */
  paths: number;
  /** The page drew more than the caps allow: its rulings were dropped. */
  overflow: boolean;
}

/** The page's rulings and text colours, in the coordinates of its structured text. */
export function pageDrawing(page: mupdf.PDFPage, stats?: DrawingStats): PageDrawing {
  if (contentBytes(page.getObject(), MAX_CONTENT_BYTES) > MAX_CONTENT_BYTES) {
    if (stats) Object.assign(stats, { paths: 0, overflow: true });
    return { rulings: [], paints: [] };
  }
  const [x0, y0, x1, y1] = page.getBounds();
  const pageArea = (x1 - x0) * (y1 - y0);
  const rulings: Ruling[] = [];
  const paints: TextPaint[] = [];
  let paths = 0;
  let segments = 0;
  let overflow = false;
  const callbacks: Callbacks = {};
  const countPath = (path: mupdf.Path): Point[][] | undefined => {
    if (++paths > MAX_PATHS) {
      overflow = true;
      delete callbacks.fillPath;
      delete callbacks.strokePath;
      return undefined;
    }
    const subpaths = walkPath(path, MAX_SEGMENTS - segments);
    segments += subpaths.reduce((n, s) => n + s.length, 0);
    if (segments >= MAX_SEGMENTS) overflow = true;
    return subpaths;
  };
  callbacks.fillPath = (path, _evenOdd, ctm, colorspace, color, alpha) => {
    const subpaths = countPath(path);
    path.destroy();
    const ink = subpaths && alpha >= 0.1 && !isWhite(color) ? colorKey(colorspace, color) : undefined;
    colorspace.destroy();
    if (!subpaths || !ink) return;
    for (const points of subpaths)
      rulings.push(
        ...filledRulings(
          points.map((p) => apply(ctm, p)),
          pageArea,
          ink,
        ),
      );
  };
  callbacks.strokePath = (path, stroke, ctm, colorspace, color, alpha) => {
    const subpaths = countPath(path);
    path.destroy();
    const weight = stroke.getLineWidth() * Math.sqrt(Math.abs(ctm[0] * ctm[3] - ctm[1] * ctm[2]));
    stroke.destroy();
    const pen = subpaths && alpha >= 0.1 && !isWhite(color) ? { weight, color: colorKey(colorspace, color) } : undefined;
    colorspace.destroy();
    if (!subpaths || !pen) return;
    for (const points of subpaths)
      rulings.push(
        ...strokedRulings(
          points.map((p) => apply(ctm, p)),
          pen,
        ),
      );
  };
  // Bounds of a text object in C, one call: walking its spans from JavaScript costs a call per glyph.
  const unstroked = new mupdf.StrokeState({ lineCap: 'Butt', lineJoin: 'Miter', lineWidth: 0, miterLimit: 10 });
  callbacks.fillText = (text, ctm, colorspace, color) => {
    const [left, top, right, bottom] = text.getBounds(unstroked, ctm);
    paints.push({ left, top, right, bottom, color: colorKey(colorspace, color) });
    colorspace.destroy();
    text.destroy();
    if (paints.length >= MAX_TEXTS) delete callbacks.fillText;
  };
  const device = new mupdf.Device(callbacks);
  try {
    page.run(device, mupdf.Matrix.identity);
    device.close();
  } finally {
    device.destroy();
    unstroked.destroy();
  }
  if (stats) Object.assign(stats, { paths, overflow });
  return { rulings: overflow ? [] : rulings, paints };
}

/** The path's subpaths as lists of points; curves end a straight run (they rule nothing). */
function walkPath(path: mupdf.Path, budget: number): Point[][] {
  const subpaths: Point[][] = [];
  let current: Point[] = [];
  let count = 0;
  const start = (x: number, y: number) => {
    if (current.length > 1) subpaths.push(current);
    current = [[x, y]];
  };
  const walker: {
    moveTo?: (x: number, y: number) => void;
    lineTo?: (x: number, y: number) => void;
    curveTo?: (x1: number, y1: number, x2: number, y2: number, x3: number, y3: number) => void;
    closePath?: () => void;
  } = {
    moveTo: start,
    lineTo: (x, y) => {
      current.push([x, y]);
      if (++count >= budget) {
        delete walker.lineTo; // the rest of a huge path costs no JavaScript
        delete walker.moveTo;
        delete walker.curveTo;
        delete walker.closePath;
      }
    },
    curveTo: (_x1, _y1, _x2, _y2, x3, y3) => start(x3, y3),
    closePath: () => {
      const first = current[0];
      if (first && current.length > 1) current.push(first);
    },
  };
  path.walk(walker);
  if (current.length > 1) subpaths.push(current);
  return subpaths;
}

const apply = (m: Matrix, [x, y]: Point): Point => [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];

/** Each horizontal or vertical segment of a stroked line, drawn with `pen`. */
function strokedRulings(points: readonly Point[], pen: Pen): Ruling[] {
  const out: Ruling[] = [];
  for (let i = 1; i < points.length; i++) {
    const ruling = axisSegment(points[i - 1] as Point, points[i] as Point);
    if (ruling) out.push({ ...ruling, pen });
  }
  return out;
}

function axisSegment([ax, ay]: Point, [bx, by]: Point): Ruling | undefined {
  if (Math.abs(ay - by) <= AXIS && Math.abs(ax - bx) > AXIS) return { x0: Math.min(ax, bx), x1: Math.max(ax, bx), y0: (ay + by) / 2, y1: (ay + by) / 2 };
  if (Math.abs(ax - bx) <= AXIS && Math.abs(ay - by) > AXIS) return { x0: (ax + bx) / 2, x1: (ax + bx) / 2, y0: Math.min(ay, by), y1: Math.max(ay, by) };
  return undefined;
}

/**
 * A filled axis-aligned rectangle: a thin one is a line along its middle (a border drawn as a
 * rectangle, as wide as it is thin, in `color`), a box its four edges (a shaded cell or header
 * band: no line is drawn there). Boxes over half the page (backgrounds) and other shapes rule nothing.
 */
function filledRulings(points: readonly Point[], pageArea: number, color: string): Ruling[] {
  if (points.length < 4 || points.length > 6) return [];
  for (let i = 1; i < points.length; i++)
    if (!axisSegment(points[i - 1] as Point, points[i] as Point) && !samePoint(points[i - 1] as Point, points[i] as Point)) return [];
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const [left, right, top, bottom] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const width = right - left;
  const height = bottom - top;
  if (width <= THIN && height <= THIN) return [];
  if (height <= THIN) return [{ x0: left, x1: right, y0: (top + bottom) / 2, y1: (top + bottom) / 2, pen: { weight: height, color } }];
  if (width <= THIN) return [{ x0: (left + right) / 2, x1: (left + right) / 2, y0: top, y1: bottom, pen: { weight: width, color } }];
  if (width * height > pageArea / 2) return [];
  return [
    { x0: left, x1: right, y0: top, y1: top },
    { x0: left, x1: right, y0: bottom, y1: bottom },
    { x0: left, x1: left, y0: top, y1: bottom },
    { x0: right, x1: right, y0: top, y1: bottom },
  ];
}

const samePoint = ([ax, ay]: Point, [bx, by]: Point) => Math.abs(ax - bx) <= AXIS && Math.abs(ay - by) <= AXIS;

/** White (or no) paint on a white page draws nothing visible. */
function isWhite(color: readonly number[]): boolean {
  if (color.length === 4) return color.every((c) => c < 0.05);
  return color.length > 0 && color.every((c) => c > 0.95);
}

/** A colour as a key: RGB to two decimals (gray and CMYK turned into RGB). */
function colorKey(colorspace: mupdf.ColorSpace, color: readonly number[]): string {
  let rgb: number[] = [...color];
  if (colorspace.isGray() || color.length === 1) rgb = [color[0] ?? 0, color[0] ?? 0, color[0] ?? 0];
  else if (colorspace.isCMYK() || color.length === 4) {
    const [c = 0, m = 0, y = 0, k = 0] = color;
    rgb = [(1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k)];
  }
  return rgb
    .slice(0, 3)
    .map((v) => v.toFixed(2))
    .join(',');
}

/**
 * Decompressed bytes of the page's content streams and of the forms its resources name (each
 * counted once), counting stopped once past `limit`. Images are not read.
 */
function contentBytes(page: mupdf.PDFObject, limit: number): number {
  let total = 0;
  const seen = new Set<number>();
  const streams = (obj: mupdf.PDFObject, depth: number): void => {
    if (total > limit || depth > 8) return;
    if (obj.isIndirect()) {
      if (seen.has(obj.asIndirect())) return;
      seen.add(obj.asIndirect());
    }
    const value = present(obj);
    if (!value) return;
    if (value.isArray()) {
      for (let i = 0; i < value.length && total <= limit; i++) streams(value.get(i), depth + 1);
      return;
    }
    // A stream is known and read through its reference (mupdf loads streams by object number).
    if (!obj.isIndirect() || !obj.isStream()) return;
    // Compressed past the limit already: no need to decompress it to know.
    const stored = present(value.get('Length'));
    if (stored?.isNumber() && stored.asNumber() > limit) {
      total += stored.asNumber();
      return;
    }
    const buffer = obj.readStream();
    total += buffer.getLength();
    buffer.destroy();
    forms(value, depth + 1);
  };
  const forms = (owner: mupdf.PDFObject, depth: number): void => {
    const named = present(present(owner.get('Resources'))?.get('XObject'));
    if (!named?.isDictionary()) return;
    named.forEach((xobject) => {
      const form = present(xobject);
      if (total <= limit && xobject.isStream() && form?.get('Subtype').asName() === 'Form') streams(xobject, depth);
    });
  };
  streams(page.get('Contents'), 0);
  forms(page, 0);
  return total;
}

/** The object, indirect references resolved; undefined for a missing key or null. */
const present = (obj: mupdf.PDFObject | undefined): mupdf.PDFObject | undefined => (obj && !obj.isNull() ? obj.resolve() : undefined);
