// The text style of scanned pages, for an editable document: the body's size and a face whose
// letters run as wide as the scan's, the headings' sizes, and each page's margins, measured on
// what OCR found. The page model (ocr-page.ts) sizes lines only to tell headings from the body;
// here the size is what the page was set in, so the DOCX's lines break and fill as the scan's.

import type { RootContent } from 'mdast';
import type { OcrLine, OcrPageLayout } from '../../../core/ocr-layout.js';
import { isCjkCharacter } from '../../../core/cjk-text.js';
import { median } from '../../../core/median.js';
import { ascent as ascentOf, DESCENT as OCR_DESCENT, POINTS_A_PIXEL } from '../ocr-page.js';
import type { PdfTextStyle } from '../pdf-layout.js';
import type { EditableModel, EditablePage } from './model.js';

/**
 * Faces a scan's body is set in, told apart by how wide their letters run for their height: a
 * line's ascent (its tallest letters' top to the baseline) and its width a character, in ems, as
 * tesseract measures them on 200-dpi scans of each face at 12 pt (`ascent`), and their share
 * (`width` / `ascent`). The names are the PDF's, as the writer's fontFamily reads them.
 * `lineAscent`: a line's top to its baseline, in ems, as LibreOffice sets a line of the face (its
 * hhea ascender: Liberation Serif's, Liberation Sans's, DejaVu Sans's), as a text layer's line box
 * reaches too.
 */
const FACES = [
  { font: 'TimesNewRoman', ascent: 0.72, width: 0.397, lineAscent: 0.891 },
  { font: 'Arial', ascent: 0.74, width: 0.436, lineAscent: 0.905 },
  { font: 'DejaVuSans', ascent: 0.77, width: 0.499, lineAscent: 0.928 },
] as const;
/** Lines of at least this many characters measure the width a character: shorter ones are words, numbers, a table's cells. */
const MEASURED_LINE = 40;
/** Where no line is that long, lines of at least this many: fewer are a number, a label, a table's cell. */
const SHORT_LINE = 8;
/** Most of a line's characters CJK: each is an em wide, so its width over its characters is its size. */
const CJK_SHARE = 0.5;
/** A page's margins are taken within a quarter inch and two inches, as a PDF page's (read-task.ts). */
const MARGIN_RANGE = [18, 144] as const;
/**
 * Word's margin, an inch: a side whose text stands within NEAR_INCH points of it has it. OCR's
 * boxes stand a few points off the glyphs (PP-OCR's cut a line's last character short by up to
 * 8 pt), and a text column a few points narrower than the page's breaks its lines elsewhere.
 */
const INCH = 72;
const NEAR_INCH = 12;
/** The part of a line under its baseline, in ems, for the bottom margin. */
const DESCENT = 0.21;

type Style = Pick<EditableModel, 'body' | 'headingSizes'>;
type Body = NonNullable<Style['body']> & { lineAscent?: number };

/** Scanned pages for an editable document: each page's blocks and margins, and the text style over them all. */
export interface ScanPages extends Style {
  blocks: RootContent[][];
  margins: EditablePage['margins'][];
}

/** The scanned pages' body and heading sizes (their blocks' sizes set to them), and each page's margins. */
export function scanStyle(layouts: readonly OcrPageLayout[], pages: readonly RootContent[][]): Omit<ScanPages, 'blocks'> {
  const lines = layouts.flatMap((layout) => layout.lines.filter((line) => line.words.length > 0));
  const measuredBody = bodyOf(lines);
  if (measuredBody?.lineAscent !== undefined) raiseTables(pages.flat(), (measuredBody.lineAscent - (1 - OCR_DESCENT)) * measuredBody.size);
  const margins = pages.map((blocks, k) => pageMargins(blocks, layouts[k] ?? { width: 0, height: 0, lines: [] }));
  const measured = median(pages.flat().flatMap((block) => (block.type === 'paragraph' && block.data?.pdfText?.size) || []));
  if (!measuredBody || !(measured > 0)) return { margins };
  const body = { size: measuredBody.size, font: measuredBody.font };
  // The page model's sizes, one for the body and one a level of headings, scaled to the body's.
  const scale = body.size / measured;
  const half = (points: number) => Math.round(points * scale * 2) / 2;
  for (const block of pages.flat()) for (const text of texts(block)) text.size = half(text.size);
  return { body, headingSizes: headingSizes(pages.flat()), margins };
}

