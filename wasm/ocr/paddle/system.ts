// PP-OCR's text system (predict_system.py): detect boxes, cut each out as a line image,
// optionally find upside-down lines, recognise all lines in batches, drop lines read with
// little confidence, and say where every character sits on the page.

import { upsideDown } from './classify.js';
import { cropLine, isVertical, pagePoint, rotateHalf, type LineImage, type LinePlacement } from './crop.js';
import { DETECTION_DEFAULTS, detectionScale, detectText, type DetectedBox, type DetectionOptions } from './detection.js';
import type { Point, Quad } from './geometry.js';
import type { PaddleModels } from './models.js';
import type { Raster } from './raster.js';
import { restoreCentredStops } from './punctuation.js';
import { RECOGNITION_DEFAULTS, recognizeLines, rereadLatinLines, type RecognitionOptions, type RecognizedLine } from './recognition.js';
import { sampleDetection, sampleLines } from './sample.js';
import { scaleForText } from './text-scale.js';
import { restoreWordSpaces } from './word-spaces.js';

export interface SystemOptions {
  detection: DetectionOptions;
  batchSize: number;
  /** Share of its width each line image keeps for recognition (recognition.ts). */
  squeeze?: number;
  /** Run the direction classifier (for lines printed upside down). */
  classify: boolean;
  /**
   * Only lines read upright with less mean confidence than this are shown to the classifier
   * (1: every line). A line printed upside down reads as unconfident noise; an upright line
   * reads confidently, and the classifier would only have flagged some of them wrongly.
   */
  classifyBelow: number;
  /** Lines read with less mean confidence are dropped (PaddleOCR's drop_score). */
  dropScore: number;
  /** Called between model calls; throws to stop (a deadline passed). */
  checkpoint?: () => void;
  /**
   * Looks at a sample read before the page is detected in full (the beginnings of lines
   * spread over the page, found at a third of the scale: sample.ts); returning true abandons the page.
   */
  abandonAfterSample?: (sample: readonly RecognizedLine[]) => boolean;
  /** The sample's Latin lines are read a second time, unsqueezed, as the page's are (a bench's before/after; default false). */
  sampleRereadsLatin?: boolean;
  /**
   * Detect at the scale the text needs, chosen from the ink of the lines a rough look (the
   * sample's, at a third of the scale) found: text-scale.ts (default true; false: the size
   * rule's scale, as before issue 46, for a bench's before/after).
   */
  scaleFromText?: boolean;
  /** Milliseconds for the stage timings: wall time by default; a bench passes CPU time. */
  clock?: () => number;
}

/**
 * classifyBelow's default. Measured on the page set: upright lines read at ≥ 0.96 mean
 * confidence (one line of the mixed Ming page 0.80); lines of the same pages turned 180° at
 * ≤ 0.07 (Chinese) and ≤ 0.55 (English). The classifier's 2 % of a Chinese page is saved.
 */
const CLASSIFY_BELOW = 0.9;

export const SYSTEM_DEFAULTS: SystemOptions = {
  detection: DETECTION_DEFAULTS,
  batchSize: RECOGNITION_DEFAULTS.batchSize,
  classify: true,
  classifyBelow: CLASSIFY_BELOW,
  dropScore: 0.5,
};

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
  /** Detection: resizing the page, the model, boxes from its map. */
  detectMs: number;
  /** Cutting out the line images. */
  cropMs: number;
  /** Detecting and reading the sample `abandonAfterSample` looks at, and the rough look's line heights. */
  sampleMs: number;
  /** The scale the page was detected at (1: full size). */
  detectionScale: number;
  classifyMs: number;
  recognizeMs: number;
  /** Lines the classifier looked at (classifyBelow) and those it turned. */
  classified: number;
  turned: number;
  /** Word spaces, full stops, character cells. */
  postMs: number;
}

export interface PageReading {
  lines: PageLine[];
  timings: PageTimings;
  /** `abandonAfterSample` abandoned the page: `lines` is empty. */
  abandoned: boolean;
}

