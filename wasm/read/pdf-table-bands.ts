// Table rows as bands (pdf-table-runs.ts): a browser sets a table cell's text centred vertically
// (CSS's default `vertical-align: middle`), so a one-line cell beside a cell of several lines
// stands in the middle of that cell's lines — between two of them, or on the middle one — and
// each of those lines reads as a row of its own. A band is the rows whose cells make one table
// row: its vertical extent is the union of its cells' lines, a column of lines at one line pitch
// spans it, and a cell that does not span it is centred on it. The band is one row. Rows apart
// from it by their padding (more room than between its lines) are other bands; where rows and
// wrapped lines are spaced alike (groff, LaTeX), nothing tells them apart here and no band is
// made. Pure functions over rows.

import { joinLines } from '../../core/cjk-text.js';
import { CELL_GAP, type Row } from './pdf-page-model.js';
import { keepShared, sharedStyle, type PieceStyle } from './pdf-piece-style.js';

/** A band holds at most this many rows (a cell of that many lines). */
const MAX_BAND_ROWS = 12;
/** A cell's lines follow each other within this many ems (a line's leading); rows set further apart are not one cell. */
const LINE_GAP = 0.6;
/** Lines overlapping by more than this many ems are one line (a baseline's jitter), not a cell's next line. */
const SAME_LINE = 0.25;
/** Gaps between a cell's lines differ by less than this many ems: one line pitch. */
const PITCH_TOLERANCE = 0.15;
/** A cell whose middle is within this many ems of the band's is centred on it; one whose ends are within it spans it. */
const CENTRED = 0.3;
/** The band stands apart from the rows above and below it by at least this many ems more than between its lines (the cells' padding). */
const PADDING = 0.15;

/** What a band is found from: a line's extent, its size, and its pieces of text where they stand apart. */
export interface BandLine {
  top: number;
  bottom: number;
  size: number;
  /** Each with the style every glyph of it is set in (pdf-piece-style.ts), kept through the band where its lines share it. */
  units: readonly ({ x: number; right: number; text: string } & PieceStyle)[];
  /** A ruled table standing as one row: never in a band. */
  table?: unknown;
}

interface Unit extends PieceStyle {
  x: number;
  right: number;
  text: string;
  top: number;
  bottom: number;
}

/** The units of a group of lines, in columns: units that overlap in x, top to bottom. */
function columnsOf(rows: readonly BandLine[]): Unit[][] {
  const units = rows.flatMap((row) =>
    row.units.map((u) => ({ x: u.x, right: u.right, text: u.text.trim(), top: row.top, bottom: row.bottom, ...sharedStyle([u]) })),
  );
  const columns: Unit[][] = [];
  for (const unit of units.sort((a, b) => a.x - b.x)) {
    const last = columns.at(-1);
    if (last && unit.x < Math.max(...last.map((u) => u.right))) last.push(unit);
    else columns.push([unit]);
  }
  return columns.map((c) => c.sort((a, b) => a.top - b.top));
}

/** The room between each of a column's lines and the next; undefined when two of them share a line. */
function lineGaps(column: readonly Unit[], size: number): number[] | undefined {
  const gaps = column.slice(1).map((u, k) => u.top - (column[k] as Unit).bottom);
  return gaps.every((g) => g >= -size * SAME_LINE) ? gaps : undefined;
}

/**
 * The widest room between lines inside the rows as one band, or undefined when they are not one:
 * a column of two lines or more at one pitch spans the band, and every column that does not span
 * it is centred on it (there is at least one).
 */