/**
 * Each table's top and its rows' `points` higher, from the top of their lines as the body's face
 * sets them. The writer keeps the space above a table from its first row's top, which a text
 * layer gives as its face's ascent over the baseline; an OCR line's box (ocr-page.ts) stands only
 * 1 − OCR_DESCENT ems over it, so a scan's table stood that much lower under the text above it
 * than the scan's (an eighth of an em with DejaVu Sans: 1.5 pt at 12 pt, every table down the
 * page a step lower). A page that starts with a table takes its top margin from it the same way.
 */
function raiseTables(blocks: readonly RootContent[], points: number): void {
  for (const block of blocks) {
    const table = block.data?.pdfTable;
    if (!table) continue;
    table.top -= points;
    if (table.rowTops) table.rowTops = table.rowTops.map((top) => top - points);
  }
}

/**
 * The body's size and face: CJK lines' width over their characters (each an em); else the face
 * whose width for its ascent is nearest the lines' (long lines: a paragraph's), at the size its
 * ascent gives.
 */
function bodyOf(lines: readonly OcrLine[]): Body | undefined {
  const texts = lines.map((line) => ({ line, text: line.words.map((w) => w.text).join(' ') }));
  const atLeast = (characters: number) => texts.filter(({ text }) => [...text].length >= characters);
  // A page of short lines only (a heading and a line or two under each) is measured on those.
  const long = atLeast(MEASURED_LINE).length > 0 ? atLeast(MEASURED_LINE) : atLeast(SHORT_LINE);
  const cjk = long.filter(({ text }) => cjkShare(text) > CJK_SHARE);
  if (cjk.length * 2 > long.length && cjk.length > 0) {
    const ems = median(cjk.map(({ line, text }) => ((line.box[2] - line.box[0]) * POINTS_A_PIXEL) / [...text.replace(/\s/g, '')].length));
    // The writer sets CJK text in its East Asian face whatever the body's.
    return { size: Math.round(ems * 2) / 2, font: '' };
  }
  if (long.length === 0) return undefined;
  const ascent = median(long.map(({ line }) => ascentOf(line))) * POINTS_A_PIXEL;
  const width = median(long.map(({ line, text }) => ((line.box[2] - line.box[0]) * POINTS_A_PIXEL) / [...text].length));
  const face = FACES.reduce((best, f) =>
    Math.abs(Math.log(width / ascent / (f.width / f.ascent))) < Math.abs(Math.log(width / ascent / (best.width / best.ascent))) ? f : best,
  );
  return { size: Math.round((ascent / face.ascent) * 2) / 2, font: face.font, lineAscent: face.lineAscent };
}

const cjkShare = (text: string) => {
  const chars = [...text.replace(/\s/g, '')];
  return chars.filter(isCjkCharacter).length / Math.max(1, chars.length);
};

/** The page model's text styles of a block: a paragraph's or heading's, a list's items'. */
function texts(block: RootContent): PdfTextStyle[] {
  const own = block.data?.pdfText;
  if (own) return [own];
  return 'children' in block ? (block.children as RootContent[]).flatMap(texts) : [];
}

/** Heading sizes by level: the size most of each level's headings have. */
function headingSizes(blocks: readonly RootContent[]): number[] | undefined {
  const sizes: number[] = [];
  for (let depth = 1; depth <= 6; depth++) {
    const found = blocks.flatMap((b) => (b.type === 'heading' && b.depth === depth && b.data?.pdfText?.size) || []);
    if (found.length === 0) break;
    sizes.push(median(found));
  }
  return sizes.length ? sizes : undefined;
}

/** Points from each edge to the page's text, as its blocks stand (none without text). */
function pageMargins(blocks: readonly RootContent[], layout: OcrPageLayout): EditablePage['margins'] {
  const boxes = blocks.flatMap((block) => {
    const table = block.data?.pdfTable;
    if (table) return [table];
    return texts(block).map((text) => ({
      left: text.left,
      right: text.right,
      top: text.baseline - text.size,
      bottom: text.lastBaseline + DESCENT * text.size,
    }));
  });
  if (boxes.length === 0) return undefined;
  const clamp = (points: number) => (Math.abs(points - INCH) <= NEAR_INCH ? INCH : Math.round(Math.min(MARGIN_RANGE[1], Math.max(MARGIN_RANGE[0], points))));
  const [width, height] = [layout.width * POINTS_A_PIXEL, layout.height * POINTS_A_PIXEL];
  return {
    top: clamp(Math.min(...boxes.map((b) => b.top))),
    right: clamp(width - Math.max(...boxes.map((b) => b.right))),
    bottom: clamp(height - Math.max(...boxes.map((b) => b.bottom))),
    left: clamp(Math.min(...boxes.map((b) => b.left))),
  };
}
