// A page read by OCR enters the same page model as a born-digital PDF page: its lines, where OCR
// found them, become the structured text mupdf would give (a line cut into pieces where a gap
// between its words is wider than a table's column gap), so a scan gets the
// paragraphs, headings, lists and tables of pdf-layout.ts. A page set in vertical columns (Chinese
// read top to bottom, right to left) keeps the order its OCR engine read it in: the page model
// reads horizontal lines only.

import type { RootContent } from 'mdast';
import type { OcrLine, OcrPageLayout } from '../../core/ocr-layout.js';
import { isCjkCharacter, joinLines, joinsWithoutSpace } from '../../core/cjk-text.js';
import { paragraph } from './blocks.js';
import { pageBlocks } from './pdf-layout.js';
import { StyleTally } from './pdf-headings.js';
import { toPageRows } from './pdf-rows.js';
import type { StextLine, StextPage } from './pdf-page-model.js';
import { readingRows } from './pdf-reading-order.js';
import { median } from '../../core/median.js';

/** Points a pixel: pages are rendered for OCR, and images assumed scanned, at 300 dpi. */
export const POINTS_A_PIXEL = 72 / 300;
/**
 * A line's ascent (its box's top to its baseline: capitals and ascenders) is about this many ems
 * of its font. The ascent, not the box, measures a line: a line with no descender (no g, p, y)
 * has a box a fifth shorter.
 */
const EMS_ASCENT = 0.75;
/** Lines of a paragraph stand this many ems apart, baseline to baseline. */
const LINE_PITCH = 1.2;
/** Below the baseline, as a share of a line's em: a line's box is set this far under it and an em tall (scan-style.ts counts from its top). */
export const DESCENT = 0.2;
/**
 * Lines within this share of the page's usual ascent are body text, at one size. OCR boxes are
 * noisy: PP-OCR's detection pads a short line's box more (a two-character closing line stands
 * 1.3× the body's height), so only a clearly larger line (a title) is a size of its own.
 */
const BODY_SPREAD = 0.35;
/**
 * Where an engine's boxes are tight (tesseract's: body ascents within a pixel or two of each
 * other), the spread is the ascents' own: this many times their median deviation, but never
 * below the least spread below. A heading one step up (14 pt over 12) stands 1.10–1.13× the
 * body's ascent in its font, so a fixed 0.35 hid every heading but a title's.
 */
const SPREAD_DEVIATIONS = 4;
const LEAST_SPREAD = 0.08;
/**
 * A line clearly larger than the body is at least a heading's step up (pdf-headings' 1.15):
 * ascents understate it, a heading's face often having shorter capitals than the body's.
 */
const HEADING_STEP = 1.15;
/** Words further apart than this many ems are separate pieces (cells): pdf-layout's CELL_GAP is 1.2. */
const PIECE_GAP = 1.5;

/** Each page's blocks; heading sizes and the body are judged over all the pages together. */
export function ocrPagesBlocks(layouts: readonly OcrPageLayout[], texts: readonly string[]): RootContent[][] {
  const pages = layouts.map((layout) => (isVertical(layout) ? undefined : toPageRows(ocrStextPage(layout))));
  const style = new StyleTally();
  for (const page of pages)
    if (page)
      style.addPage(
        readingRows(page, () => false),
        1,
      );
  const documentStyle = style.style();
  return pages.map((page, index) =>
    page
      ? pageBlocks(
          readingRows(page, () => false),
          documentStyle,
        )
      : textBlocks(texts[index] ?? ''),
  );
}

/** The lines of an OCR page as mupdf's structured text: one block, each line's pieces its lines. */
export function ocrStextPage(layout: OcrPageLayout): StextPage {
  const lines = layout.lines.filter((line) => line.words.length > 0);
  const heights = lineHeights(lines);
  const usual = median(heights);
  const body = bodySize(lines, usual);
  const sizes = lineSizes(heights, usual, body, bodySpread(heights, usual));
  return {
    width: layout.width * POINTS_A_PIXEL,
    height: layout.height * POINTS_A_PIXEL,
    // One block: paragraphs are told apart by the space between lines (and size), as the
    // engines' own paragraphs are not reliable (tesseract runs a letter's title, salutation and
    // body together), and lines side by side on one baseline join into a row (a table's).
    blocks: [{ type: 'text', lines: lines.flatMap((line, k) => pieces(line, sizes[k] as number)) }],
  };
}