export async function readPage(models: PaddleModels, image: Raster, options: SystemOptions = SYSTEM_DEFAULTS): Promise<PageReading> {
  const clock = options.clock ?? (() => performance.now());
  let last = clock();
  const lap = () => {
    const now = clock();
    const ms = now - last;
    last = now;
    return Math.round(ms);
  };
  options.checkpoint?.();
  const recognition = { batchSize: options.batchSize, squeeze: options.squeeze, beforeBatch: options.checkpoint, latinSession: models.latinRecognition };
  const timings: PageTimings = { detectMs: 0, cropMs: 0, sampleMs: 0, detectionScale: 0, classifyMs: 0, recognizeMs: 0, classified: 0, turned: 0, postMs: 0 };
  const roughOptions = sampleDetection(options.detection);
  const scales = { rule: detectionScale(image.width, image.height, options.detection), rough: detectionScale(image.width, image.height, roughOptions) };
  const scaleFromText = options.scaleFromText ?? true;
  let scale = scales.rule;
  let rough: DetectedBox[] | undefined;
  let pageIsSample = false;
  if (options.abandonAfterSample || scaleFromText) {
    rough = await detectText(models.detection, image, roughOptions, options.checkpoint, scales.rough);
    if (scaleFromText)
      scale = scaleForText(
        image,
        rough.map(({ quad }) => quad),
        scales,
      );
    // The rough look's boxes are the page's and one recognition batch holds every line: the
    // page's own reading of that batch is the sample (a screenshot block: −1 model call, ~⅙ of its read).
    pageIsSample = options.abandonAfterSample !== undefined && scale === scales.rough && rough.length <= options.batchSize;
    if (options.abandonAfterSample && !pageIsSample) {
      const sampled = sampleLines(rough.map(({ quad }) => placed(quad))).map((placement) => cropLine(image, placement));
      const sample = await recognizeLines(models.recognition, models.characters, sampled, { ...recognition, rereadLatin: options.sampleRereadsLatin ?? false });
      if (options.abandonAfterSample(sample)) return { lines: [], timings: { ...timings, sampleMs: lap() }, abandoned: true };
    }
    timings.sampleMs = lap();
  }
  timings.detectionScale = scale;
  // The rough look saw the text tall enough (text-scale.ts): its boxes are the page's.
  const boxes = rough && scale === scales.rough ? rough : await detectText(models.detection, image, options.detection, options.checkpoint, scale);
  timings.detectMs = lap();
  const placements = boxes.map(({ quad }) => placed(quad));
  const crops = placements.map((placement) => cropLine(image, placement));
  timings.cropMs = lap();
  options.checkpoint?.();
  const read = await recognizeLines(models.recognition, models.characters, crops, { ...recognition, rereadLatin: !pageIsSample });
  if (pageIsSample) {
    if (options.abandonAfterSample?.(read)) return { lines: [], timings: { ...timings, recognizeMs: lap() }, abandoned: true };
    await rereadLatinLines(models.recognition, models.characters, crops, read, recognition);
  }
  timings.recognizeMs = lap();
  if (options.classify)
    Object.assign(timings, await turnUpsideDownLines(models, { crops, placements, read }, options.classifyBelow, recognition), { classifyMs: lap() });
  const lines = pageLines(read, crops, placements, options.dropScore);
  timings.postMs = lap();
  return { lines, timings, abandoned: false };
}

/**
 * The lines read with little confidence go to the direction classifier; each it finds upside
 * down is read turned, and keeps that reading when it is the more confident (the classifier
 * also flags some upright lines: a long line squeezed to 192 pixels).
 */
async function turnUpsideDownLines(
  models: PaddleModels,
  page: { crops: LineImage[]; placements: LinePlacement[]; read: RecognizedLine[] },
  below: number,
  recognition: RecognitionOptions,
): Promise<{ classified: number; turned: number }> {
  const { crops, placements, read } = page;
  const doubtful = read.flatMap((line, i) => (line.confidence < below ? [i] : []));
  if (doubtful.length === 0) return { classified: 0, turned: 0 };
  const flagged = await upsideDown(
    models.classification,
    doubtful.map((i) => crops[i] as LineImage),
  );
  const candidates = doubtful.filter((_, k) => flagged[k]).map((i) => ({ i, crop: rotateHalf(crops[i] as LineImage) }));
  const turnedReads = await recognizeLines(
    models.recognition,
    models.characters,
    candidates.map((t) => t.crop),
    recognition,
  );
  let turned = 0;
  candidates.forEach(({ i, crop }, k) => {
    const other = turnedReads[k] as RecognizedLine;
    if (other.confidence <= (read[i] as RecognizedLine).confidence) return;
    read[i] = other;
    crops[i] = crop;
    (placements[i] as LinePlacement).flipped = true;
    turned++;
  });
  return { classified: doubtful.length, turned };
}

/** The lines kept (confident, not empty), with spaces and full stops restored and each character's cell on the page. */
function pageLines(read: readonly RecognizedLine[], crops: readonly LineImage[], placements: readonly LinePlacement[], dropScore: number): PageLine[] {
  const lines: PageLine[] = [];
  read.forEach((raw, i) => {
    const line = restoreWordSpaces(restoreCentredStops(raw, crops[i] as LineImage));
    const placement = placements[i] as LinePlacement;
    if (line.confidence < dropScore || line.text.trim() === '') return;
    lines.push({
      text: line.text,
      confidence: line.confidence,
      quad: placement.quad,
      vertical: placement.vertical,
      chars: line.chars.map((char) => ({ text: char.text, quad: cellQuad(placement, char.from, char.to) })),
    });
  });
  return lines;
}

function placed(quad: Quad): LinePlacement {
  return { quad, vertical: isVertical(quad), flipped: false };
}

function cellQuad(placement: LinePlacement, from: number, to: number): Quad {
  const at = (along: number, across: number): Point => pagePoint(placement, along, across);
  return [at(from, 0), at(to, 0), at(to, 1), at(from, 1)];
}
