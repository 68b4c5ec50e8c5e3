// Tables from the lines a PDF page draws (wasm/pdf/page-drawing.ts collects them): horizontal
// and vertical rulings are snapped together, rulings that touch form one grid, the grid's cells
// are the spaces between its lines — a cell whose border is missing joins its neighbour, which
// is how a merged cell looks (rowspan/colspan) — and each line of text goes to the cell holding
// its middle. Pure functions over plain data, tested on arrays.

import type { RootContent } from 'mdast';
import { table, textCells, type CellSource } from './blocks.js';
import { blocksToHtml } from './render.js';
import { joinLines } from '../../core/cjk-text.js';
import { linesStyledTexts } from './pdf-piece-style.js';
import { cellBlocks, type CellLine } from './pdf-cell-paragraphs.js';
import { gridGeometry, type Pen } from './pdf-grid-geometry.js';

/** A horizontal (y0 = y1) or vertical (x0 = x1) line, in page coordinates (y down); its pen where the page draws it (a filled box's edges have none). */
export interface Ruling {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  pen?: Pen;
}

/** Where a text object lies and the colour it is filled in ("r,g,b"). */
export interface TextPaint {
  left: number;
  top: number;
  right: number;
  bottom: number;
  color: string;
}

export interface PageDrawing {
  rulings: Ruling[];
  paints: TextPaint[];
}

/** The parts of a structured-text line a grid needs. */
export interface GridLine {
  bbox: { x: number; y: number; w: number; h: number };
  font: { size: number; weight?: string; name?: string; mono?: boolean };
  y: number;
  text: string;
}

export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

declare module 'mdast' {
  interface Data {
    /**
     * A ruled table's cells as the page sets them (pdf-cell-paragraphs.ts), where a cell holds
     * paragraphs or a list: for a writer that keeps them (the editable DOCX); Markdown ignores it.
     */
    pdfCells?: CellSource[][];
    /** Points of space a cell's paragraph stands below the one above past the cell's line pitch (pdf-cell-paragraphs.ts). */
    pdfSpaceAbove?: number;
  }
}

export interface GridTable<L extends GridLine> {
  box: Box;
  table: RootContent;
  /** The text lines the table holds: they are not read again as paragraphs. */
  lines: Set<L>;
}

/** Rulings closer than this (points) are one line; gaps this short along a line are closed. */
const SNAP = 2;
/** Rows or columns narrower than this (points) are slivers between doubled lines, not cells. */
const MIN_CELL = 4;
/** A grid of one column is a table from this many rows, each ruled off: fewer are a framed note. */
const MIN_ROWS_ALONE = 3;
/** Above this many line pairs the page is a drawing, not a table: bounded work. */
export const MAX_PAIRS = 4_000_000;
/** A grid of more cells than this is a drawing (a chart's mesh, graph paper), not a table. */
const MAX_CELLS = 10_000;

/** A merged ruling: its position across, its extent along, and the heaviest pen of its parts. */
export interface Line {
  at: number;
  from: number;
  to: number;
  pen?: Pen;
}

/** A page's rulings merged, horizontal (`at` is y) and vertical (`at` is x). */
export interface MergedRulings {
  horizontal: Line[];
  vertical: Line[];
}

export function mergeRulings(rulings: readonly Ruling[]): MergedRulings {
  return {
    horizontal: mergeLines(rulings.filter((r) => r.y0 === r.y1).map((r) => ({ at: r.y0, from: r.x0, to: r.x1, ...(r.pen && { pen: r.pen }) }))),
    vertical: mergeLines(rulings.filter((r) => r.x0 === r.x1 && r.y0 !== r.y1).map((r) => ({ at: r.x0, from: r.y0, to: r.y1, ...(r.pen && { pen: r.pen }) }))),
  };
}

/** The tables the rulings draw, each with the text lines inside its cells. */
export function rulingTables<L extends GridLine>({ horizontal, vertical }: MergedRulings, lines: readonly L[]): GridTable<L>[] {
  if (!horizontal.length || !vertical.length || horizontal.length * vertical.length > MAX_PAIRS) return [];
  const tables: GridTable<L>[] = [];
  const free = new Set(lines);
  for (const { hs, vs } of touchingGroups(horizontal, vertical)) {
    const grid = gridOf(hs, vs);
    if (!grid) continue;
    const found = fillGrid(grid, [...free]);
    if (!found) continue;
    for (const line of found.lines) free.delete(line);
    tables.push(found);
  }
  return tables;
}

