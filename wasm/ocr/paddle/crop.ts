// Cuts a detected box out of the page as a straight line image of the recognition model's
// height (PaddleOCR's get_rotate_crop_image + resize_norm_img in one sampling pass). A box at
// least 1.5 times as tall as wide is vertical text: it is turned a quarter counter-clockwise,
// as PaddleOCR does, so that reading left to right in the line image goes down the column.

import { distance, type Point, type Quad } from './geometry.js';
import { sample, type Raster } from './raster.js';

export const LINE_HEIGHT = 48;
/** Longest line image (a width/height ratio of 80): longer boxes are squeezed to it. */
const MAX_LINE_WIDTH = LINE_HEIGHT * 80;

export interface LineImage {
  width: number;
  /** Planar B, G, R values 0–255, LINE_HEIGHT rows each (the channel order PaddleOCR feeds). */
  data: Float32Array;
}

/** How a line image sits on the page. */
export interface LinePlacement {
  quad: Quad;
  vertical: boolean;
  /** Read turned half a turn (the direction classifier found it upside down). */
  flipped: boolean;
}

/** Box sides as PaddleOCR measures them: the longer of each pair of opposite edges. */
export function boxSides(quad: Quad): { width: number; height: number } {
  const [p0, p1, p2, p3] = quad;
  return { width: Math.max(distance(p0, p1), distance(p2, p3)), height: Math.max(distance(p0, p3), distance(p1, p2)) };
}

export function isVertical(quad: Quad): boolean {
  const { width, height } = boxSides(quad);
  return height / Math.max(width, 1) >= 1.5;
}

/**
 * The page point at fraction `along` of the reading direction and `across` from the top of
 * the line as read (both 0–1).
 */
export function pagePoint({ quad, vertical, flipped }: LinePlacement, along: number, across: number): Point {
  let a = flipped ? 1 - along : along;
  let b = flipped ? 1 - across : across;
  // Turned a quarter counter-clockwise: reading runs down the box, the line's top is its right side.
  if (vertical) [a, b] = [1 - b, a];
  const [p0, p1, p2, p3] = quad;
  const top = { x: p0.x + (p1.x - p0.x) * a, y: p0.y + (p1.y - p0.y) * a };
  const bottom = { x: p3.x + (p2.x - p3.x) * a, y: p3.y + (p2.y - p3.y) * a };
  return { x: top.x + (bottom.x - top.x) * b, y: top.y + (bottom.y - top.y) * b };
}

export function cropLine(image: Raster, placement: LinePlacement): LineImage {
  const sides = boxSides(placement.quad);
  const [length, thickness] = placement.vertical ? [sides.height, sides.width] : [sides.width, sides.height];
  const width = Math.min(MAX_LINE_WIDTH, Math.max(1, Math.ceil((LINE_HEIGHT * length) / Math.max(thickness, 1))));
  // Shrinking more than 1.5 times: average several samples per pixel so strokes do not vanish.
  const steps = Math.max(1, Math.ceil(Math.max(length / width, thickness / LINE_HEIGHT) - 0.5));
  const plane = width * LINE_HEIGHT;
  const data = new Float32Array(3 * plane);
  const colours = image.channels === 1 ? 1 : 3;
  const sums = [0, 0, 0];
  for (let y = 0; y < LINE_HEIGHT; y++) {
    for (let x = 0; x < width; x++) {
      sums.fill(0);
      for (let j = 0; j < steps; j++) {
        for (let i = 0; i < steps; i++) {
          const p = pagePoint(placement, (x + (i + 0.5) / steps) / width, (y + (j + 0.5) / steps) / LINE_HEIGHT);
          for (let c = 0; c < colours; c++) sums[c] = (sums[c] as number) + sample(image, p.x - 0.5, p.y - 0.5, c);
        }
      }
      const o = y * width + x;
      const n = steps * steps;
      // B, G, R planes.
      data[o] = (sums[colours === 1 ? 0 : 2] as number) / n;
      data[plane + o] = (sums[colours === 1 ? 0 : 1] as number) / n;
      data[2 * plane + o] = (sums[0] as number) / n;
    }
  }
  return { width, data };
}

/** The same line turned half a turn (the classifier found it upside down). */
export function rotateHalf(line: LineImage): LineImage {
  const data = new Float32Array(line.data.length);
  const plane = line.width * LINE_HEIGHT;
  for (let c = 0; c < 3; c++) {
    for (let i = 0; i < plane; i++) data[c * plane + i] = line.data[c * plane + plane - 1 - i] as number;
  }
  return { width: line.width, data };
}
