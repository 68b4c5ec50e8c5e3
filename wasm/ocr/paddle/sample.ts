// `auto` asks whether a page is Latin script before PP-OCR reads it (tesseract reads Latin
// pages). A rough look answers that for a fraction of the cost of the old answer (the page
// detected in full, every line cut out and classified, the 8 widest lines read): detection at
// a third of the scale (a ninth of the pixels) and one recognition batch of the beginnings of 8
// lines spread over the page. Measured (docs/ocr-engines.md, "The auto sample"): on every page
// of the page set and the bench's pages a third of the scale finds the lines half the scale
// found (one page two more) and reads the same Latin shares within 0.1 (Chinese 0.00, English
// 1.00, mixed 0.55–0.74 against the 0.9 cut-off), for 200–280 ms of CPU where half the scale
// took 370–780 ms.
// Spread, not the widest lines: a Chinese page with English sentences has its widest lines
// in English. A page that stays with PP-OCR is then detected in full.

import { boxSides, type LinePlacement } from './crop.js';
import type { DetectionOptions } from './detection.js';
import type { Point } from './geometry.js';

/** Lines sampled: one recognition batch. */
const SAMPLE_LINES = 8;
/** How much of each sampled line is read, in line heights: some 8 Chinese characters or 20 Latin letters. */
const SAMPLE_LENGTH = 8;

/** How much smaller than the page's the sample's detection scale is. */
const SAMPLE_SCALE_DIVISOR = 3;

/** Detection for the sample: a third of the scale of the page's (`divisor`: another fraction, for test/bench/auto-sample.ts). */
export function sampleDetection(detection: DetectionOptions, divisor = SAMPLE_SCALE_DIVISOR): DetectionOptions {
  return { ...detection, maxSide: Math.round(detection.maxSide / divisor), minShortSide: Math.round(detection.minShortSide / divisor) };
}

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
