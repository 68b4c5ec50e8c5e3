// The borderless-table detector of PDF reading: rows whose pieces of text keep to the same
// columns — bands of x that no piece crosses, with text on both sides — across three rows or
// more are a table, as a word processor draws one without borders (a software manual's
// parameter table). A cell's wrapped lines are merged into the cell; prose, whose lines run
// across any band, never forms one. Pure functions over plain data, so they are tested on arrays.

import { joinLines } from '../../core/cjk-text.js';
import type { PieceStyle } from './pdf-piece-style.js';
import { isNumber } from './pdf-table-columns.js';
import { columnLimits, roomAbove, type Extent, type TableLine } from './pdf-table-wraps.js';
import { isLeadInLine, rowGaps } from './pdf-lead-in.js';
import { headerLinesAbove, type HeaderLines } from './pdf-header-lines.js';
import { brokenInWord, type CellLine } from './pdf-word-breaks.js';

/**
 * A piece of text on a row: what stood apart from its neighbours (pdf-pieces.ts). Its style, every
 * glyph's by the character walk (pdf-piece-style.ts): `code` a code span in a table's cell.
 */
export interface Piece extends PieceStyle {
  x: number;
  right: number;
  text: string;
  /** Set in a monospaced font: code. */
  mono?: true;
}

/** What the detector reads of a row. */
export interface BorderlessRow {
  /** Baseline. */
  y: number;
  top: number;
  bottom: number;
  size: number;
  pieces: readonly Piece[];
  /** Rows that cannot be in a table: list items, ruled tables already found. */
  excluded: boolean;
}

/** A free band between columns must stay at least this many ems wide (LibreOffice's cell padding: ~0.35 em). */
const MIN_GUTTER = 0.3;
/** A row more than this many ems below the one above is not in its table (paragraph spacing ends a table). */
const MAX_ROW_GAP = 1.2;
/** Room above a row of this many ems, twice the widest between the rows before, is a paragraph's spacing (LibreOffice: 0.21 cm and more; rows of a borderless table: a few points). */
const PARAGRAPH_GAP = 0.4;
/** Rows of one table are set in one size, within this share. */
const SIZE_TOLERANCE = 0.15;
/** A table has at least this many rows with text in two columns or more. */
const MIN_FILLED_ROWS = 3;
/**
 * Baseline pitches that differ by less than this many ems are one spacing: a cell's wrapped
 * lines and the table's rows are not told apart by spacing, only by the first column.
 */
const UNIFORM_PITCH = 0.2;

interface Gutter {
  from: number;
  to: number;
  /** Rows with text on both sides of the band. */
  support: number;
  /** Rows whose piece left of the band ends at its left edge: numbers set flush right. */
  flush: number;
}

/** Pieces ending within this many points of one another end flush (numbers set flush right). */
const FLUSH = 0.5;
/** A band narrower than MIN_GUTTER stays a gutter when this many rows' numbers end flush at its left edge. */
const FLUSH_ROWS = 3;

export interface BorderlessTable {
  /** Index of the table's first row and one past its last. */
  start: number;
  end: number;
  /** Logical rows of cell texts, the first the header. */
  cells: string[][];
  /** A column stands apart only by a band narrower than MIN_GUTTER, which numbers set flush right hold open. */
  tight?: true;
  /** The rows from `start` that are the header row's lines (pdf-header-lines.ts) over the rows that keep to the columns. */
  upper?: number;
  /** The rows' spacing joins a line with text in the first column into the row above (a wrapped name), which a reading by the first column splits off. */
  wrapsFirstColumn?: true;
}

/** The free bands between the pieces of a row: its gaps of MIN_GUTTER or wider. */
function gapsOf(row: BorderlessRow): Gutter[] {
  const pieces = [...row.pieces].sort((a, b) => a.x - b.x);
  const out: Gutter[] = [];
  for (let k = 1; k < pieces.length; k++) {
    const from = (pieces[k - 1] as Piece).right;
    const to = (pieces[k] as Piece).x;
    if (to - from >= row.size * MIN_GUTTER) out.push({ from, to, support: 1, flush: 0 });
  }
  return out;
}

/**
 * The gutters narrowed by a row's pieces; a gutter a piece runs across (or narrows below the
 * minimum) is dropped when no other row has stood on both its sides yet, else the row does not
 * fit (undefined).
 */
