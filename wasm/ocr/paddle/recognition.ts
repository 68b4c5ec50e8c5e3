// PP-OCR text recognition (predict_rec.py): line images sorted by width/height ratio, run in
// batches of lines of similar width, each padded to the widest ratio of its batch (at least
// 320/48 unsqueezed), normalised to −1…1 with zero (mid-grey) padding on the right; the output
// is decoded by CTC's greedy rule (best class per time step, repeats merged, blanks dropped).
// Each character keeps the time steps it was read at, which say where it sits along the line.
// Lines are read squeezed along their length (half width for CJK, where a glyph still spans
// three time steps), which halves the cost of recognition, the bulk of a page's time; lines
// read as Latin are read again less squeezed.

import type { InferenceSession, Tensor } from 'onnxruntime-web';
import { LINE_HEIGHT, type LineImage } from './crop.js';
import { GREEDY_OUTPUTS } from './greedy-outputs.js';
import { runModelOutputs } from './models.js';

const MIN_BATCH_WIDTH = 320;
/**
 * A line narrower than this share of its batch's widest starts a batch of its own (issue 46):
 * the 2556 × 954 block's short last line (25 of 47 characters) padded to the full lines' width
 * cost 16 % of its recognition CPU (1,173 → 988 ms, medians of 7); a dense page's paragraph
 * ends, already a batch of their own, did not move. Padding stays ≤ 25 % of any line.
 */
const BATCH_FILL = 0.75;
/**
 * Line images are read squeezed to this share of their width. Recognition's cost grows with the
 * width (the model steps every 8 columns), and a CJK glyph 48 px tall still gets 3 steps at half
 * width: on the 10 Chinese test pages the CER stays as it was unsqueezed (mean 0.97 % against
 * 0.98 %; 0.6: 0.85 %) at ~60 % of the recognition time (docs/ocr-measurements.md).
 */
const CJK_SQUEEZE = 0.5;
/**
 * Latin letters are half as wide as CJK glyphs: squeezed to 0.5 English reads at 12–34 % CER,
 * at 0.8 with every letter right (0.00 %) but not every space between words ("pullrequest" and
 * 3 of 75 words wrong on the Noto Sans page with English; unsqueezed 0). A line read as Latin
 * is read again unsqueezed.
 */
const LATIN_SQUEEZE = 1;
/** A line is Latin when at least this share of its characters are Latin letters. */
const LATIN_LINE_SHARE = 0.3;
/**
 * PP-OCRv4's CTC fires a character about this many time steps before the middle of its glyph
 * (measured against the tesseract CLI's character boxes on 10–12 pt pages: 1.2–2.3 steps).
 */
const CTC_LAG_STEPS = 1.75;

export interface RecognitionOptions {
  /** Lines per model call (PaddleOCR's rec_batch_num is 6). */
  batchSize: number;
  /** Line images are squeezed to this share of their width before reading (default CJK_SQUEEZE). */
  squeeze?: number;
  /** The model Latin lines are read again with, loaded when first needed (default: the same session). */
  latinSession?: () => Promise<InferenceSession>;
  /** Called before each model call; throws to stop (a deadline passed). */
  beforeBatch?: () => void;
  /**
   * Latin lines are read again at LATIN_SQUEEZE (default). `auto`'s sample only counts Latin
   * letters, which squeezed English still reads as: no second read (on an English page that
   * second read, with the float model, was half the sample's cost).
   */
  rereadLatin?: boolean;
}

export const RECOGNITION_DEFAULTS: RecognitionOptions = { batchSize: 8 };

export interface RecognizedChar {
  text: string;
  /** Span along the line, fractions 0–1 of the line image's (unpadded) width. */
  from: number;
  to: number;
  /** Middle of the time steps the character fired at (fraction of the line's width). */
  centre: number;
  /** Highest probability of the space class at the time steps since the character before. */
  spaceBefore: number;
}

export interface RecognizedLine {
  text: string;
  /** Mean probability of the characters read. */
  confidence: number;
  chars: RecognizedChar[];
}

/**
 * Reads every line, widest first. Lines are read
 * squeezed (`squeeze`); a line read as mostly Latin letters is read again at LATIN_SQUEEZE, and
 * when most of the first (widest) batch is Latin the rest of the page is read at LATIN_SQUEEZE
 * straight away.
 */
