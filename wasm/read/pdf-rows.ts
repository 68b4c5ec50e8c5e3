// Stage 1 of PDF reading: a page's lines (mupdf's structured text, cut into pieces by
// pdf-pieces.ts) into rows — the lines of a block on one baseline, in reading order (right to
// left where the row's script runs so), with the cells they stand apart in, their size, weight,
// font and colour; a table ruled by the drawing's lines (pdf-grid.ts, pdf-rules.ts) stands as
// one row where it lies. Pure functions over plain data, tested on arrays.

import { BOLD_FONT_NAME, MONOSPACE } from './blocks.js';
import { keepShared, lineStyle } from './pdf-piece-style.js';
import { loneRules, mergeRulings, rulingTables, type GridTable, type PageDrawing, type TextPaint } from './pdf-grid.js';
import { CELL_GAP, type PageRows, type Row, type StextLine, type StextPage } from './pdf-page-model.js';
import { ruleTables } from './pdf-rules.js';
import { outlinedCells } from './pdf-cell-outlines.js';

/** The page's rows in mupdf's order; a table ruled by the drawing's lines is one row, where its first line was. */
export function pageRows(page: StextPage, drawing: PageDrawing = { rulings: [], paints: [] }): Row[] {
  const lines = page.blocks.flatMap((block, index) =>
    block.type === 'text' && block.lines
      ? block.lines
          .map(withoutControls)
          .filter((l) => l.text.trim() !== '')
          .map((line) => ({ line, block: index }))
      : [],
  );
  // Cells outlined one by one (pdf-cell-outlines.ts) met into one grid.
  const rulings = outlinedCells(mergeRulings(drawing.rulings));
  const grids = rulingTables(
    rulings,
    lines.map((l) => l.line),
  );
  const inGrids = new Set(grids.flatMap((t) => [...t.lines]));
  const tables = [
    ...grids,
    ...ruleTables(
      loneRules(rulings),
      lines.map((l) => l.line).filter((l) => !inGrids.has(l)),
    ),
  ];
  const tableOf = new Map<StextLine, GridTable<StextLine>>();
  for (const t of tables) for (const line of t.lines) tableOf.set(line, t);
  const paints = paintIndex(drawing.paints);
  // Rows being gathered, in order: a ruled table stands for all its lines; a row keeps its block.
  const items: ({ table: GridTable<StextLine>; block: number } | { lines: StextLine[]; block: number })[] = [];
  const placed = new Set<GridTable<StextLine>>();
  let blockStart = 0;
  for (const { line, block } of lines) {
    const table = tableOf.get(line);
    if (table) {
      if (!placed.has(table)) items.push({ table, block });
      placed.add(table);
      blockStart = items.length;
      continue;
    }
    const last = items.at(-1);
    if (last && last.block !== block) blockStart = items.length;
    const rowsOf = items.slice(blockStart).filter((i): i is { lines: StextLine[]; block: number } => 'lines' in i);
    const same = rowsOf.find((g) => sameBaseline(g.lines, line)) ?? (blockStart === items.length ? besideRow(items, line) : undefined);
    if (same) same.lines.push(line);
    else items.push({ lines: [line], block });
  }
  const rows = items.map((i) => ('table' in i ? tableRow(i.table, i.block) : toRow(inReadingOrder(i.lines), i.block, paints)));
  return withCodeLedHeadings(rows);
}

/** A bold code row this much taller, for its size, than the page's rows are holds larger text. */
const TALLER = 1.15;

/**
 * Headings that open with code ("## `--timeout` 选项"): mupdf gives a line one font, its first
 * glyph's, so such a row reads as monospaced, in the code's smaller size. Its box, taller for
 * that size than the page's rows are, tells the heading's size; a code block's rows are not bold.
 */
function withCodeLedHeadings(rows: Row[]): Row[] {
  const ratios = rows
    .filter((r) => !r.table && r.size > 0)
    .map((r) => (r.bottom - r.top) / r.size)
    .sort((a, b) => a - b);
  const usual = ratios[Math.floor(ratios.length / 2)];
  if (usual === undefined) return rows;
  return rows.map((r) =>
    r.mono && r.bold && !r.table && r.bottom - r.top > r.size * usual * TALLER ? { ...r, mono: false, size: (r.bottom - r.top) / usual } : r,
  );
}

const sameBaseline = (row: readonly StextLine[], line: StextLine) => Math.abs((row[0] as StextLine).y - line.y) <= Math.max(2, line.font.size * 0.3);

/** Rows of this many blocks back may take a later block's line on their baseline: a table row's cells. */
const CELL_BLOCKS = 4;

/**
 * The row, among those of the last few blocks, whose baseline the first line of a new block
 * stands on, clear of its lines and in their size: another cell of a table row. mupdf makes a
 * block of each cell whose text wraps, so a row's cells come block after block (the first cell's
 * lines, then the next cell's); they are one row, as the cells of a row whose text does not
 * wrap are one mupdf line. A heading beside a masthead's line is in another size.
 */