/** The horizontal rulings, merged, that no vertical ruling touches: they may frame a table of their own (booktabs). */
export function loneRules({ horizontal, vertical }: MergedRulings): Line[] {
  if (horizontal.length * vertical.length > MAX_PAIRS) return [];
  return horizontal.filter((h) => !vertical.some((v) => touches(h, v)));
}

/** Rulings at one position (within SNAP) joined where they overlap or nearly meet. */
function mergeLines(lines: Line[]): Line[] {
  const sorted = [...lines].sort((a, b) => a.at - b.at || a.from - b.from);
  const clusters: Line[][] = [];
  for (const line of sorted) {
    const last = clusters.at(-1);
    if (last && line.at - (last[0] as Line).at <= SNAP) last.push(line);
    else clusters.push([line]);
  }
  const out: Line[] = [];
  for (const cluster of clusters) {
    const at = cluster.reduce((s, l) => s + l.at, 0) / cluster.length;
    const byStart = [...cluster].sort((a, b) => a.from - b.from);
    let current: Line | undefined;
    for (const line of byStart) {
      if (current && line.from <= current.to + SNAP) {
        current.to = Math.max(current.to, line.to);
        const pen = heavier(current.pen, line.pen);
        if (pen) current.pen = pen;
      } else {
        current = { at, from: line.from, to: line.to, ...(line.pen && { pen: line.pen }) };
        out.push(current);
      }
    }
  }
  return out;
}

/** The heavier of two pens (a rule drawn over a thinner one shows as the heavier). */
const heavier = (a: Pen | undefined, b: Pen | undefined) => (!a || (b && b.weight > a.weight) ? b : a);

const touches = (h: Line, v: Line) => v.at >= h.from - SNAP && v.at <= h.to + SNAP && h.at >= v.from - SNAP && h.at <= v.to + SNAP;

/** Horizontal and vertical lines in groups that touch each other (union-find). */
export function touchingGroups(horizontal: readonly Line[], vertical: readonly Line[]): { hs: Line[]; vs: Line[] }[] {
  const parent = Array.from({ length: horizontal.length + vertical.length }, (_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i] as number] as number;
    return i;
  };
  horizontal.forEach((h, i) => vertical.forEach((v, j) => touches(h, v) && (parent[find(i)] = find(horizontal.length + j))));
  const groups = new Map<number, { hs: Line[]; vs: Line[] }>();
  const group = (i: number) => groups.get(find(i)) ?? (groups.set(find(i), { hs: [], vs: [] }).get(find(i)) as { hs: Line[]; vs: Line[] });
  horizontal.forEach((h, i) => group(i).hs.push(h));
  vertical.forEach((v, j) => group(horizontal.length + j).vs.push(v));
  return [...groups.values()].filter((g) => g.hs.length && g.vs.length);
}

interface Grid {
  xs: number[];
  ys: number[];
  /** Vertical lines at each column boundary. */
  across: Line[][];
  /** Horizontal lines at each row boundary. */
  down: Line[][];
}

/** Column and row boundaries of a group: its lines, and its extent where an outer line is missing. */
function gridOf(hs: Line[], vs: Line[]): Grid | undefined {
  const xs = boundaries([...vs.map((v) => v.at), Math.min(...hs.map((h) => h.from)), Math.max(...hs.map((h) => h.to))]);
  const ys = boundaries([...hs.map((h) => h.at), Math.min(...vs.map((v) => v.from)), Math.max(...vs.map((v) => v.to))]);
  // At least 2 × 2 cells, or one column of MIN_ROWS_ALONE rows (a sheet's last group of columns,
  // printed on a page of its own), and not so many that the page is a drawing.
  const [cols, rows] = [xs.length - 1, ys.length - 1];
  if (cols < 1 || rows < 2 || (cols < 2 && rows < MIN_ROWS_ALONE) || cols * rows > MAX_CELLS) return undefined;
  return { xs, ys, across: byBoundary(vs, xs), down: byBoundary(hs, ys) };
}