function narrowed(gutters: readonly Gutter[], row: BorderlessRow): Gutter[] | undefined {
  const out: Gutter[] = [];
  for (const g of gutters) {
    let { from, to, flush } = g;
    let left = false;
    let right = false;
    // The piece that ends closest left of the band, when it is a number (set flush right).
    let number: Piece | undefined;
    for (const p of row.pieces) {
      if (p.right <= from) {
        left = true;
        if (from - p.right <= FLUSH && isNumber(p.text)) number = p;
      } else if (p.x >= to) right = true;
      else if (p.x <= (from + to) / 2 && p.right < to) {
        from = p.right;
        left = true;
        flush = 0;
        number = isNumber(p.text) ? p : undefined;
      } else if (p.x > (from + to) / 2 && p.x > from) {
        to = p.x;
        right = true;
      } else from = to; // runs across the band
    }
    if (number) flush++;
    // A band a number narrowed stays while it is free: numbers set flush right may stand closer to
    // the next column's text than any gap (zh-sales: 2 pt); growRun keeps it when they end flush.
    if (to - from >= row.size * MIN_GUTTER || (to > from && number)) out.push({ from, to, support: g.support + (left && right ? 1 : 0), flush });
    else if (g.support >= 2) return undefined;
  }
  return out;
}

/** A band at most this many ems wide may be a word space (LibreOffice's between Han and Latin words: 0.32 em). */
const WORD_SPACE = 0.4;

/**
 * The gutters without those that are a space inside one row's cell: a band no wider than a word
 * space whose column on its right only one row fills ("DataX 速度 (Rec/s)" over numbers: every
 * row leaves the band free, but only the header has text between it and the next gutter).
 */
function withoutWordSpaces(gutters: readonly Gutter[], run: readonly BorderlessRow[], size: number): Gutter[] {
  return gutters.filter((g, i) => {
    if (g.to - g.from > size * WORD_SPACE) return true;
    const next = gutters[i + 1]?.from ?? Infinity;
    return run.filter((row) => row.pieces.some((p) => p.x >= g.to - 0.5 && p.x < next)).length > 1;
  });
}

/** A band narrower than MIN_GUTTER that numbers ending flush at its left edge do not hold open. */
const looseNarrow = (g: Gutter, size: number) => g.to - g.from < size * MIN_GUTTER && g.flush < FLUSH_ROWS;

const columnOf = (gutters: readonly Gutter[], piece: Piece) => gutters.filter((g) => g.to <= piece.x + 0.5).length;
const filledColumns = (gutters: readonly Gutter[], row: BorderlessRow) => new Set(row.pieces.map((p) => columnOf(gutters, p))).size;

/**
 * Whether a row has text only right of the first column: a cell's wrapped line, which may start
 * in another size than the table's (code in a cell, set smaller in a monospaced font).
 */
const continuesCell = (row: BorderlessRow, gutters: readonly Gutter[]) =>
  gutters.some((g) => g.support >= 2) && row.pieces.every((p) => columnOf(gutters, p) > 0);

/** The rows from `start` that keep to common columns, and those columns' gutters. */
function growRun(rows: readonly BorderlessRow[], start: number): { end: number; gutters: Gutter[] } {
  const first = rows[start] as BorderlessRow;
  let gutters = gapsOf(first);
  let end = start + 1;
  let widestGap = -Infinity;
  for (; end < rows.length && gutters.length > 0; end++) {
    const row = rows[end] as BorderlessRow;
    const above = rows[end - 1] as BorderlessRow;
    if (row.excluded || (Math.abs(row.size - first.size) > first.size * SIZE_TOLERANCE && !continuesCell(row, gutters))) break;
    const gap = row.top - above.bottom;
    const spaced = isParagraphSpacing(gap, widestGap, first.size) && !repeatsCells(row, rows.slice(start, end), gutters);
    if (gap > first.size * MAX_ROW_GAP || row.y <= above.y || spaced) break;
    widestGap = Math.max(widestGap, gap);
    const next = narrowed(gutters, row);
    if (!next || next.length === 0) break;
    gutters = next;
  }
  // Gutters no row beside the first stood on both sides of were gaps inside a cell.
  const kept = gutters.filter((g) => g.support >= 2 && !looseNarrow(g, first.size));
  return { end, gutters: withoutWordSpaces(kept, rows.slice(start, end), first.size) };
}

