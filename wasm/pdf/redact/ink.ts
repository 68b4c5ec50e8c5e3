// Where a text match is seen, found from the page as drawn rather than from its text: on a
// searchable PDF the words are invisible text placed by OCR boxes and a font's metrics, a few
// points off the scanned glyphs and taller than them, so blanking the text's own box leaves parts
// of the word readable and cuts into the line above. The page's content is drawn around the box,
// the ink is split into connected shapes (characters, or parts such as an i's dot), and the
// shapes that belong to the box — centred within it vertically and at least a third inside it
// horizontally — make the box to blank, whole characters and a margin that stops short of any
// other shape.

import * as mupdf from 'mupdf';

/** Pixels per point of the rendering searched at most (288 dpi, about a scan's own 300)... */
const MAX_SCALE = 4;
/** ...and the height in pixels a box is drawn at when that takes fewer: larger type needs no finer grain. */
const BOX_PIXELS = 48;
/** A grey level below this is ink. */
const INK = 128;
/** Margin around the characters, in points, where nothing else is in the way. */
const MARGIN = 1.5;

interface Shape {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * The box (page space, points) of the characters the page shows under `box`, with a margin;
 * null when nothing is drawn there (the box is then blanked as it is).
 */
export function inkBox(page: mupdf.PDFPage, box: mupdf.Rect): mupdf.Rect | null {
  const height = box[3] - box[1];
  if (!(height > 0) || !(box[2] > box[0])) return null;
  const scale = Math.min(MAX_SCALE, Math.max(1, BOX_PIXELS / height));
  const reach = height;
  const region: mupdf.Rect = [box[0] - reach, box[1] - reach, box[2] + reach, box[3] + reach].map((v) => Math.round(v * scale)) as mupdf.Rect;
  const shapes = inkShapes(page, region, scale);
  const inBox = (shape: Shape) => {
    const [x0, y0, x1, y1] = box.map((v) => v * scale) as [number, number, number, number];
    const middle = (shape.y0 + shape.y1 + 1) / 2;
    const overlap = Math.min(shape.x1 + 1, x1) - Math.max(shape.x0, x0);
    return middle >= y0 && middle <= y1 && overlap >= (shape.x1 + 1 - shape.x0) / 3;
  };
  const chosen = shapes.filter(inBox);
  if (chosen.length === 0) return null;
  const ink: Shape = {
    x0: Math.min(...chosen.map((s) => s.x0)),
    y0: Math.min(...chosen.map((s) => s.y0)),
    x1: Math.max(...chosen.map((s) => s.x1)) + 1,
    y1: Math.max(...chosen.map((s) => s.y1)) + 1,
  };
  const grown = withMargin(
    ink,
    shapes.filter((shape) => !inBox(shape)),
    scale,
  );
  return [grown.x0 / scale, grown.y0 / scale, grown.x1 / scale, grown.y1 / scale];
}

/** `ink` grown by MARGIN on each side, each side stopping a pixel short of the other shapes it would reach. */
function withMargin(ink: Shape, others: readonly Shape[], scale: number): Shape {
  const margin = MARGIN * scale;
  const grown = { x0: ink.x0 - margin, y0: ink.y0 - margin, x1: ink.x1 + margin, y1: ink.y1 + margin };
  for (const other of others) {
    const columns = other.x1 + 1 > grown.x0 && other.x0 < grown.x1;
    const rows = other.y1 + 1 > grown.y0 && other.y0 < grown.y1;
    if (!columns || !rows) continue;
    if (other.y1 < ink.y0) grown.y0 = Math.max(grown.y0, Math.min(ink.y0, other.y1 + 2));
    else if (other.y0 >= ink.y1) grown.y1 = Math.min(grown.y1, Math.max(ink.y1, other.y0 - 1));
    else if (other.x1 < ink.x0) grown.x0 = Math.max(grown.x0, Math.min(ink.x0, other.x1 + 2));
    else if (other.x0 >= ink.x1) grown.x1 = Math.min(grown.x1, Math.max(ink.x1, other.x0 - 1));
  }
  return grown;
}

/** The connected shapes of ink (8-connected pixels) of the page's content drawn in `region` (pixels at `scale`). */
function inkShapes(page: mupdf.PDFPage, region: mupdf.Rect, scale: number): Shape[] {
  const pixmap = new mupdf.Pixmap(mupdf.ColorSpace.DeviceGray, region, false);
  try {
    pixmap.clear(255);
    const device = new mupdf.DrawDevice(mupdf.Matrix.scale(scale, scale), pixmap);
    try {
      // The device already scales: the page is run in its own space.
      page.runPageContents(device, mupdf.Matrix.identity);
      device.close();
    } finally {
      device.destroy();
    }
    const width = pixmap.getWidth();
    const height = pixmap.getHeight();
    const stride = pixmap.getStride();
    const pixels = pixmap.getPixels();
    const ink = new Uint8Array(width * height);
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) ink[y * width + x] = (pixels[y * stride + x] as number) < INK ? 1 : 0;
    return connectedShapes(ink, width, height).map((s) => ({ x0: s.x0 + region[0], y0: s.y0 + region[1], x1: s.x1 + region[0], y1: s.y1 + region[1] }));
  } finally {
    pixmap.destroy();
  }
}

/** Bounding boxes (inclusive pixel edges) of the 8-connected groups of set cells of `mask`. */
function connectedShapes(mask: Uint8Array, width: number, height: number): Shape[] {
  const shapes: Shape[] = [];
  const stack: number[] = [];
  for (let start = 0; start < mask.length; start++) {
    if (mask[start] !== 1) continue;
    const shape = { x0: width, y0: height, x1: -1, y1: -1 };
    mask[start] = 2;
    stack.push(start);
    while (stack.length > 0) {
      const at = stack.pop() as number;
      const x = at % width;
      const y = (at - x) / width;
      shape.x0 = Math.min(shape.x0, x);
      shape.x1 = Math.max(shape.x1, x);
      shape.y0 = Math.min(shape.y0, y);
      shape.y1 = Math.max(shape.y1, y);
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
          const next = ny * width + nx;
          if (mask[next] === 1) {
            mask[next] = 2;
            stack.push(next);
          }
        }
      }
    }
    shapes.push(shape);
  }
  return shapes;
}

/**
 * The boxes of the images the page draws (page space). Only a match over an image is looked for
 * in the drawing: elsewhere the text is its own ink, and drawing costs time for nothing.
 */
export function imageBoxes(page: mupdf.PDFPage): mupdf.Rect[] {
  const boxes: mupdf.Rect[] = [];
  const stext = page.toStructuredText('preserve-images');
  try {
    stext.walk({ onImageBlock: (bbox) => boxes.push(bbox) });
  } finally {
    stext.destroy();
  }
  return boxes;
}

export function overlaps(a: mupdf.Rect, b: mupdf.Rect): boolean {
  return a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
}
