// redact on mupdf: Redact annotations over the given areas and over every match of the given
// strings and patterns in each page's text, then mupdf's own applyRedactions, which removes
// what lies under them — glyphs from the content stream, image pixels (blanked), line art the
// box covers — and paints the box. A text match is blanked where the page shows its characters
// (redact/ink.ts), which on a searchable PDF is not where its invisible text lies; text drawn
// off the page is found on the whole plane (whole-plane.ts) and removed too. Matches everywhere
// else in the file are removed by redact/text.ts and redact/objects.ts, and
// redact/verify.ts reads the saved output whole before it is written. The document is saved
// with garbage collection so the old content streams do not survive as unreferenced objects.

import * as mupdf from 'mupdf';
import { ApiError } from '../../../core/errors.js';
import { findMatches, matchersOf, removeMatches, type TextMatcher } from '../../../core/redact-patterns.js';
import type { RedactArea, RedactOptions, RedactResult } from '../engine.js';
import { redactObjects } from './objects.js';
import { removeFromDocumentText } from './text.js';
import { drawAbove, round } from '../tools/page-overlay.js';
import { imageBoxes, inkBox, overlaps } from './ink.js';
import { onWholePlane } from '../tools/whole-plane.js';
import { WORD_GAP } from '../../read/pdf-pieces.js';

/** Save options of a redacted document: unreferenced objects (the old content streams) are dropped. */
export const REDACTED_SAVE = 'encrypt=none,garbage=yes,compress=yes';

export function redactDocument(doc: mupdf.PDFDocument, options: RedactOptions): RedactResult {
  const count = doc.countPages();
  const outside = options.areas.find((area) => area.page > count);
  if (outside) throw new ApiError('INVALID_PAGE_RANGE', `Area on page ${outside.page}, but the document has ${count} page(s)`);
  const matchers = matchersOf(options);
  const touched = new Set<number>();
  let boxes = 0;
  for (let index = 0; index < count; index++) {
    const onPage = redactPage(
      doc,
      index,
      { areas: areasOn(options.areas, index + 1), inImages: areasOn(options.imageAreas, index + 1) },
      matchers,
      options.fill,
    );
    const offPage = matchers.length > 0 ? onWholePlane(doc, index, (page) => removeOffPage(page, matchers)) : 0;
    if (onPage + offPage > 0) touched.add(index + 1);
    boxes += onPage + offPage;
  }
  if (matchers.length === 0)
    return { redactions: boxes, pages: [...touched], removedElsewhere: { annotations: 0, fields: 0, bookmarks: 0, metadata: 0, attachments: 0, other: 0 } };
  const removedElsewhere = removeFromDocumentText(doc, matchers, touched);
  const redact = (text: string) => removeMatches(text, matchers);
  const objects = redactObjects(doc, redact, (text) => findMatches(text, matchers).length > 0, touched);
  const all = { ...removedElsewhere, attachments: objects.attachments, other: objects.objects + objects.appearances };
  const elsewhere = Object.values(all).reduce((sum, n) => sum + n, 0);
  return { redactions: boxes + elsewhere, pages: [...touched].sort((a, b) => a - b), removedElsewhere: all };
}