/**
 * Whether the room above a row is a paragraph's spacing rather than the table's: wider than
 * PARAGRAPH_GAP ems and than twice any room between the rows so far. A table's rows stand apart
 * by their cells' padding, always alike; the paragraph or heading after a borderless table
 * stands further off, yet often less than MAX_ROW_GAP (LibreOffice: 0.21 cm before a heading).
 */
const isParagraphSpacing = (gap: number, widestGap: number, size: number) => widestGap > -Infinity && gap > size * PARAGRAPH_GAP && gap > widestGap * 2;

/** Text edges within this many points line up: a word processor sets a column's cells at one x. */
const SAME_EDGE = 1;
/** A row that sets this many cells where a row above sets its own repeats that row's columns. */
const REPEATED_CELLS = 3;

/**
 * Whether a row sets most of its pieces, REPEATED_CELLS or more, where a row of the run sets its
 * own, flush left at their starts or flush right at their ends: the table's next row, however
 * much further below it stands than the lines so far. Where every row's cells wrap onto a second
 * line (numbers too long for narrow columns), the run's first room is a cell's line spacing and
 * the room between rows, their padding added, twice as wide (DataX's MySQL figures: 2 pt, 5.6
 * pt); so is the room under a header whose names wrap. A paragraph under the table may start
 * where a column does, and a justified line of a hanging indent (a reference list's) starts and
 * ends where the lines above do, its words each a piece: neither sets most of its pieces so,
 * each in a column of the run's own.
 */
function repeatsCells(row: BorderlessRow, run: readonly BorderlessRow[], gutters: readonly Gutter[]): boolean {
  // Each piece in a column of its own, as a table row's cells are; a justified line's words share theirs.
  const columns = filledColumns(gutters, row);
  if (columns < REPEATED_CELLS || columns < row.pieces.length) return false;
  const lined = (a: number, b: number) => Math.abs(a - b) <= SAME_EDGE;
  const shared = (above: BorderlessRow) => row.pieces.filter((p) => above.pieces.some((q) => lined(p.x, q.x) || lined(p.right, q.right))).length;
  return run.some((above) => {
    const count = shared(above);
    return count >= REPEATED_CELLS && count * 2 > row.pieces.length;
  });
}

/** Each row's cell texts, a piece in the column its gutters put it in, and where each column's text lies. */
function rowLine(row: BorderlessRow, gutters: readonly Gutter[]): TableLine {
  const texts = gutters.map(() => '').concat('');
  const extents: (Extent | undefined)[] = texts.map(() => undefined);
  for (const p of [...row.pieces].sort((a, b) => a.x - b.x)) {
    const c = columnOf(gutters, p);
    texts[c] = texts[c] ? `${texts[c]} ${p.text.trim()}` : p.text.trim();
    // Pieces come left to right: the last one's trailing space is the column's.
    extents[c] = { x: extents[c]?.x ?? p.x, right: Math.max(extents[c]?.right ?? p.right, p.right), ...(/\s$/.test(p.text) && { endsInSpace: true as const }) };
  }
  return { texts, top: row.top, bottom: row.bottom, size: row.size, extents };
}

/**
 * Which rows start a logical row: by a wider baseline pitch, or by text in the first column. The
 * pitch is believed only when it starts two body rows or more, and the rows it starts all have
 * text in the first column: a table set
 * at one line pitch whose lines mix fonts (CJK and Latin, code) has baselines that jitter by
 * more than UNIFORM_PITCH, and the widest pitches then fall before a cell's wrapped lines.
 */
function rowStarts(rows: readonly BorderlessRow[], lines: readonly TableLine[]): boolean[] {
  const byColumn = lines.map((l, k) => k === 0 || l.texts[0] !== '');
  const pitches = rows.slice(1).map((r, k) => pitchFrom(rows[k] as BorderlessRow, r));
  const size = (rows[0] as BorderlessRow).size;
  const [least, most] = [Math.min(...pitches), Math.max(...pitches)];
  // Rows and a cell's lines spaced alike: a line under a cell that ended with room for its first word starts a row (pdf-table-wraps.ts).
  const limits = columnLimits(lines);
  const byRoom = byColumn.map((starts, k) => starts || roomAbove(lines[k - 1] as TableLine, lines[k] as TableLine, limits));
  if (pitches.length === 0 || most - least < size * UNIFORM_PITCH) return byRoom;
  const byPitch = rows.map((_, k) => k === 0 || (pitches[k - 1] as number) > (least + most) / 2);
  // A pitch that sets only the first row apart is the header's padding, not the rows' (groff).
  const bodyStarts = byPitch.filter(Boolean).length - 1;
  // The row under the header may start with its first column empty: the rest of a row the page
  // break cut, under the header LibreOffice repeats. It does not count towards the rows the pitch
  // must start to be believed.
  const carried = byPitch[1] === true && !byColumn[1];
  const believed = bodyStarts - (carried ? 1 : 0) >= 2 && byPitch.every((starts, k) => !starts || byColumn[k] || (carried && k === 1));
  return believed ? byPitch : byRoom;
}

