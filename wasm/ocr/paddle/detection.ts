// PP-OCR text detection (DB, Differentiable Binarization), as PaddleOCR's predict_det.py and
// ppocr/postprocess/db_postprocess.py do it: resize so both sides are multiples of 32 under a
// longest-side limit, normalise with ImageNet's mean and deviation, run the model, then turn the
// probability map into boxes — threshold → connected regions (the outer contours) → minimum-area
// rotated rectangle → score by the mean probability inside it → unclip (offset outwards by
// area × ratio / perimeter, rounded joins, with Clipper as pyclipper does) → rectangle again →
// scale back to the image.

import ClipperLib from 'clipper-lib';
import type { InferenceSession } from 'onnxruntime-web';
import { areaAndPerimeter, distance, insideConvex, minAreaRect, orderCorners, type Point, type Quad } from './geometry.js';
import { runModel } from './models.js';
import { resizePlanar, type Raster } from './raster.js';

export interface DetectionOptions {
  /** Longest side the page is shrunk to before detection (PaddleOCR's det_limit_side_len)… */
  maxSide: number;
  /** …but never so far that its shorter side falls below this (text would be too small to find). */
  minShortSide: number;
  /** Probability above which a pixel is text. */
  threshold: number;
  /** Mean probability a box needs to be kept. */
  boxThreshold: number;
  unclipRatio: number;
  maxCandidates: number;
  /**
   * Detection input is at most this many pixels per model call; a larger page goes in bands
   * stitched on the probability map (detectText).
   */
  maxBandPixels: number;
}

export const DETECTION_DEFAULTS: DetectionOptions = {
  maxSide: 1600,
  minShortSide: 1152,
  threshold: 0.3,
  boxThreshold: 0.6,
  unclipRatio: 2,
  maxCandidates: 1000,
  // An A4 page (1152 × 1632 of input) in three bands of 672 rows: onnxruntime's heap 157 MB
  // instead of 296–356 MB in one run, a PP-OCR worker's peak ≤ 450 MB, detection's CPU about the
  // same; the page set's CER table holds (docs/ocr-engines.md, "Fifth round: memory").
  maxBandPixels: 800_000,
};

const MEAN = [0.485, 0.456, 0.406];
const STD = [0.229, 0.224, 0.225];
const MIN_SIZE = 3;

export interface DetectedBox {
  quad: Quad;
  score: number;
}

export interface ProbabilityMap {
  width: number;
  height: number;
  data: Float32Array;
}

/**
 * Rows of context each band reads above and below the rows of the map it keeps (3 of the
 * model's strides of 32): the map's rows near a band's edge, where the model sees no text
 * beyond, are another band's.
 */
const BAND_HALO = 96;

/**
 * Boxes on the page at `scale`: the one the page's text needs (text-scale.ts), else the size
 * rule's (detectionScale). A page whose input would be more than `maxBandPixels` is detected
 * in bands of rows, each resized on its own and each keeping its middle rows of the
 * probability map; the boxes are drawn once on the stitched map, so a line across two bands
 * is one box. The bands bound onnxruntime's heap (an A4 page: 356 MB in one run, 157 MB in
 * bands of 0.8 MP) and let a scroll keep the scale its text needs.
 */
export async function detectText(
  session: InferenceSession,
  image: Raster,
  options: DetectionOptions = DETECTION_DEFAULTS,
  checkpoint?: () => void,
  scale = detectionScale(image.width, image.height, options),
): Promise<DetectedBox[]> {
  const { width, height } = detectionSize(image.width, image.height, scale);
  const map = new Float32Array(width * height);
  for (const band of detectionBands(height, Math.floor(options.maxBandPixels / width))) {
    checkpoint?.();
    const tensor = detectionInput(image, width, height, band);
    const output = await runModel(session, tensor, [1, 3, band.to - band.from, width]);
    map.set(output.data.subarray((band.keepFrom - band.from) * width, (band.keepTo - band.from) * width), band.keepFrom * width);
  }
  return boxesFromMap({ width, height, data: map }, image.width, image.height, options);
}

export interface DetectionBand {
  /** Input rows the model reads… */
  from: number;
  to: number;
  /** …and the rows of the probability map it keeps. */
  keepFrom: number;
  keepTo: number;
}

