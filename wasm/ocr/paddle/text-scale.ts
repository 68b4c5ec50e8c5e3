// The detection scale a page's text needs (issue 46). The size rule (detection.ts:
// detectionScale) shrinks an A4 page until its short side is 1152 px, which puts body text at
// 17–22 px of ink; a screenshot or a photographed paragraph is smaller than that, so the rule
// leaves it at full scale: a 2556 × 954 block of 12 pt text at 300 dpi went to the model as
// 2.5 MP (in two bands) with its text at ~45 px — 58 % of the block's time, to find 5 lines.
// The rough look at a third of the scale (the one `auto`'s sample takes) finds the lines; their
// ink, measured on the page's own pixels, says how tall the text is, and detection runs at the
// scale that puts it at TARGET_INK px: never above the rule's scale (small text keeps it), and
// never below half of it (text the rough look missed still has pixels enough). When the rough
// look itself already saw the text at READ_INK px or more, its boxes are the page's: no second
// detection (the block: text at 18.5 px in the rough look's 0.4 MP).

import { boxSides, isVertical } from './crop.js';
import type { Quad } from './geometry.js';
import { pixel, type Raster } from './raster.js';

/**
 * Ink height, in detection input pixels, the chosen scale gives the text. Above what the size
 * rule gives every page of the page set (Ming 12 pt at 300 dpi: ~21 px, the tallest), so those
 * pages — and the CER table — keep the rule's scale exactly.
 */
const TARGET_INK = 26;
/**
 * Ink height, in detection input pixels, at which the rough look's boxes are kept as the page's.
 * The page set is read at 18–21 px (Hei 10 pt at 300 dpi: 18.1) at the CERs of the table;
 * PaddleOCR's own 960 px limit puts A4 text at ~13 px and reads 4 of 6 Chinese pages worse.
 */
const READ_INK = 18;
/** Lines whose ink is measured: a few spread over the page say its body text's height. */
const MEASURED_LINES = 16;
/** The low quartile of the lines' ink heights: a page of several sizes is detected for its smaller text. */
const QUANTILE = 0.25;
/** The chosen scale is at least this share of the rule's. */
const MIN_SHARE = 0.5;

/**
 * The scale to detect at, given the rule's, the rough look's and the boxes the rough look found
 * (page coordinates): the rough look's own when its text was already READ_INK px tall (its boxes
 * then serve), the rule's when no line's ink could be measured.
 */
export function scaleForText(image: Raster, rough: readonly Quad[], scales: { rule: number; rough: number }): number {
  const heights = inkHeights(image, rough);
  if (heights.length === 0) return scales.rule;
  const ink = heights.sort((a, b) => a - b)[Math.floor(QUANTILE * (heights.length - 1))] as number;
  if (ink * scales.rough >= READ_INK) return Math.min(scales.rough, scales.rule);
  return Math.min(scales.rule, Math.max(MIN_SHARE * scales.rule, TARGET_INK / ink));
}

/** Ink heights (page pixels) of horizontal lines spread over the page; lines not clearly apart from their neighbours are left out. */
function inkHeights(image: Raster, rough: readonly Quad[]): number[] {
  const lines = rough.filter((quad) => !isVertical(quad));
  const step = Math.max(1, lines.length / MEASURED_LINES);
  const heights: number[] = [];
  for (let k = 0; k < lines.length; k += step) {
    const height = inkHeight(image, lines[Math.floor(k)] as Quad);
    if (height !== undefined) heights.push(height);
  }
  return heights;
}

/**
 * The rows of ink around the middle of a line's box, along the box's own direction (a
 * photographed page is turned a little): in a band twice the box's height, the rows holding
 * dark pixels (darker than halfway between the band's darkest and lightest), the run of them
 * through the box's middle. Undefined when that run reaches the band's edge (lines set without
 * a gap between them, or a box far off its text): such a height says nothing.
 */
function inkHeight(image: Raster, quad: Quad): number | undefined {
  const [topLeft, topRight, bottomRight, bottomLeft] = quad;
  const { width: length, height: boxHeight } = boxSides(quad);
  if (length < 16 || boxHeight < 4) return undefined;
  const centre = { x: (topLeft.x + topRight.x + bottomRight.x + bottomLeft.x) / 4, y: (topLeft.y + topRight.y + bottomRight.y + bottomLeft.y) / 4 };
  const along = {
    x: (topRight.x - topLeft.x + bottomRight.x - bottomLeft.x) / 2 / length,
    y: (topRight.y - topLeft.y + bottomRight.y - bottomLeft.y) / 2 / length,
  };
  const across = { x: -along.y, y: along.x };
  // The middle half of the line, every third pixel along it: strokes enough, a tenth of the pixels.
  const columns = Math.floor(length / 2 / COLUMN_STEP);
  const rows = 2 * Math.round(boxHeight) + 1;
  const values = new Uint8Array(columns * rows);
  for (let r = 0; r < rows; r++) {
    const d = r - (rows - 1) / 2;
    for (let c = 0; c < columns; c++) {
      const t = (c - columns / 2) * COLUMN_STEP;
      const x = Math.round(centre.x + t * along.x + d * across.x);
      const y = Math.round(centre.y + t * along.y + d * across.y);
      values[r * columns + c] = x < 0 || y < 0 || x >= image.width || y >= image.height ? 255 : luminance(image, x, y);
    }
  }
  return inkRun(values, columns, rows);
}

const COLUMN_STEP = 3;

function luminance(image: Raster, x: number, y: number): number {
  return image.channels === 1 ? (image.data[y * image.width + x] as number) : pixel(image, x, y, 1);
}

/** The run of inked rows through the middle row of a band (`rows` × `columns` grey values). */
function inkRun(values: Uint8Array, columns: number, rows: number): number | undefined {
  let darkest = 255;
  let lightest = 0;
  for (const v of values) {
    if (v < darkest) darkest = v;
    if (v > lightest) lightest = v;
  }
  if (lightest - darkest < 64) return undefined;
  const cut = (darkest + lightest) / 2;
  const counts = new Int32Array(rows);
  for (let i = 0; i < values.length; i++) {
    const row = Math.floor(i / columns);
    if ((values[i] as number) < cut) counts[row] = (counts[row] as number) + 1;
  }
  const least = Math.max(2, 0.02 * Math.max(...counts));
  const inked = (r: number) => (counts[r] as number) >= least;
  const middle = (rows - 1) / 2;
  if (!inked(middle)) return undefined;
  let top = middle;
  let bottom = middle;
  while (top > 0 && inked(top - 1)) top--;
  while (bottom < rows - 1 && inked(bottom + 1)) bottom++;
  if (top === 0 || bottom === rows - 1) return undefined;
  return bottom - top + 1;
}