function besideRow(items: readonly ({ lines: StextLine[]; block: number } | { block: number })[], line: StextLine): { lines: StextLine[] } | undefined {
  const blocks = new Set<number>();
  for (let k = items.length - 1; k >= 0; k--) {
    const item = items[k] as (typeof items)[number];
    blocks.add(item.block);
    if (blocks.size > CELL_BLOCKS) return undefined;
    if (!('lines' in item) || !sameBaseline(item.lines, line)) continue;
    const clear = item.lines.every(
      (l) => (l.bbox.x + l.bbox.w <= line.bbox.x || line.bbox.x + line.bbox.w <= l.bbox.x) && Math.abs(l.font.size - line.font.size) <= line.font.size * 0.15,
    );
    return clear ? item : undefined;
  }
  return undefined;
}

/** Control characters are never text: a dingbat font's bullet can come out as one (U+0084). */
const withoutControls = (line: StextLine): StextLine => ({ ...line, text: line.text.replace(/\p{Cc}/gu, (c) => (/\s/.test(c) ? ' ' : '')) });

function tableRow(found: GridTable<StextLine>, block: number): Row {
  const sizes = [...found.lines].map((l) => l.font.size).sort((a, b) => a - b);
  const { left, top, right, bottom } = found.box;
  return {
    text: '',
    x: left,
    y: top,
    top,
    bottom,
    right,
    size: sizes[Math.floor(sizes.length / 2)] ?? 10,
    bold: false,
    font: '',
    mono: false,
    block,
    cells: [],
    pieces: [],
    // Drawn with lines (a grid, or rules): an editable document draws its borders (pdf-layout.ts).
    table: { ...found.table, data: { ...found.table.data, pdfRuled: true } },
  };
}

/** Text paints bucketed by height, to find a row's colour without scanning the page. */
type PaintIndex = Map<number, TextPaint[]>;
const BUCKET = 16;
function paintIndex(paints: readonly TextPaint[]): PaintIndex {
  const index: PaintIndex = new Map();
  for (const paint of paints) {
    for (let key = Math.floor(paint.top / BUCKET); key <= Math.floor(paint.bottom / BUCKET); key++) index.set(key, [...(index.get(key) ?? []), paint]);
  }
  return index;
}

/**
 * The colour of the row: that of the text object holding its middle whose own middle is nearest.
 * Text bounds come from font boxes, taller than the glyphs (a CJK font's reach into the lines
 * around), and a producer may set a page in one text object: the nearest is the row's own.
 */
function rowColor(index: PaintIndex, box: { left: number; top: number; right: number; bottom: number }): string | undefined {
  const x = (box.left + box.right) / 2;
  const y = (box.top + box.bottom) / 2;
  let best: { paint: TextPaint; distance: number } | undefined;
  for (const p of index.get(Math.floor(y / BUCKET)) ?? []) {
    if (x < p.left - 1 || x > p.right + 1 || y < p.top - 1 || y > p.bottom + 1) continue;
    const distance = Math.abs((p.top + p.bottom) / 2 - y) + Math.abs((p.left + p.right) / 2 - x) * 0.1;
    if (!best || distance < best.distance) best = { paint: p, distance };
  }
  return best?.paint.color;
}

/**
 * The pieces of one row in reading order: left to right, or right to left where most of their
 * letters are of a right-to-left script — there a run of Latin or code breaks mupdf's line, and
 * the row's first piece (a bullet, a table's first column) is the rightmost.
 */
function inReadingOrder(lines: StextLine[]): { lines: StextLine[]; rtl: boolean } {
  const rtl = lines.length > 1 && isRightToLeft(lines.map((l) => l.text).join(''));
  return { lines: lines.sort(rtl ? (a, b) => b.bbox.x + b.bbox.w - (a.bbox.x + a.bbox.w) : (a, b) => a.x - b.x), rtl };
}

const isBold = (l: StextLine) => l.font.weight === 'bold' || BOLD_FONT_NAME.test(l.font.name ?? '');

/** The bold text a row's pieces start with (after a marker without letters: a bullet, a number's dot), where more of the row follows in another weight. */
function boldLead(lines: readonly StextLine[]): { boldLead?: string } {
  const start = lines.findIndex((l) => /\p{L}/u.test(l.text));
  // A piece that starts bold and goes on regular: its own lead.
  const own = lines[start]?.boldLead;
  if (own !== undefined) return { boldLead: own };
  const end = lines.findIndex((l, k) => k >= start && !isBold(l));
  if (start < 0 || end <= start || !lines.slice(end).some((l) => /\p{L}/u.test(l.text))) return {};
  // Pieces joined as the row's text joins them: a space where they stand apart.
  const lead = lines
    .slice(start, end)
    .reduce((text, l, k, all) => {
      const before = all[k - 1];
      return text + (before && l.bbox.x - (before.bbox.x + before.bbox.w) > l.font.size * 0.2 ? ' ' : '') + l.text;
    }, '')
    .replace(/\s+/g, ' ')
    .trim();
  return lead ? { boldLead: lead } : {};
}