/** Areas and text matches of one page, removed and painted; how many marks there were. */
function redactPage(
  doc: mupdf.PDFDocument,
  index: number,
  { areas, inImages }: { areas: mupdf.Rect[]; inImages: mupdf.Rect[] },
  matchers: readonly TextMatcher[],
  fill: [number, number, number],
): number {
  const page = doc.loadPage(index);
  try {
    const texts = matchers.length > 0 ? matchQuads(page, matchers) : [];
    if (areas.length + inImages.length + texts.length === 0) return 0;
    // Where each match is seen, found before anything is removed from the page.
    const images = texts.length + inImages.length > 0 ? imageBoxes(page) : [];
    const seen = texts.map((quads) => quads.map((quad) => seenQuad(page, quad, images)));
    const blanks = [...areas.map((rect) => [quadOf(rect)]), ...seen];
    // Matches OCR read in images, whole characters with a margin as the page shows them: only
    // the pixels go (text there, if any, is matched as text).
    const pixels = inImages.map((rect) => [seenQuad(page, quadOf(rect), images)]);
    if (pixels.length > 0) removeUnder(page, pixels, mupdf.PDFPage.REDACT_IMAGE_PIXELS, mupdf.PDFPage.REDACT_LINE_ART_NONE, mupdf.PDFPage.REDACT_TEXT_NONE);
    // Text seen elsewhere than its box (invisible OCR text over a scan) is removed first, leaving
    // the image alone: its box may reach into the line above.
    const moved = texts.filter((quads, i) => quads.some((quad, j) => seen[i]?.[j] !== quad));
    if (moved.length > 0) removeUnder(page, moved, mupdf.PDFPage.REDACT_IMAGE_NONE, mupdf.PDFPage.REDACT_LINE_ART_NONE);
    if (blanks.length > 0) removeUnder(page, blanks, mupdf.PDFPage.REDACT_IMAGE_PIXELS, mupdf.PDFPage.REDACT_LINE_ART_REMOVE_IF_COVERED);
    paintBoxes(doc, page, [...blanks, ...pixels].flat(), fill);
    return blanks.length + pixels.length;
  } finally {
    page.destroy();
  }
}

/** The characters an image shows under a match's quad, with a margin; the quad itself off images or where nothing is drawn. */
function seenQuad(page: mupdf.PDFPage, quad: mupdf.Quad, images: readonly mupdf.Rect[]): mupdf.Quad {
  const bounds = boundsOf([quad]);
  if (!images.some((image) => overlaps(image, bounds))) return quad;
  const ink = inkBox(page, bounds);
  return ink ? quadOf(ink) : quad;
}

/** Text drawn outside the page's boxes (the page is seen whole here): removed, nothing painted. */
function removeOffPage(page: mupdf.PDFPage, matchers: readonly TextMatcher[]): number {
  const marks = matchQuads(page, matchers);
  if (marks.length > 0) removeUnder(page, marks, mupdf.PDFPage.REDACT_IMAGE_PIXELS, mupdf.PDFPage.REDACT_LINE_ART_REMOVE_IF_COVERED);
  return marks.length;
}

function areasOn(areas: readonly RedactArea[], page: number): mupdf.Rect[] {
  return areas.filter((area) => area.page === page).map(({ x, y, width, height }) => [x, y, x + width, y + height]);
}

/**
 * One Redact annotation per mark, applied without mupdf's own boxes (always black: mupdf's
 * Redact annotations take no colour) — paintBoxes draws them in the fill colour.
 */
function removeUnder(
  page: mupdf.PDFPage,
  marks: readonly mupdf.Quad[][],
  images: number,
  lineArt: number,
  text: number = mupdf.PDFPage.REDACT_TEXT_REMOVE,
): void {
  for (const quads of marks) {
    const annot = page.createAnnotation('Redact');
    annot.setRect(boundsOf(quads));
    annot.setQuadPoints([...quads]);
    annot.update();
  }
  page.applyRedactions(false, images, lineArt, text);
}

/** Fills every quad (page space, as a viewer shows the page) in `fill`, above the page's content. */
function paintBoxes(doc: mupdf.PDFDocument, page: mupdf.PDFPage, quads: readonly mupdf.Quad[], fill: [number, number, number]): void {
  const toPdf = mupdf.Matrix.invert(page.getTransform());
  const shapes = quads.map((quad) => {
    const [ul, ur, ll, lr] = [0, 2, 4, 6].map((at) => pointIn(toPdf, quad[at] as number, quad[at + 1] as number));
    return `${ul} m ${ur} l ${lr} l ${ll} l h`;
  });
  drawAbove(doc, page.getObject(), doc.addStream(`q ${fill.map((c) => round(c, 4)).join(' ')} rg\n${shapes.join('\n')}\nf Q\n`, {}));
}