/**
 * The body text's size in points: from its ascent, or from the spacing of its lines where that is
 * less — PP-OCR pads its boxes, so its ascents run a quarter large, while lines of a paragraph
 * stand about 1.2 em apart whatever the engine (the lower quartile of the pitches between
 * lines one above the other: most are inside paragraphs).
 */
function bodySize(lines: readonly OcrLine[], usual: number): number {
  const byAscent = usual / EMS_ASCENT;
  const sorted = [...lines].sort((a, b) => baselineOf(a) - baselineOf(b));
  const pitches = sorted.slice(1).flatMap((line, k) => {
    const above = sorted[k] as OcrLine;
    const overlaps = line.box[0] < above.box[2] && above.box[0] < line.box[2];
    const pitch = baselineOf(line) - baselineOf(above);
    return overlaps && pitch > usual ? [pitch] : [];
  });
  const quartile = [...pitches].sort((a, b) => a - b)[Math.floor(pitches.length / 4)];
  return (quartile === undefined ? byAscent : Math.min(byAscent, quartile / LINE_PITCH)) * POINTS_A_PIXEL;
}

/** The share of the usual ascent within which a line is body text: BODY_SPREAD, or less where the engine's ascents agree closely. */
function bodySpread(heights: readonly number[], usual: number): number {
  const deviation = median(heights.map((height) => Math.abs(height - usual)));
  return Math.min(BODY_SPREAD, Math.max(LEAST_SPREAD, (SPREAD_DEVIATIONS * deviation) / usual));
}

/**
 * Each line's font size in points: body lines (most of them, their heights noisy) all get the
 * body's; larger lines within the spread of one another (a level of headings) one size, at
 * least a heading's step above the body's.
 */
function lineSizes(heights: readonly number[], usual: number, body: number, spread: number): number[] {
  const half = (points: number) => Math.round(points * 2) / 2;
  const least = Math.ceil(half(body) * HEADING_STEP * 2) / 2;
  const ratios = heights.map((height) => height / usual);
  // A line smaller than the body is its own size only beyond BODY_SPREAD: the tighter spread finds
  // headings one step up, but a padded box's noise (PP-OCR's, detected in bands) also runs below.
  const isBody = (ratio: number) => ratio - 1 <= spread && 1 - ratio <= BODY_SPREAD;
  const sizes = ratios.map((ratio) => (isBody(ratio) ? half(body) : half(body * ratio)));
  // The larger lines, smallest first, in runs whose ascents stay within the spread of the run's first.
  const larger = ratios.flatMap((ratio, k) => (ratio - 1 > spread ? [k] : [])).sort((a, b) => (ratios[a] as number) - (ratios[b] as number));
  for (let start = 0; start < larger.length;) {
    let end = start + 1;
    while (end < larger.length && (ratios[larger[end] as number] as number) - (ratios[larger[start] as number] as number) <= spread) end++;
    const run = larger.slice(start, end);
    const size = Math.max(least, half(body * median(run.map((k) => ratios[k] as number))));
    for (const k of run) sizes[k] = size;
    start = end;
  }
  return sizes;
}