/** A row this many ems tall holds several lines: a band of a table row whose cells are centred vertically (pdf-table-bands.ts). */
const BAND_EMS = 1.8;

/** A line's glyphs reach at most this many ems below its baseline. */
const DESCENT_EMS = 0.25;

/**
 * The baseline pitch from the row above: from its last line's baseline where it is a band of
 * several lines, that line's descent (as the row's own, at most DESCENT_EMS) above its bottom.
 */
function pitchFrom(above: BorderlessRow, row: BorderlessRow): number {
  if (above.bottom - above.top <= above.size * BAND_EMS) return row.y - above.y;
  return row.y - (above.bottom - Math.min(row.bottom - row.y, row.size * DESCENT_EMS));
}

const NO_HEADER_LINES: HeaderLines = { count: 0, ownRow: false };

/**
 * Splits rows into logical table rows, a cell's wrapped lines joined. The first `header.count`
 * rows are the header row's lines over the rows that keep to the columns (pdf-header-lines.ts).
 */
function logicalRows(rows: readonly BorderlessRow[], gutters: readonly Gutter[], header: HeaderLines = NO_HEADER_LINES): string[][] {
  const lines = rows.map((row) => rowLine(row, gutters));
  const upper = header.count;
  const own = rowStarts(rows.slice(upper), lines.slice(upper));
  // The header's lines start one row; the table's first line starts another when the header is a row of its own.
  const starts = upper > 0 ? [true, ...Array<boolean>(upper - 1).fill(false), header.ownRow, ...own.slice(1)] : own;
  const limits = columnLimits(lines);
  const out: string[][] = [];
  // Each column's last line in the row being joined: a word broken there goes on without a space.
  let lastLines: (CellLine | undefined)[] = [];
  lines.forEach(({ texts, extents }, k) => {
    const current = out.at(-1);
    const cellLines = texts.map((text, c) => (text && extents?.[c] ? { text, extent: extents[c] } : undefined));
    if (starts[k] || !current) {
      out.push([...texts]);
      lastLines = cellLines;
      return;
    }
    texts.forEach((text, c) => {
      const [above, below] = [lastLines[c], cellLines[c]];
      if (above && below && brokenInWord(above, below, limits[c] as number)) current[c] += text;
      else current[c] = joinLines([current[c] as string, text].filter(Boolean));
      lastLines[c] = below ?? lastLines[c];
    });
  });
  return out;
}

/**
 * The run in more columns from the run's row in most pieces, where it reaches as far down and
 * every row above it keeps to its columns. A header whose names are stacked over narrow columns,
 * set at the cells' bottom (pandoc's, printed by LibreOffice: "DataX 机器网卡流出流量 (MB/s)" on
 * eight lines), has top lines that fill a few columns only, and a run started on them keeps only
 * the gutters between those: every other column's cells were joined.
 */
function finerRun(rows: readonly BorderlessRow[], start: number, coarse: { end: number; gutters: Gutter[] }): { end: number; gutters: Gutter[] } | undefined {
  const run = rows.slice(start, coarse.end);
  const most = Math.max(...run.map((r) => r.pieces.length));
  const k = start + run.findIndex((r) => r.pieces.length === most);
  if (k === start || most <= coarse.gutters.length + 1) return undefined;
  const below = growRun(rows, k);
  if (below.end < coarse.end || below.gutters.length <= coarse.gutters.length) return undefined;
  let gutters = below.gutters;
  for (let i = k - 1; i >= start; i--) {
    const next = narrowed(gutters, rows[i] as BorderlessRow);
    if (!next || next.length < gutters.length) return undefined;
    gutters = next;
  }
  return { end: below.end, gutters };
}

/** A stacked header's lines stand this many ems further apart at most than its lines below do (one line spacing). */
const STACK_TOLERANCE = 0.1;