function pointIn([a, b, c, d, e, f]: mupdf.Matrix, x: number, y: number): string {
  return `${round(x * a + y * c + e, 3)} ${round(x * b + y * d + f, 3)}`;
}

function quadOf([x0, y0, x1, y1]: mupdf.Rect): mupdf.Quad {
  return [x0, y0, x1, y0, x0, y1, x1, y1];
}

/** A page's text as one string (lines joined by "\n") with the quad of each character. */
interface PageText {
  text: string;
  /** Per UTF-16 unit of `text`: the quad of its character, null for line breaks. */
  quads: (mupdf.Quad | null)[];
}

/**
 * mupdf.js's walker makes a Font object per character (about 80 µs each): a page whose plain
 * text (asText, fast) holds no match is not walked at all.
 */
function matchQuads(page: mupdf.PDFPage, matchers: readonly TextMatcher[]): mupdf.Quad[][] {
  const stext = page.toStructuredText('preserve-whitespace');
  try {
    if (findMatches(stext.asText(), matchers).length === 0) return [];
    const { text, quads } = readPageText(stext);
    return findMatches(text, matchers).map(({ start, end }) => lineQuads(quads.slice(start, end)));
  } finally {
    stext.destroy();
  }
}

/**
 * The text with the quad of each character, in the order the walker visits them. A gap between
 * two glyphs wider than a word space (WORD_GAP, as the reading stages and pdftotext take it) with
 * no space character reads as a space, its quad the gap: many producers space words by moving
 * the pen, and mupdf joins such words ("bob@example.orghere"), so a match took its neighbours.
 */
function readPageText(stext: mupdf.StructuredText): PageText {
  const result: PageText = { text: '', quads: [] };
  let previous: { char: string; quad: mupdf.Quad; size: number } | null = null;
  stext.walk({
    onChar(char, _origin, _font, size, quad) {
      if (previous && isWordGap(previous, char, quad, size)) {
        result.text += ' ';
        result.quads.push(gapQuad(previous.quad, quad));
      }
      result.text += char;
      for (let i = 0; i < char.length; i++) result.quads.push(quad);
      previous = { char, quad, size };
    },
    endLine() {
      result.text += '\n';
      result.quads.push(null);
      previous = null;
    },
  });
  return result;
}

/** Horizontal text only: the right edge of one glyph to the left edge of the next. */
function isWordGap(previous: { char: string; quad: mupdf.Quad; size: number }, char: string, quad: mupdf.Quad, size: number): boolean {
  if (previous.char.trim() === '' || char.trim() === '') return false;
  return quad[0] - previous.quad[2] > Math.max(previous.size, size) * WORD_GAP;
}

function gapQuad(before: mupdf.Quad, after: mupdf.Quad): mupdf.Quad {
  return [before[2], before[3], after[0], after[1], before[6], before[7], after[4], after[5]];
}

function lineQuads(chars: (mupdf.Quad | null)[]): mupdf.Quad[] {
  const lines: mupdf.Quad[][] = [[]];
  for (const quad of chars) {
    if (quad) lines.at(-1)?.push(quad);
    else lines.push([]);
  }
  return lines.filter((line) => line.length > 0).map(spanQuad);
}

/** From the first character's left edge to the last one's right edge. */
function spanQuad(line: mupdf.Quad[]): mupdf.Quad {
  const first = line[0] as mupdf.Quad;
  const last = line.at(-1) as mupdf.Quad;
  return [first[0], first[1], last[2], last[3], first[4], first[5], last[6], last[7]];
}

function boundsOf(quads: readonly mupdf.Quad[]): mupdf.Rect {
  const xs = quads.flatMap((q) => [q[0], q[2], q[4], q[6]]);
  const ys = quads.flatMap((q) => [q[1], q[3], q[5], q[7]]);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}