/**
 * Bands of at most `maxRows` input rows (multiples of 32) covering `height` rows: one band when
 * the page fits, else the fewest bands that do, all of the same height (one tensor shape, so
 * onnxruntime plans one memory pattern) and spread evenly — a band on the page's edge has no
 * halo there, so it keeps more rows than the bands between. Every band starts on a multiple of
 * 32, the model's stride grid of a whole-page run.
 */
export function detectionBands(height: number, maxRows: number): DetectionBand[] {
  const rows = Math.max(2 * BAND_HALO + 32, Math.floor(maxRows / 32) * 32);
  if (rows >= height) return [{ from: 0, to: height, keepFrom: 0, keepTo: height }];
  const count = Math.ceil((height - 2 * BAND_HALO) / (rows - 2 * BAND_HALO));
  // Where band i's kept rows begin, rounded to the grid: no two are more than `step` apart.
  const boundary = (i: number) => (i === 0 ? 0 : i === count ? height : BAND_HALO + Math.round(((height - 2 * BAND_HALO) * i) / count / 32) * 32);
  const step = Math.ceil((height - 2 * BAND_HALO) / count / 32) * 32;
  const bandRows = step + 2 * BAND_HALO;
  const bands: DetectionBand[] = [];
  for (let i = 0; i < count; i++) {
    const keepFrom = boundary(i);
    const keepTo = boundary(i + 1);
    const from = Math.max(0, Math.min(keepFrom - BAND_HALO, height - bandRows));
    bands.push({ from, to: from + bandRows, keepFrom, keepTo });
  }
  return bands;
}

/** Shrink factor: longest side at most maxSide, unless that takes the shorter side below minShortSide; never enlarged. */
export function detectionScale(width: number, height: number, { maxSide, minShortSide }: Pick<DetectionOptions, 'maxSide' | 'minShortSide'>): number {
  return Math.min(1, Math.max(maxSide / Math.max(width, height), minShortSide / Math.min(width, height)));
}

/** Target size: both sides scaled, each rounded to a multiple of 32 (at least 32). */
export function detectionSize(width: number, height: number, scale: number): { width: number; height: number } {
  const round32 = (n: number) => Math.max(32, Math.round((n * scale) / 32) * 32);
  return { width: round32(width), height: round32(height) };
}

/**
 * The model's input for rows from…to of the page resized to width × height: scaled to 0–1,
 * normalised per channel. PaddleOCR feeds OpenCV's BGR order. Made in the resized planes
 * themselves: a second array would be another 22.5 MB beside them for an A4 page in one run
 * (3 × 1152 × 1632 floats), alive while the model runs.
 */
export function detectionInput(image: Raster, width: number, height: number, rows = { from: 0, to: height }): Float32Array {
  const tensor = resizePlanar(image, width, height, rows);
  const plane = width * (rows.to - rows.from);
  const red = tensor.subarray(0, plane);
  const blue = tensor.subarray(2 * plane);
  for (let i = 0; i < plane; i++) {
    const r = red[i] as number;
    red[i] = blue[i] as number;
    blue[i] = r;
  }
  for (let c = 0; c < 3; c++) {
    const mean = MEAN[c] as number;
    const std = STD[c] as number;
    for (let i = c * plane; i < (c + 1) * plane; i++) tensor[i] = ((tensor[i] as number) / 255 - mean) / std;
  }
  return tensor;
}

/** db_postprocess.py's boxes_from_bitmap (box_type quad, score_mode fast). */
export function boxesFromMap(map: ProbabilityMap, destWidth: number, destHeight: number, options: DetectionOptions): DetectedBox[] {
  const boxes: DetectedBox[] = [];
  for (const region of textRegions(map, options.threshold).slice(0, options.maxCandidates)) {
    const mini = minAreaRect(region);
    if (mini.shortSide < MIN_SIZE) continue;
    const corners = orderCorners(mini.corners);
    const score = meanInside(map, corners);
    if (score < options.boxThreshold) continue;
    const expanded = minAreaRect(unclip(corners, options.unclipRatio));
    if (expanded.shortSide < MIN_SIZE + 2) continue;
    const scaled = orderCorners(expanded.corners).map((p) => ({
      x: clamp(Math.round((p.x / map.width) * destWidth), 0, destWidth),
      y: clamp(Math.round((p.y / map.height) * destHeight), 0, destHeight),
    })) as Quad;
    // predict_det.py's filter_tag_det_res: slivers are dropped.
    if (Math.trunc(distance(scaled[0], scaled[1])) <= 3 || Math.trunc(distance(scaled[0], scaled[3])) <= 3) continue;
    boxes.push({ quad: scaled, score });
  }
  return boxes;
}