/**
 * The first line of a stacked header (finerRun) over the run's first row: the lines above it
 * that keep to the columns, at the spacing of the header's lines, one piece each being enough
 * (the name's first word over a single column), and none of an earlier table (from `floor`).
 */
function headerTop(rows: readonly BorderlessRow[], start: number, gutters: readonly Gutter[], floor: number): number {
  const first = rows[start] as BorderlessRow;
  const below = rows[start + 1];
  const spacing = below ? below.top - first.bottom : 0;
  let top = start;
  for (let i = start - 1; i >= floor; i--) {
    const row = rows[i] as BorderlessRow;
    const under = rows[i + 1] as BorderlessRow;
    const fits =
      !row.excluded && Math.abs(row.size - first.size) <= first.size * SIZE_TOLERANCE && under.top - row.bottom <= spacing + first.size * STACK_TOLERANCE;
    const next = fits ? narrowed(gutters, row) : undefined;
    if (!next || next.length < gutters.length) break;
    top = i;
  }
  return top;
}

/**
 * Whether the rows' pitch joins a line with text in the first column into the row above: a long
 * name wrapped in a narrow first column ("isExportSeq" / "uenceInfo", LibreOffice breaking a word
 * that does not fit), which only the spacing tells from a row of its own.
 */
function wrapsFirstColumn(run: readonly BorderlessRow[], lines: readonly TableLine[]): boolean {
  const starts = rowStarts(run, lines);
  return lines.some((line, k) => k > 0 && line.texts[0] !== '' && !starts[k]);
}

/**
 * How many rows over `start` are the header row's upper lines (pdf-header-lines.ts). A header of
 * three lines or more in columns was read as a table of its own, ending right over `start`: the
 * table under it takes it back (`found` loses it) when all its rows are such lines.
 */
function upperLines(found: BorderlessTable[], rows: readonly BorderlessRow[], start: number, starts: readonly number[], leastGap: number): HeaderLines {
  const above = found.at(-1);
  const floor = above ? (above.end === start ? above.start : above.end) : 0;
  const header = headerLinesAbove(rows, start, floor, starts, leastGap);
  if (!above || start - header.count >= above.end) return header;
  if (start - header.count > above.start) return NO_HEADER_LINES;
  found.pop();
  return header;
}

/** Where each column's text starts: its leftmost piece among the rows. */
function columnStarts(run: readonly BorderlessRow[], gutters: readonly Gutter[]): number[] {
  const starts = [...gutters, undefined].map(() => Infinity);
  for (const p of run.flatMap((row) => row.pieces)) {
    const c = columnOf(gutters, p);
    starts[c] = Math.min(starts[c] as number, p.x);
  }
  return starts;
}

/** The borderless tables among a page's rows (in reading order), none overlapping. */
export function borderlessTables(rows: readonly BorderlessRow[]): BorderlessTable[] {
  const out: BorderlessTable[] = [];
  for (let start = 0; start < rows.length; start++) {
    const first = rows[start] as BorderlessRow;
    if (first.excluded || first.pieces.length < 2) continue;
    const coarse = growRun(rows, start);
    if (coarse.gutters.length === 0) continue;
    const finer = finerRun(rows, start, coarse);
    const { end, gutters } = finer ?? coarse;
    if (finer) start = headerTop(rows, start, gutters, out.at(-1)?.end ?? 0);
    const run = rows.slice(start, end);
    if (run.filter((r) => filledColumns(gutters, r) >= 2).length < MIN_FILLED_ROWS) continue;
    const lines = run.map((row) => rowLine(row, gutters));
    // A paragraph's last line over the table: the table starts under it.
    if (isLeadInLine(lines)) continue;
    const tight = gutters.some((g) => g.to - g.from < first.size * MIN_GUTTER);
    // A stacked header (finerRun) is the run's own first lines already: none to look for above it.
    const upper = finer ? NO_HEADER_LINES : upperLines(out, rows, start, columnStarts(run, gutters), Math.min(...rowGaps(run)));
    const cells = logicalRows(rows.slice(start - upper.count, end), gutters, upper);
    const wraps = !finer && wrapsFirstColumn(run, lines);
    out.push({
      start: start - upper.count,
      end,
      cells,
      ...(upper.count > 0 && { upper: upper.count }),
      ...(tight && { tight }),
      ...(wraps && { wrapsFirstColumn: wraps }),
    });
    start = end - 1;
  }
  return out;
}