function toRow({ lines, rtl }: { lines: StextLine[]; rtl: boolean }, block: number, paints: PaintIndex): Row {
  let text = '';
  let end = rtl ? Infinity : -Infinity;
  const cells: Row['cells'] = [];
  for (const line of lines) {
    // The room between this piece and the one before it in reading order.
    const gap = rtl ? end - (line.bbox.x + line.bbox.w) : line.bbox.x - end;
    if (!cells.length || gap > line.font.size * CELL_GAP) cells.push({ x: line.bbox.x, right: line.bbox.x, text: '', ...lineStyle(line) });
    const cell = cells.at(-1) as Row['cells'][number];
    cell.x = Math.min(cell.x, line.bbox.x);
    cell.right = Math.max(cell.right, line.bbox.x + line.bbox.w);
    keepShared(cell, lineStyle(line));
    if (cell.text && gap > line.font.size * 0.2) cell.text += ' ';
    cell.text += line.text;
    if (text && gap > line.font.size * 0.2 && !text.endsWith(' ')) text += ' ';
    text += line.text;
    end = rtl ? line.bbox.x : line.bbox.x + line.bbox.w;
  }
  for (const cell of cells) cell.text = cell.text.replace(/\s+/g, ' ').trim();
  const chars = (l: StextLine) => l.text.trim().length;
  const total = lines.reduce((n, l) => n + chars(l), 0);
  const boldChars = lines.filter(isBold).reduce((n, l) => n + chars(l), 0);
  const monoChars = lines.filter(isMono).reduce((n, l) => n + chars(l), 0);
  const fonts = new Map<string, number>();
  for (const l of lines) fonts.set(fontName(l), (fonts.get(fontName(l)) ?? 0) + chars(l));
  const box = {
    left: Math.min(...lines.map((l) => l.bbox.x)),
    top: Math.min(...lines.map((l) => l.bbox.y)),
    right: Math.max(...lines.map((l) => l.bbox.x + l.bbox.w)),
    bottom: Math.max(...lines.map((l) => l.bbox.y + l.bbox.h)),
  };
  const color = rowColor(paints, box);
  return {
    text: text.replace(/\s+/g, ' ').trim(),
    x: box.left,
    y: (lines[0] as StextLine).y,
    top: box.top,
    bottom: box.bottom,
    right: box.right,
    // The size most of the row's characters have: a large bullet or initial does not make it a heading.
    size: mostCharacters(lines, (l) => l.font.size) ?? (lines[0] as StextLine).font.size,
    bold: boldChars * 2 > total,
    ...(boldChars * 2 > total && (total - boldChars) * LEAD_IN_SHARE >= total && { leadsIn: true }),
    ...(!rtl && boldLead(lines)),
    font: [...fonts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '',
    mono: monoChars * 2 > total,
    ...(color !== undefined && { color }),
    block,
    cells: cells.filter((c) => c.text !== ''),
    pieces:
      lines.length > 1
        ? lines.map((l) => ({
            x: l.bbox.x,
            right: l.bbox.x + l.bbox.w,
            text: l.text,
            ...(isMono(l) && { mono: true as const }),
            ...lineStyle(l),
          }))
        : [],
  };
}

/** The value most of the lines' characters have (the larger on a tie). */
function mostCharacters(lines: readonly StextLine[], value: (line: StextLine) => number): number | undefined {
  const weight = new Map<number, number>();
  for (const l of lines) weight.set(value(l), (weight.get(value(l)) ?? 0) + l.text.trim().length);
  return [...weight.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]?.[0];
}

/** A font's name without the subset tag (ABCDEF+) a PDF gives each embedded subset. */
const fontName = (line: StextLine) => (line.font.name ?? '').replace(/^[A-Z]{6}\+/, '');
/** mupdf's JSON says monospace in the font's family, the character walk in `mono` (pdf-pieces.ts). */
const isMono = (line: StextLine) => line.font.mono === true || line.font.family === 'monospace' || MONOSPACE.test(line.font.name ?? '');

/** A row whose regular-weight characters are at least 1/LEAD_IN_SHARE of it, after a bold majority, leads into its paragraph. */
const LEAD_IN_SHARE = 5;

/** Letters of the right-to-left scripts (Hebrew, Arabic, Syriac, Thaana, N'Ko and their presentation forms). */
const RTL_LETTER = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/g;
const LTR_LETTER = /[A-Za-z\u00C0-\u024F\u0370-\u03FF\u0400-\u04FF]/g;

/** Text mostly in a right-to-left script. */
export const isRightToLeft = (text: string) => (text.match(RTL_LETTER)?.length ?? 0) > (text.match(LTR_LETTER)?.length ?? 0);

/** The rows of one page, so its structured text can be dropped before the next page is read. */
export const toPageRows = (page: StextPage, drawing?: PageDrawing): PageRows => ({ rows: pageRows(page, drawing), width: page.width, height: page.height });