function bandGap(rows: readonly BandLine[]): number | undefined {
  if (rows.some((r) => r.table)) return undefined;
  const size = Math.max(...rows.map((r) => r.size));
  const top = Math.min(...rows.map((r) => r.top));
  const bottom = Math.max(...rows.map((r) => r.bottom));
  let widest = -Infinity;
  let spanning = 0;
  let centred = 0;
  for (const column of columnsOf(rows)) {
    const first = column[0] as Unit;
    const last = column.at(-1) as Unit;
    const spans = Math.abs(first.top - top) <= size * CENTRED && Math.abs(last.bottom - bottom) <= size * CENTRED;
    if (spans && column.length >= 2) {
      const gaps = lineGaps(column, size);
      if (!gaps || Math.max(...gaps) > size * LINE_GAP || Math.max(...gaps) - Math.min(...gaps) > size * PITCH_TOLERANCE) return undefined;
      widest = Math.max(widest, ...gaps);
      spanning++;
    } else if (Math.abs((first.top + last.bottom) / 2 - (top + bottom) / 2) <= size * CENTRED && !spans) centred++;
    else return undefined;
  }
  return spanning > 0 && centred > 0 ? widest : undefined;
}

/** Whether a row next to the band (in reading order) stands apart from it by more than the band's line gap: padding. */
function apart(band: readonly BandLine[], row: BandLine | undefined, gap: number): boolean {
  if (!row || row.table) return true;
  const size = Math.max(...band.map((r) => r.size));
  const top = Math.min(...band.map((r) => r.top));
  const bottom = Math.max(...band.map((r) => r.bottom));
  const room = row.bottom <= top + size * SAME_LINE ? top - row.bottom : row.top >= bottom - size * SAME_LINE ? row.top - bottom : -Infinity;
  return room > gap + size * PADDING;
}

/** The end (one past) of the widest band starting at line `start` (lines in reading order), or undefined. */
export function bandEnd(rows: readonly BandLine[], start: number): number | undefined {
  let found: number | undefined;
  for (let end = start + 2; end <= Math.min(rows.length, start + MAX_BAND_ROWS); end++) {
    const band = rows.slice(start, end);
    const gap = bandGap(band);
    if (gap !== undefined && apart(band, rows[start - 1], gap) && apart(band, rows[end], gap)) found = end;
  }
  return found;
}

/** One row for a band: each column's lines joined top to bottom, its cells as far apart as a row's. */
function bandRow(rows: readonly Row[]): Row {
  const main = rows.reduce((a, b) => (b.text.length > a.text.length ? b : a));
  const units = columnsOf(rows.map(bandLine)).map((column) => ({
    x: Math.min(...column.map((u) => u.x)),
    right: Math.max(...column.map((u) => u.right)),
    text: joinLines(column.map((u) => u.text).filter(Boolean)),
    ...sharedStyle(column),
  }));
  const cells: Row['cells'] = [];
  for (const unit of units) {
    const last = cells.at(-1);
    if (last && unit.x - last.right <= main.size * CELL_GAP) {
      Object.assign(last, { right: unit.right, text: `${last.text} ${unit.text}` });
      keepShared(last, unit);
    } else cells.push({ ...unit });
  }
  return {
    ...main,
    text: cells.map((c) => c.text).join(' '),
    x: Math.min(...rows.map((r) => r.x)),
    right: Math.max(...rows.map((r) => r.right)),
    y: Math.min(...rows.map((r) => r.y)),
    top: Math.min(...rows.map((r) => r.top)),
    bottom: Math.max(...rows.map((r) => r.bottom)),
    cells,
    pieces: units.length > 1 ? units : [],
  };
}

const bandLine = (row: Row): BandLine => ({ ...row, units: row.pieces.length ? row.pieces : row.cells });

/** The rows with each band of a vertically centred table row made one row. */
export function withBands(rows: readonly Row[]): Row[] {
  const lines = rows.map(bandLine);
  const out: Row[] = [];
  for (let i = 0; i < rows.length; i++) {
    const end = bandEnd(lines, i);
    if (end === undefined) out.push(rows[i] as Row);
    else {
      out.push(bandRow(rows.slice(i, end)));
      i = end - 1;
    }
  }
  return out;
}