/**
 * Connected regions (8-neighbourhood) of pixels above the threshold, each given by the end
 * pixels of its horizontal runs: enough for the convex hull, which is all a minimum-area
 * rectangle needs (OpenCV's outer contour has the same hull). Holes are not regions.
 */
export function textRegions(map: ProbabilityMap, threshold: number): Point[][] {
  const { width, height, data } = map;
  const parent: number[] = [];
  const find = (i: number): number => {
    let root = i;
    while (parent[root] !== root) root = parent[root] as number;
    while (parent[i] !== root) [i, parent[i]] = [parent[i] as number, root];
    return root;
  };
  const runs: { y: number; from: number; to: number; label: number }[] = [];
  let previous: typeof runs = [];
  for (let y = 0; y < height; y++) {
    const current: typeof runs = [];
    let x = 0;
    while (x < width) {
      if ((data[y * width + x] as number) <= threshold) {
        x++;
        continue;
      }
      const from = x;
      while (x < width && (data[y * width + x] as number) > threshold) x++;
      const run = { y, from, to: x - 1, label: parent.length };
      parent.push(run.label);
      for (const above of previous) {
        if (above.to >= from - 1 && above.from <= run.to + 1) {
          const a = find(above.label);
          const b = find(run.label);
          if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
        }
      }
      current.push(run);
    }
    runs.push(...current);
    previous = current;
  }
  const regions = new Map<number, Point[]>();
  for (const run of runs) {
    const root = find(run.label);
    let points = regions.get(root);
    if (!points) regions.set(root, (points = []));
    points.push({ x: run.from, y: run.y }, { x: run.to, y: run.y });
  }
  return [...regions.values()];
}

/** box_score_fast: the mean probability over the pixels inside the box. */
function meanInside(map: ProbabilityMap, quad: Quad): number {
  const xs = quad.map((p) => p.x);
  const ys = quad.map((p) => p.y);
  const x0 = clamp(Math.floor(Math.min(...xs)), 0, map.width - 1);
  const x1 = clamp(Math.ceil(Math.max(...xs)), 0, map.width - 1);
  const y0 = clamp(Math.floor(Math.min(...ys)), 0, map.height - 1);
  const y1 = clamp(Math.ceil(Math.max(...ys)), 0, map.height - 1);
  const polygon = quad.map((p) => ({ x: Math.trunc(p.x), y: Math.trunc(p.y) }));
  let sum = 0;
  let count = 0;
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      if (!insideConvex(polygon, { x, y })) continue;
      sum += map.data[y * map.width + x] as number;
      count++;
    }
  }
  return count === 0 ? 0 : sum / count;
}

/** Offsets the box outwards by area × ratio / perimeter with rounded corners (pyclipper's JT_ROUND). */
export function unclip(quad: Quad, ratio: number): Point[] {
  const { area, perimeter } = areaAndPerimeter(quad);
  if (perimeter === 0) return [...quad];
  const offset = new ClipperLib.ClipperOffset();
  offset.AddPath(
    quad.map((p) => ({ X: Math.trunc(p.x), Y: Math.trunc(p.y) })),
    ClipperLib.JoinType.jtRound,
    ClipperLib.EndType.etClosedPolygon,
  );
  const solution: ClipperLib.Paths = [];
  offset.Execute(solution, (area * ratio) / perimeter);
  const largest = solution.reduce<ClipperLib.Path>((best, path) => (path.length > best.length ? path : best), []);
  return largest.map(({ X, Y }) => ({ x: X, y: Y }));
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(Math.max(value, low), high);
}