/** The line cut where words stand further apart than a column gap, each piece an stext line. */
function pieces(line: OcrLine, size: number): StextLine[] {
  const gap = (PIECE_GAP * size) / POINTS_A_PIXEL;
  const groups: OcrLine['words'][] = [];
  for (const word of line.words) {
    const last = groups.at(-1)?.at(-1);
    if (!last || word.box[0] - last.box[2] > gap) groups.push([word]);
    else groups.at(-1)?.push(word);
  }
  const baseline = baselineOf(line) * POINTS_A_PIXEL;
  // The line's box is its font's, set on its baseline, not OCR's: PP-OCR pads its boxes (a short
  // line's more), which would narrow the space between paragraphs the layout looks for.
  const [top, height] = [baseline - size * (1 - DESCENT), size];
  return groups.map((words) => {
    const [x0, x1] = [Math.min(...words.map((w) => w.box[0])), Math.max(...words.map((w) => w.box[2]))];
    const bbox = { x: x0 * POINTS_A_PIXEL, y: top, w: (x1 - x0) * POINTS_A_PIXEL, h: height };
    return { bbox, font: { size }, x: bbox.x, y: baseline, text: wordsText(words.map((w) => w.text)) };
  });
}

/** Words of one line as text: a space between words, none between two CJK characters. */
function wordsText(words: readonly string[]): string {
  return words.reduce((text, word) => (text === '' ? word : joinsWithoutSpace(text, word) ? text + word : `${text} ${word}`), '');
}

const lineHeight = (line: OcrLine): number => line.box[3] - line.box[1];

/** Where the line stands: its baseline, or its box's bottom less a descent where OCR gave no baseline inside the box. */
function baselineOf(line: OcrLine): number {
  const baseline = (line.baseline[0] + line.baseline[1]) / 2;
  return baseline > line.box[1] && baseline <= line.box[3] ? baseline : line.box[3] - lineHeight(line) * DESCENT;
}

/** From the line's top to its baseline. */
export const ascent = (line: OcrLine): number => baselineOf(line) - line.box[1];

/**
 * A CJK line's height measured by its width: each character is an em wide, where PP-OCR pads a
 * short line's box (a title's or heading's of a few characters) more than its glyphs' height
 * differs from the body's — two-character table cells stood taller than a 16-pt title. The box's
 * ends are padded too: this many box heights come off the width before it is shared out.
 */
const CJK_END_PAD = 0.25;
/** A line with at least this share of CJK characters (and two of them) is measured by its width. */
const CJK_LINE = 0.5;

/**
 * How tall each line's type is, as an ascent in pixels: its ascent; on a page of CJK lines, a CJK
 * line's measured by its width (CJK_END_PAD), and any other line's no taller than the CJK body's
 * (PP-OCR pads a number's box as a short line's: a table's figures stood 1.4× the body).
 */
function lineHeights(lines: readonly OcrLine[]): number[] {
  const byWidth = lines.map(cjkHeight);
  const measured = byWidth.filter((height) => height !== undefined);
  if (measured.length * 2 <= lines.length) return lines.map(ascent);
  const usual = median(measured);
  return lines.map((line, k) => byWidth[k] ?? Math.min(ascent(line), usual));
}

/** A CJK line's height by its width (each character an em), as an ascent; undefined for any other line. */
function cjkHeight(line: OcrLine): number | undefined {
  const chars = [...line.words.map((w) => w.text).join('')].filter((c) => !/\s/.test(c));
  const cjk = chars.filter(isCjkCharacter).length;
  if (cjk < 2 || cjk < CJK_LINE * chars.length) return undefined;
  return ((line.box[2] - line.box[0] - CJK_END_PAD * lineHeight(line)) / chars.length) * EMS_ASCENT;
}

/** Most of the page's lines stand taller than wide with their words stacked: vertical columns. */
function isVertical(layout: OcrPageLayout): boolean {
  const stacked = layout.lines.filter((line) => line.words.length > 1 && lineHeight(line) > 2 * (line.box[2] - line.box[0]));
  return stacked.length * 2 > layout.lines.length;
}

/** An OCR engine's text as paragraphs: blank lines separate them, a paragraph's lines are joined. */
function textBlocks(text: string): RootContent[] {
  return text
    .split(/\n\s*\n/)
    .map((para) =>
      joinLines(
        para
          .split('\n')
          .map((l) => l.trim())
          .filter(Boolean),
      ),
    )
    .filter((para) => para !== '')
    .map((value) => paragraph([{ text: value }]));
}