export async function recognizeLines(
  session: InferenceSession,
  characters: readonly string[],
  lines: readonly LineImage[],
  options: RecognitionOptions = RECOGNITION_DEFAULTS,
): Promise<RecognizedLine[]> {
  const order = lines.map((_, i) => i).sort((a, b) => (lines[b] as LineImage).width - (lines[a] as LineImage).width);
  const results: RecognizedLine[] = new Array<RecognizedLine>(lines.length);
  const latinSession = options.latinSession ?? (() => Promise.resolve(session));
  // One model call: the lines at `indices`, squeezed; squeezed lines are read as CJK (int8), the others as Latin.
  const readBatch = async (indices: readonly number[], squeeze: number) => {
    options.beforeBatch?.();
    const decoded = await recognizeBatch(
      squeeze < LATIN_SQUEEZE ? session : await latinSession(),
      characters,
      indices.map((i) => squeezeLine(lines[i] as LineImage, squeeze)),
      squeeze,
    );
    decoded.forEach((line, k) => (results[indices[k] as number] = line));
    return decoded;
  };
  const reread: number[] = [];
  let squeeze = options.squeeze ?? CJK_SQUEEZE;
  // The page's script is judged on its widest `batchSize` lines (one batch unless widths split them).
  const judgeAfter = Math.min(options.batchSize, order.length);
  let read = 0;
  for (const indices of widthBatches(order, (i) => (lines[i] as LineImage).width, options.batchSize)) {
    const decoded = await readBatch(indices, squeeze);
    decoded.forEach((line, k) => {
      if (options.rereadLatin !== false && squeeze < LATIN_SQUEEZE && mostlyLatin(line.text)) reread.push(indices[k] as number);
    });
    const judged = read < judgeAfter && read + indices.length >= judgeAfter;
    read += indices.length;
    if (judged && 2 * reread.length >= read) squeeze = Math.max(squeeze, LATIN_SQUEEZE);
  }
  for (let start = 0; start < reread.length; start += options.batchSize) await readBatch(reread.slice(start, start + options.batchSize), LATIN_SQUEEZE);
  return results;
}

/**
 * The second half of recognizeLines for lines it read squeezed with `rereadLatin: false`: the
 * lines read as mostly Latin letters are read again at LATIN_SQUEEZE with the Latin model, in
 * place. (`auto` on an image of one batch of lines: system.ts decides on the squeezed reading first.)
 */
export async function rereadLatinLines(
  session: InferenceSession,
  characters: readonly string[],
  lines: readonly LineImage[],
  read: RecognizedLine[],
  options: RecognitionOptions,
): Promise<void> {
  const latin = read.flatMap((line, i) => (mostlyLatin(line.text) ? [i] : []));
  if (latin.length === 0) return;
  const again = await recognizeLines(
    session,
    characters,
    latin.map((i) => lines[i] as LineImage),
    { ...options, squeeze: LATIN_SQUEEZE },
  );
  latin.forEach((i, k) => (read[i] = again[k] as RecognizedLine));
}

/**
 * `order` (widest first) cut into batches of at most `size` lines, a new batch begun where a line
 * is narrower than BATCH_FILL of its batch's widest: every line is padded to the widest of its
 * batch, and the model's cost grows with the padded width.
 */
function widthBatches(order: readonly number[], widthOf: (i: number) => number, size: number): number[][] {
  const batches: number[][] = [];
  for (const i of order) {
    const batch = batches.at(-1);
    if (batch && batch.length < size && widthOf(i) >= BATCH_FILL * widthOf(batch[0] as number)) batch.push(i);
    else batches.push([i]);
  }
  return batches;
}

/** At least this share of the line's characters are Latin letters. */
function mostlyLatin(text: string): boolean {
  const characters = text.replace(/\s+/g, '').length;
  const latin = text.match(/\p{Script=Latin}/gu)?.length ?? 0;
  return characters > 0 && latin >= LATIN_LINE_SHARE * characters;
}

async function recognizeBatch(
  session: InferenceSession,
  characters: readonly string[],
  batch: readonly LineImage[],
  squeeze: number,
): Promise<RecognizedLine[]> {
  const width = Math.max(Math.round(MIN_BATCH_WIDTH * squeeze), ...batch.map((line) => line.width));
  const { tensor } = batchInput(batch, width);
  const outputs = await runModelOutputs(session, tensor, [batch.length, 3, LINE_HEIGHT, width]);
  const best = outputs[GREEDY_OUTPUTS.best] as Tensor;
  const steps = best.dims[1] ?? 0;
  const greedy: GreedySteps = {
    best: Int32Array.from(best.data as BigInt64Array, Number),
    probability: (outputs[GREEDY_OUTPUTS.probability] as Tensor).data as Float32Array,
    space: (outputs[GREEDY_OUTPUTS.space] as Tensor).data as Float32Array,
  };
  const line = (k: number): GreedySteps => {
    const [from, to] = [k * steps, (k + 1) * steps];
    return { best: greedy.best.subarray(from, to), probability: greedy.probability.subarray(from, to), space: greedy.space.subarray(from, to) };
  };
  return batch.map((image, k) => ctcDecode(line(k), characters, image.width / width));
}

