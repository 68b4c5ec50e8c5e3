// PP-OCR's text system (predict_system.py): detect boxes, cut each out as a line image,
// optionally find upside-down lines, recognise all lines in batches, drop lines read with
// little confidence, and say where every character sits on the page.

import { upsideDown } from './classify.js';
import { cropLine, isVertical, pagePoint, rotateHalf, type LineImage, type LinePlacement } from './crop.js';
import { DETECTION_DEFAULTS, detectText, type DetectionOptions } from './detection.js';
import type { Point, Quad } from './geometry.js';
import type { PaddleModels } from './models.js';
import type { Raster } from './raster.js';
import { restoreCentredStops } from './punctuation.js';
import { RECOGNITION_DEFAULTS, recognizeLines, type RecognizedLine } from './recognition.js';
import { sampleDetection, sampleLines } from './sample.js';
import { restoreWordSpaces } from './word-spaces.js';

export interface SystemOptions {
  detection: DetectionOptions;
  batchSize: number;
  /** Share of its width each line image keeps for recognition (recognition.ts). */
  squeeze?: number;
  /** Run the direction classifier (for lines printed upside down). */
  classify: boolean;
  /** Lines read with less mean confidence are dropped (PaddleOCR's drop_score). */
  dropScore: number;
  /** Called between model calls; throws to stop (a deadline passed). */
  checkpoint?: () => void;
  /**
   * Looks at a sample read before the page is detected in full (the beginnings of lines
   * spread over the page, found at half scale: sample.ts); returning true abandons the page.
   */
  abandonAfterSample?: (sample: readonly RecognizedLine[]) => boolean;
}

export const SYSTEM_DEFAULTS: SystemOptions = { detection: DETECTION_DEFAULTS, batchSize: RECOGNITION_DEFAULTS.batchSize, classify: true, dropScore: 0.5 };

export interface PageChar {
  text: string;
  /** The character's cell on the page: a quad in reading orientation, as the line's. */
  quad: Quad;
}

export interface PageLine {
  text: string;
  confidence: number;
  /** The line's box on the page (top-left, top-right, bottom-right, bottom-left as printed). */
  quad: Quad;
  /** Read down a column (a tall box). */
  vertical: boolean;
  chars: PageChar[];
}

export interface PageTimings {
  /** Detection and cutting out the line images. */
  detectMs: number;
  /** Detecting and reading the sample `abandonAfterSample` looks at. */
  sampleMs: number;
  classifyMs: number;
  recognizeMs: number;
}

export interface PageReading {
  lines: PageLine[];
  timings: PageTimings;
  /** `abandonAfterSample` abandoned the page: `lines` is empty. */
  abandoned: boolean;
}

export async function readPage(models: PaddleModels, image: Raster, options: SystemOptions = SYSTEM_DEFAULTS): Promise<PageReading> {
  let clock = performance.now();
  const lap = () => {
    const now = performance.now();
    const ms = now - clock;
    clock = now;
    return Math.round(ms);
  };
  options.checkpoint?.();
  const recognition = { batchSize: options.batchSize, squeeze: options.squeeze, beforeBatch: options.checkpoint, latinSession: models.latinRecognition };
  let sampleMs = 0;
  if (options.abandonAfterSample) {
    const rough = await detectText(models.detection, image, sampleDetection(options.detection), options.checkpoint);
    const sample = await recognizeLines(models.recognition, models.characters, sampleLines(rough.map(({ quad }) => placed(quad))).map((placement) => cropLine(image, placement)), recognition);
    sampleMs = lap();
    if (options.abandonAfterSample(sample)) return { lines: [], timings: { detectMs: 0, sampleMs, classifyMs: 0, recognizeMs: 0 }, abandoned: true };
  }
  const boxes = await detectText(models.detection, image, options.detection, options.checkpoint);
  const placements = boxes.map(({ quad }) => placed(quad));
  const crops = placements.map((placement) => cropLine(image, placement));
  const detectMs = lap();
  options.checkpoint?.();
  const flagged = options.classify && crops.length > 0 ? await upsideDown(models.classification, crops) : [];
  const classifyMs = lap();
  const read = await recognizeLines(models.recognition, models.characters, crops, recognition);
  // The classifier also flags some upright lines (a long line squeezed to 192 pixels): a flagged
  // line is read both ways and keeps the reading with the higher confidence.
  const turned = crops.flatMap((crop, i) => (flagged[i] ? [{ i, crop: rotateHalf(crop) }] : []));
  const turnedReads = await recognizeLines(models.recognition, models.characters, turned.map((t) => t.crop), recognition);
  turned.forEach(({ i, crop }, k) => {
    const upright = read[i] as RecognizedLine;
    const other = turnedReads[k] as RecognizedLine;
    if (other.confidence <= upright.confidence) return;
    read[i] = other;
    crops[i] = crop;
    (placements[i] as LinePlacement).flipped = true;
  });
  const recognizeMs = lap();
  const lines: PageLine[] = [];
  read.forEach((raw, i) => {
    const line = restoreWordSpaces(restoreCentredStops(raw, crops[i] as LineImage));
    const placement = placements[i] as LinePlacement;
    if (line.confidence < options.dropScore || line.text.trim() === '') return;
    lines.push({
      text: line.text,
      confidence: line.confidence,
      quad: placement.quad,
      vertical: placement.vertical,
      chars: line.chars.map((char) => ({ text: char.text, quad: cellQuad(placement, char.from, char.to) })),
    });
  });
  return { lines, timings: { detectMs, sampleMs, classifyMs, recognizeMs }, abandoned: false };
}

function placed(quad: Quad): LinePlacement {
  return { quad, vertical: isVertical(quad), flipped: false };
}

function cellQuad(placement: LinePlacement, from: number, to: number): Quad {
  const at = (along: number, across: number): Point => pagePoint(placement, along, across);
  return [at(from, 0), at(to, 0), at(to, 1), at(from, 1)];
}