/** The lines at each boundary (within twice SNAP), so a border test looks at those only. */
function byBoundary(lines: readonly Line[], bounds: readonly number[]): Line[][] {
  const out: Line[][] = bounds.map(() => []);
  for (const line of lines) {
    let lo = 0;
    let hi = bounds.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((bounds[mid] as number) < line.at) lo = mid + 1;
      else hi = mid;
    }
    for (const k of [lo - 1, lo]) if (k >= 0 && Math.abs((bounds[k] as number) - line.at) <= SNAP * 2) out[k]?.push(line);
  }
  return out;
}

/** Sorted positions with those closer than MIN_CELL taken as one. */
function boundaries(positions: number[]): number[] {
  const out: number[] = [];
  for (const p of positions.sort((a, b) => a - b)) if (!out.length || p - (out.at(-1) as number) >= MIN_CELL) out.push(p);
  return out;
}

/** Whether the lines at a boundary cover most of [from, to]. */
function ruled(lines: readonly Line[] | undefined, from: number, to: number): boolean {
  let covered = 0;
  for (const line of lines ?? []) covered += Math.max(0, Math.min(to, line.to) - Math.max(from, line.from));
  return covered >= (to - from) * 0.5;
}

interface Cell {
  row: number;
  col: number;
  rowSpan: number;
  colSpan: number;
}

/** The grid's cells, a cell spanning to the right and down while no ruling separates it. */
function cellsOf({ xs, ys, across, down }: Grid): { cells: Cell[]; owner: Cell[][] } {
  const rows = ys.length - 1;
  const cols = xs.length - 1;
  const borderRight = (r: number, c: number) => c + 1 >= cols || ruled(across[c + 1], ys[r] as number, ys[r + 1] as number);
  const borderBelow = (r: number, c: number) => r + 1 >= rows || ruled(down[r + 1], xs[c] as number, xs[c + 1] as number);
  const owner: Cell[][] = Array.from({ length: rows }, () => new Array<Cell>(cols));
  const cells: Cell[] = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      if (owner[r]?.[c]) continue;
      let colSpan = 1;
      while (!borderRight(r, c + colSpan - 1) && !owner[r]?.[c + colSpan]) colSpan++;
      let rowSpan = 1;
      while (Array.from({ length: colSpan }, (_, k) => c + k).every((cc) => !borderBelow(r + rowSpan - 1, cc) && !owner[r + rowSpan]?.[cc])) rowSpan++;
      const cell = { row: r, col: c, rowSpan, colSpan };
      cells.push(cell);
      for (let rr = r; rr < r + rowSpan; rr++) for (let cc = c; cc < c + colSpan; cc++) (owner[rr] as Cell[])[cc] = cell;
    }
  }
  return { cells, owner };
}

/** The heaviest pen among a boundary's lines. */
const heaviestPen = (lines: readonly Line[]) => lines.reduce<Pen | undefined>((pen, line) => heavier(pen, line.pen), undefined);

const indexIn = (bounds: readonly number[], v: number) => {
  for (let i = 0; i + 1 < bounds.length; i++) if (v >= (bounds[i] as number) && v < (bounds[i + 1] as number)) return i;
  return -1;
};

