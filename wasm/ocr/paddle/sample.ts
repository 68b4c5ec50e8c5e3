// `auto` asks whether a page is Latin script before PP-OCR reads all of it (tesseract reads
// Latin pages). The beginnings of lines spread over the page answer that for a fraction of the
// recognition time: two model calls on short line images instead of whole lines, and no crops
// or direction classification of the other lines for a page that goes to tesseract. Spread
// over the page, not its widest lines: a Chinese page with English sentences has its widest
// lines in English.

import { boxSides, type LinePlacement } from './crop.js';
import type { Point } from './geometry.js';

/** Lines sampled: two recognition batches. */
const SAMPLE_LINES = 16;
/** How much of each sampled line is read, in line heights: some 6 Chinese characters or 15 Latin letters. */
const SAMPLE_LENGTH = 6;

/**
 * The beginnings of lines evenly spread, top to bottom, over the page's lines of text (those
 * at least half as long as the longest: not page numbers or captions). Vertical lines are
 * Chinese: not sampled.
 */
export function sampleLines(placements: readonly LinePlacement[]): LinePlacement[] {
  const lines = placements.filter((placement) => !placement.vertical).map((placement) => ({ placement, sides: boxSides(placement.quad) }));
  const longest = Math.max(0, ...lines.map(({ sides }) => sides.width));
  const body = lines.filter(({ sides }) => sides.width >= longest / 2).sort((a, b) => a.placement.quad[0].y - b.placement.quad[0].y);
  const step = Math.max(1, body.length / SAMPLE_LINES);
  const picked = Array.from({ length: Math.min(SAMPLE_LINES, body.length) }, (_, k) => body[Math.floor(k * step)] as (typeof body)[number]);
  return picked.map(({ placement, sides }) => lineStart(placement, Math.min(1, (SAMPLE_LENGTH * sides.height) / Math.max(1, sides.width))));
}

/** The first `share` of a horizontal line's box, as read (top-left, top-right, bottom-right, bottom-left). */
function lineStart(placement: LinePlacement, share: number): LinePlacement {
  const [topLeft, topRight, bottomRight, bottomLeft] = placement.quad;
  return { ...placement, quad: [topLeft, towards(topLeft, topRight, share), towards(bottomLeft, bottomRight, share), bottomLeft] };
}

function towards(from: Point, to: Point, share: number): Point {
  return { x: from.x + (to.x - from.x) * share, y: from.y + (to.y - from.y) * share };
}