/** The line shrunk along its length to `squeeze` of its width (area average over the columns each covers). */
export function squeezeLine(line: LineImage, squeeze: number): LineImage {
  if (squeeze === 1) return line;
  const width = Math.max(1, Math.round(line.width * squeeze));
  const scale = line.width / width;
  const data = new Float32Array(3 * LINE_HEIGHT * width);
  for (let x = 0; x < width; x++) {
    const from = x * scale;
    const to = Math.min(line.width, from + scale);
    for (let s = Math.floor(from); s < to; s++) {
      const weight = (Math.min(s + 1, to) - Math.max(s, from)) / (to - from);
      for (let row = 0; row < 3 * LINE_HEIGHT; row++)
        data[row * width + x] = (data[row * width + x] as number) + weight * (line.data[row * line.width + s] as number);
    }
  }
  return { width, data };
}

/** Lines side by side in one NCHW tensor, each normalised and padded with zeros to `width`. */
export function batchInput(batch: readonly LineImage[], width: number): { tensor: Float32Array } {
  const plane = LINE_HEIGHT * width;
  const tensor = new Float32Array(batch.length * 3 * plane);
  batch.forEach((line, k) => {
    const linePlane = LINE_HEIGHT * line.width;
    for (let c = 0; c < 3; c++) {
      for (let y = 0; y < LINE_HEIGHT; y++) {
        const to = k * 3 * plane + c * plane + y * width;
        const from = c * linePlane + y * line.width;
        for (let x = 0; x < line.width; x++) tensor[to + x] = (line.data[from + x] as number) / 127.5 - 1;
      }
    }
  });
  return { tensor };
}

/**
 * One line's time steps as the recognition model gives them (greedy-outputs.ts): each step's
 * best class (0 is CTC's blank), its probability, and the space class's probability.
 */
export interface GreedySteps {
  best: Int32Array;
  probability: Float32Array;
  space: Float32Array;
}

/**
 * Greedy CTC over one line's time steps. `filled` is the share of the padded input the line
 * itself occupies: positions are given as fractions of the line.
 */
export function ctcDecode(greedy: GreedySteps, characters: readonly string[], filled: number): RecognizedLine {
  const chars: RecognizedChar[] = [];
  const scores: number[] = [];
  const steps = greedy.best.length;
  let spaceSince = 0;
  let previous = 0;
  for (let t = 0; t < steps; t++) {
    const best = greedy.best[t] as number;
    spaceSince = Math.max(spaceSince, greedy.space[t] as number);
    const at = Math.min(1, (t + 0.5 + CTC_LAG_STEPS) / steps / filled);
    if (best !== 0 && best === previous) {
      (chars.at(-1) as RecognizedChar).to = at;
    } else if (best !== 0) {
      chars.push({ text: characters[best - 1] ?? '', from: at, to: at, centre: at, spaceBefore: spaceSince });
      scores.push(greedy.probability[t] as number);
      spaceSince = 0;
    }
    previous = best;
  }
  spreadSpans(chars, 0.5 / steps / filled);
  const confidence = scores.length === 0 ? 0 : scores.reduce((a, b) => a + b, 0) / scores.length;
  return { text: chars.map((c) => c.text).join(''), confidence, chars };
}

/**
 * CTC fires a character at one or two time steps near its middle; its extent reaches halfway
 * to its neighbours, and the first and last characters reach out by half the line's usual
 * pitch (or two steps on a line of one character), clipped to the line.
 */
function spreadSpans(chars: RecognizedChar[], halfStep: number): void {
  const centres = chars.map((c) => [c.from, c.to] as const);
  const gaps = centres
    .slice(1)
    .map(([from], i) => from - (centres[i] as readonly [number, number])[1])
    .sort((a, b) => a - b);
  const edge = gaps.length > 0 ? (gaps[Math.floor(gaps.length / 2)] as number) / 2 + halfStep : 4 * halfStep;
  chars.forEach((char, i) => {
    const [from, to] = centres[i] as readonly [number, number];
    const before = centres[i - 1];
    const after = centres[i + 1];
    char.centre = (from + to) / 2;
    char.from = Math.max(0, before ? (before[1] + from) / 2 : from - edge);
    char.to = Math.min(1, after ? (to + after[0]) / 2 : to + edge);
  });
}