/** The grid as a table, with the text lines whose middle lies in a cell; undefined if not a table. */
function fillGrid<L extends GridLine>(grid: Grid, lines: readonly L[]): GridTable<L> | undefined {
  const { cells, owner } = cellsOf(grid);
  if (cells.length < 2) return undefined;
  const texts = new Map<Cell, L[]>();
  const taken = new Set<L>();
  for (const line of lines) {
    const r = indexIn(grid.ys, line.bbox.y + line.bbox.h / 2);
    const c = indexIn(grid.xs, line.bbox.x + line.bbox.w / 2);
    const cell = r >= 0 && c >= 0 ? owner[r]?.[c] : undefined;
    if (!cell) continue;
    texts.set(cell, [...(texts.get(cell) ?? []), line]);
    taken.add(line);
  }
  // A frame around a paragraph or two is not a table, nor is a box around a layout of its own.
  if (texts.size < 2 || [...texts.values()].some(holdsColumns)) return undefined;
  const rows = grid.ys.length - 1;
  const cols = grid.xs.length - 1;
  const sources: CellSource[][] = Array.from({ length: rows }, () =>
    Array.from({ length: cols }, () => ({ blocks: [], colSpan: 1, rowSpan: 1, covered: true })),
  );
  const styles = linesStyledTexts(taken);
  // The cells as the editable DOCX keeps them: paragraphs and lists where a cell sets them.
  const kept = sources.map((row) => [...row]);
  let structured = false;
  for (const cell of cells) {
    const [plain = { blocks: [] }] = textCells([cellText(texts.get(cell) ?? [])], styles);
    const source = { ...plain, colSpan: cell.colSpan, rowSpan: cell.rowSpan };
    (sources[cell.row] as CellSource[])[cell.col] = source;
    const blocks = cellBlocks(cellLines(texts.get(cell) ?? []), cellRight(grid, cell, texts.get(cell) ?? []));
    (kept[cell.row] as CellSource[])[cell.col] = blocks ? { ...source, blocks } : source;
    structured ||= blocks !== undefined;
  }
  const box = { left: grid.xs[0] as number, right: grid.xs.at(-1) as number, top: grid.ys[0] as number, bottom: grid.ys.at(-1) as number };
  const found = table(sources, blocksToHtml);
  const geometry = gridGeometry(
    grid.xs,
    grid.ys,
    cells.map((cell) => ({ left: grid.xs[cell.col] as number, row: cell.row, lines: texts.get(cell) ?? [] })),
    {
      rows: grid.down.map(heaviestPen),
      all: [...grid.across, ...grid.down].flatMap((lines) => lines.flatMap((line) => (line.pen ? [{ ...line.pen, length: line.to - line.from }] : []))),
    },
  );
  const noted =
    structured || geometry ? { ...found, data: { ...found.data, ...(structured && { pdfCells: kept }), ...(geometry && { pdfGrid: geometry }) } } : found;
  return { box, table: noted, lines: taken };
}

/** A cell's visual lines, top to bottom, for cellBlocks. */
function cellLines(lines: readonly GridLine[]): CellLine[] {
  return visualLines(lines)
    .map((pieces) => ({
      text: joinLines(pieces.map((p) => p.text.trim())),
      left: Math.min(...pieces.map((p) => p.bbox.x)),
      right: Math.max(...pieces.map((p) => p.bbox.x + p.bbox.w)),
      size: Math.max(...pieces.map((p) => p.font.size)),
      y: (pieces[0] as GridLine).y,
    }))
    .filter((line) => line.text !== '');
}

/** Where a cell's text may run to: its right ruling less the padding its text keeps from its left one. */
function cellRight({ xs }: Grid, cell: Cell, lines: readonly GridLine[]): number {
  const [left, right] = [xs[cell.col] as number, xs[cell.col + cell.colSpan] as number];
  const padding = Math.max(0, Math.min(...lines.map((l) => l.bbox.x)) - left);
  return right - padding;
}

/** The lines of a cell as visual lines (pieces on one baseline, left to right), top to bottom. */
export function visualLines(lines: readonly GridLine[]): GridLine[][] {
  const sorted = [...lines].sort((a, b) => a.y - b.y || a.bbox.x - b.bbox.x);
  const visual: GridLine[][] = [];
  for (const line of sorted) {
    const last = visual.at(-1);
    if (last && Math.abs((last[0] as GridLine).y - line.y) <= Math.max(2, line.font.size * 0.3)) last.push(line);
    else visual.push([line]);
  }
  return visual.map((pieces) => pieces.sort((a, b) => a.bbox.x - b.bbox.x));
}

/**
 * Whether a cell holds columns of its own: two or more visual lines split by wide gaps (a form's
 * labels and values inside one ruled box). Such a grid frames a layout, and the aligned-column
 * reading of its text does better than its few lines.
 */
function holdsColumns(lines: readonly GridLine[]): boolean {
  const split = (pieces: readonly GridLine[]) =>
    pieces.some((p, i) => i > 0 && p.bbox.x - ((pieces[i - 1] as GridLine).bbox.x + (pieces[i - 1] as GridLine).bbox.w) > p.font.size * 1.5);
  return visualLines(lines).filter(split).length >= 2;
}

/** A cell's text in reading order: pieces on one baseline joined, then the visual lines. */
function cellText(lines: readonly GridLine[]): string {
  return joinLines(cellLines(lines).map((line) => line.text))
    .replace(/\s+/g, ' ')
    .trim();
}
