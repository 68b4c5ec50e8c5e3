// Stage 4 of PDF reading: tables in the flow of rows that no ruling shows — borderless tables
// (pdf-borderless.ts) replaced by one table row each, and runs of rows split into the same
// columns written as tables, a header found above them. Pure functions over rows.

import type { RootContent } from 'mdast';
import { joinLines } from '../../core/cjk-text.js';
import { table, textCells } from './blocks.js';
import { borderlessTables } from './pdf-borderless.js';
import { withBands } from './pdf-table-bands.js';
import { isBullet, NUMBERED, type Row } from './pdf-page-model.js';
import { styledTexts, type PieceStyle } from './pdf-piece-style.js';
import { columnAt, headerUnitsAbove, nearestColumn, type Column } from './pdf-table-columns.js';
import { joinWrappedLines, wrapsFrom, type Extent, type TableLine } from './pdf-table-wraps.js';
import { rowGaps, spacedAsParagraph } from './pdf-lead-in.js';
import { blocksToHtml } from './render.js';
import { captionLines, nextToFigureCaption } from './pdf-figure-captions.js';

/**
 * The rows with each band of a vertically centred table row made one row (pdf-table-bands.ts),
 * and each borderless table among them (pdf-borderless.ts) replaced by one table row.
 */
export function withBorderlessTables(lines: readonly Row[]): Row[] {
  const rows = withCaptions(withBands(lines));
  const found = borderlessTables(
    rows.map((r) => ({
      y: r.y,
      top: r.top,
      bottom: r.bottom,
      size: r.size,
      pieces: r.pieces.length ? r.pieces : [{ x: r.x, right: r.right, text: r.text }],
      excluded: r.table !== undefined || outOfTables(r),
    })),
  );
  const out: Row[] = [];
  let next = 0;
  for (const { start, end, cells, tight, upper, wrapsFirstColumn } of found) {
    // The cell-gap reading is judged from the rows under the header's lines the borderless reading
    // took above them; those lines, and a first column's wrapped name, are lines the borderless
    // reading joins into one row that a reading by the first column splits.
    if (start < next || cellGapReads(rows, start + (upper ?? 0), end, cells[0]?.length ?? 0, tight === true, upper !== undefined || wrapsFirstColumn === true))
      continue;
    // A figure's words beside its caption (pdf-figure-captions.ts) are no table.
    if (nextToFigureCaption(rows, start, end)) continue;
    out.push(...rows.slice(next, start));
    const run = rows.slice(start, end);
    // Once for the table: each row's cells look their texts up in it.
    const styles = stylesOf(run);
    const top = Math.min(...run.map((r) => r.top));
    const first = run[0] as Row;
    out.push({
      ...first,
      text: '',
      top,
      x: Math.min(...run.map((r) => r.x)),
      right: Math.max(...run.map((r) => r.right)),
      bottom: Math.max(...run.map((r) => r.bottom)),
      cells: [],
      pieces: [],
      table: table(
        cells.map((row) => textCells(row, styles)),
        blocksToHtml,
      ),
    });
    next = end;
  }
  out.push(...rows.slice(next));
  return out;
}

/** The fewest rows in more columns that show the cell-gap reading inside a borderless table to be the finer one. */
const FINER_RUN_ROWS = 3;

/**
 * Whether rows the borderless detector took for a table of `columns` columns keep the cell-gap
 * detector's reading (tableRun) instead: when it reads a table from the first row, or a table of
 * more columns from a later one. The borderless detector's columns come from its first row, so a
 * header whose cells each span two columns ("Customer Information" over labels and their values)
 * hides the columns under it; tableRun grows its columns row by row.
 */
function cellGapReads(rows: readonly Row[], start: number, end: number, columns: number, tight: boolean, joinsLines: boolean): boolean {
  // A column the borderless reading keeps apart by a narrow band alone (`tight`: numbers set flush
  // right 2 pt from the next column's text) is one the cell-gap reading joins to its neighbour:
  // a reading in one column fewer lost it, and one as fine found it too.
  const coarse = tight ? columns - 1 : columns;
  // From the first row, a shorter reading in no more columns is a table cut short (a long
  // wrapped cell ends it), which the borderless reading carries on; a reading of the whole in
  // fewer columns lost one: a column every row leaves free but no wider than the cell gap (a
  // tight one, or LaTeX's 12 pt between numbers set flush right and the next column's text).
  const own = tableRun(rows, start);
  // Where the borderless reading joins lines into one row that the cell-gap reading would split
  // (a header's wrapped lines, a first column's name wrapped onto a line of its own), a reading in
  // as many columns is no better: only a finer one wins.
  const whole = own.rows.length >= end - start && (joinsLines ? own.columns.length > columns : own.columns.length >= columns);
  if (own.rows.length >= 2 && (whole || own.columns.length > columns)) return true;
  for (let j = start + 1; j < end; j++) {
    const run = tableRun(rows, j);
    if (run.rows.length >= FINER_RUN_ROWS && run.columns.length > coarse) return true;
  }
  return false;
}

/** A table of the page and the rows it was made of (a header taken from the text above it too). */
export interface TablePart {
  table: RootContent;
  made: readonly Row[];
}

/**
 * Runs of two or more rows split into the same columns (cells starting at the same x) are a
 * table; everything else stays rows. The first row of a run is the header.
 */
export function splitTables(rows: readonly Row[]): ({ rows: Row[] } | TablePart)[] {
  const out: ({ rows: Row[] } | TablePart)[] = [];
  let i = 0;
  while (i < rows.length) {
    const ruled = (rows[i] as Row).table;
    if (ruled) {
      out.push({ table: ruled, made: [rows[i] as Row] });
      i++;
      continue;
    }
    const run = tableRun(rows, i);
    if (run.rows.length >= 2 && !nextToFigureCaption(rows, i, i + run.rows.length)) {
      // A run in fewer columns right above another may be its header: names over column groups.
      const below = tableRun(rows, i + run.rows.length);
      const over = headerRowsOver(run, below);
      if (over) {
        out.push({ table: tableOf(below, over), made: rows.slice(i, i + run.rows.length + below.rows.length) });
        i += run.rows.length + below.rows.length;
        continue;
      }
      const last = out.at(-1);
      const text = last && 'rows' in last ? last.rows : [];
      const length = text.length;
      const header = headerAbove(text, run);
      // The header's rows, taken off the end of the text above, are those right before the run.
      const made = rows.slice(i - (length - text.length), i + run.rows.length);
      if (last && 'rows' in last && !last.rows.length) out.pop();
      out.push({ table: tableOf(run, header), made });
      i += run.rows.length;
      continue;
    }
    const last = out.at(-1);
    if (last && 'rows' in last) last.rows.push(rows[i] as Row);
    else out.push({ rows: [rows[i] as Row] });
    i++;
  }
  return out;
}

interface TableRun {
  rows: Row[];
  /** The columns, left to right. */
  columns: Column[];
}

/**
 * The rows just above a table that name its columns without starting where they start: a
 * header centred over its columns, its cells wrapped onto two lines ("State funded / legal aid"
 * over a column of asterisks), or set flush left over numbers set flush right, its names too
 * close to stand apart as cells ("Units Revenue"; pdf-table-columns.ts reads their pieces). A
 * row belongs to it when it lies within two lines above the table, in the table's size, and
 * each of its pieces names one column; together they name two columns or more. Taken off the
 * end of `before`; answers the header row's texts.
 */
function headerAbove(before: Row[], run: TableRun): string[][] | undefined {
  const first = run.rows[0] as Row;
  const { columns } = run;
  const bands = bandsOf(run);
  const named = (row: Row) =>
    !row.table &&
    !outOfTables(row) &&
    Math.abs(row.size - first.size) <= first.size * 0.05 &&
    row.bottom <= first.top + 1 &&
    first.top - row.bottom <= first.size * 2.5
      ? headerUnitsAbove(row.pieces.length ? row.pieces : row.cells, bands, first.size)
      : undefined;
  const found: { row: Row; columns: number[] }[] = [];
  const gaps = rowGaps(run.rows);
  let k = before.length;
  while (k > 0) {
    const row = before[k - 1] as Row;
    // A paragraph's last line, a paragraph's spacing over the table (pdf-lead-in.ts), names no column.
    const at = spacedAsParagraph((found.at(-1)?.row ?? first).top - row.bottom, gaps, first.size) ? undefined : named(row);
    if (!at) break;
    found.push({ row, columns: at });
    k--;
  }
  found.sort((a, b) => a.row.top - b.row.top || a.row.x - b.row.x);
  const texts = columns.map(() => '');
  const put = (into: string[], { row, columns: at }: (typeof found)[number]) =>
    (row.pieces.length ? row.pieces : row.cells).forEach((unit, u) => {
      const column = at[u] as number;
      into[column] = joinLines([into[column] as string, unit.text.trim()].filter(Boolean));
    });
  for (const line of found) put(texts, line);
  if (texts.filter(Boolean).length < 2) return undefined;
  before.splice(k);
  // A top line centred over a group of columns (its middle between two columns' cells) is a
  // header's upper level ("2023" over "H1 H2"): a row of its own. Else the lines are one cell's wrapped lines.
  const top = found[0] as (typeof found)[number];
  const lower = found.filter((f) => f.row.top > top.row.bottom - 1);
  const units = top.row.pieces.length ? top.row.pieces : top.row.cells;
  const grouped = lower.length > 0 && units.some((u) => !bands.some((b) => (u.x + u.right) / 2 >= b.from && (u.x + u.right) / 2 <= b.to));
  if (!grouped) return [texts];
  const upper = columns.map(() => '');
  const rest = columns.map(() => '');
  for (const line of found) put(lower.includes(line) ? rest : upper, line);
  return [upper, rest];
}

/** The x extent of each column's cells. */
function bandsOf({ rows, columns }: TableRun): { from: number; to: number }[] {
  const bands = columns.map((): { from: number; to: number } => ({ from: Infinity, to: -Infinity }));
  for (const row of rows) {
    for (const cell of row.cells) {
      const band = bands[nearestColumn(columns, cell, row.size)] as { from: number; to: number };
      band.from = Math.min(band.from, cell.x);
      band.to = Math.max(band.to, cell.right);
    }
  }
  return bands;
}

/**
 * The rows of a table run as header rows of the run right below it, when that one has more
 * columns and each piece of the upper rows names one of them: a header of two levels, its upper
 * names centred over groups of columns ("2023" over "H1 H2"), read as a table of its own in the
 * fewer columns its names leave apart. Each upper row stays a row.
 */
function headerRowsOver(upper: TableRun, lower: TableRun): string[][] | undefined {
  const last = upper.rows.at(-1) as Row;
  const first = lower.rows[0];
  if (!first || lower.rows.length < 2 || lower.columns.length <= upper.columns.length) return undefined;
  if (first.top - last.bottom > first.size * 1.5 || Math.abs(first.size - last.size) > first.size * 0.05) return undefined;
  const bands = bandsOf(lower);
  const header: string[][] = [];
  for (const row of upper.rows) {
    const units = row.pieces.length ? row.pieces : row.cells;
    const at = headerUnitsAbove(units, bands, first.size);
    if (!at) return undefined;
    const texts = lower.columns.map(() => '');
    units.forEach((unit, u) => (texts[at[u] as number] = joinLines([texts[at[u] as number] as string, unit.text.trim()].filter(Boolean))));
    header.push(texts);
  }
  return header;
}

/**
 * A row no table takes: a list item, a caption's line (pdf-figure-captions.ts), or a row of code
 * (monospaced for most of it) in columns — a console's output lines up in columns, but its block
 * is code (pdf-paragraphs.ts), whatever indents it — or in pieces all monospaced (Ghostscript
 * sets a code line's words apart). A cell's wrapped line that starts with code is one piece, or
 * has pieces in another font, and stays in its table.
 */
const outOfTables = (row: Row) =>
  (row.mono && (row.cells.length > 1 || (row.pieces.length > 1 && row.pieces.every((p) => p.mono)))) ||
  isBullet(row) ||
  NUMBERED.test(row.text) ||
  row.caption === true;

/** The rows with each caption's lines marked (pdf-figure-captions.ts). */
function withCaptions(rows: readonly Row[]): Row[] {
  const captions = captionLines(rows);
  return rows.map((row, i) => (captions.has(i) && !row.table ? { ...row, caption: true } : row));
}

/**
 * The rows from `start` that line up in columns. The columns are those of the first row, and
 * grow by a later row's cells when most of that row's cells fall in columns already known (a
 * sparse first row: a header over the value columns only, "Hours Rate Cost" above "Parts …
 * 2,100"). A cell keeps to a column by its left edge, or by its right edge where numbers are
 * set flush right (pdf-table-columns.ts). A row of one piece in the first column, ending before
 * the second, is a row of its own (a group label, "Supplies") when the table goes on after it.
 */
function tableRun(rows: readonly Row[], start: number): TableRun {
  const first = rows[start];
  if (!first) return { rows: [], columns: [] };
  const columns: Column[] = first.cells.map((c) => ({ x: c.x, ends: [c.right] }));
  if (first.cells.length < 2 || outOfTables(first)) return { rows: [], columns };
  // Text set flush right (a manual's option names) keeps to a column by its right edge only
  // beside a cell that keeps to one by its left, and against a column to its right: lines that
  // end together at the margin are prose or a colophon ("Tel. …   ISSN …").
  const keep = (row: Row, cell: Row['cells'][number]) => {
    const at = columnAt(columns, cell, row.size);
    if (at >= 0) return at;
    const beside = row.cells.some((other) => other !== cell && columnAt(columns, other, row.size) >= 0);
    const flush = beside ? columnAt(columns, cell, row.size, true) : -1;
    return flush >= 0 && columns.some((c) => c.x > (columns[flush] as Column).x) ? flush : -1;
  };
  const near = (row: Row, cell: Row['cells'][number]) => keep(row, cell) >= 0;
  const aligned = (row: Row) => !row.table && row.cells.length >= 2 && !outOfTables(row) && row.cells.every((c) => near(row, c));
  const run = [first];
  // Rows that add columns or stand alone must follow at the table's line spacing, in its size.
  // Not a paragraph's spacing below the rows either (pdf-lead-in.ts): a heading after the table.
  const close = (row: Row) => {
    const gap = row.top - (run.at(-1) as Row).bottom;
    return gap <= first.size * 1.5 && Math.abs(row.size - first.size) <= first.size * 0.05 && !spacedAsParagraph(gap, rowGaps(run), first.size);
  };
  const widens = (row: Row) =>
    !row.table && row.cells.length >= 2 && !outOfTables(row) && close(row) && row.cells.filter((c) => near(row, c)).length * 2 >= row.cells.length;
  // A group label: one piece in the first column, ending before the second.
  const single = (row: Row) => {
    const cell = row.cells[0];
    if (row.table || row.cells.length !== 1 || !cell || outOfTables(row) || !close(row)) return false;
    const [firstColumn, second] = columns.map((c) => c.x).sort((a, b) => a - b);
    return Math.abs(cell.x - (firstColumn as number)) <= row.size * 1.5 && (second === undefined || row.right < second);
  };
  const wrapped = (row: Row) =>
    !row.table &&
    !outOfTables(row) &&
    close(row) &&
    row.cells.every((c) => near(row, c)) &&
    wrapsFrom(lineOf(run.at(-1) as Row, columns), lineOf(row, columns));
  for (let j = start + 1; j < rows.length; j++) {
    const row = rows[j] as Row;
    if (aligned(row) || widens(row)) {
      // A column cannot start inside a cell above: that row's cells were read merged (a tight
      // header, "Screen Start"), so its columns are not these.
      const inside = (x: number) => run.some((r) => r.cells.some((c) => x > c.x + r.size * 1.5 && x < c.right));
      if (row.cells.some((c) => !near(row, c) && inside(c.x))) break;
      for (const cell of row.cells) {
        const at = keep(row, cell);
        if (at < 0) columns.push({ x: cell.x, ends: [cell.right] });
        else if (Math.abs((columns[at] as Column).x - cell.x) > row.size * 1.5) (columns[at] as Column).ends.push(cell.right);
      }
      run.push(row);
      continue;
    }
    // A cell's text wrapped onto the line below (pdf-table-wraps.ts).
    if (wrapped(row)) {
      run.push(row);
      continue;
    }
    // Pieces on their own: kept only when a row in columns follows them.
    let k = j;
    while (k < rows.length && k - j < 3 && single(rows[k] as Row)) run.push(rows[k++] as Row);
    const next = rows[k];
    if (k > j && next && (aligned(next) || widens(next))) {
      j = k - 1;
      continue;
    }
    run.splice(run.length - (k - j));
    break;
  }
  return { rows: run, columns: columns.sort((a, b) => a.x - b.x) };
}

/**
 * A row's text in each of the columns (left to right), and where it stands. Text set flush right
 * (tableRun's keep) keeps to a column two of whose cells already end where it ends; a cell that
 * keeps to none (centred) goes to the column whose start is nearest.
 */
function lineOf(row: Row, columns: readonly Column[]): TableLine {
  const sorted = [...columns].sort((a, b) => a.x - b.x);
  const texts = sorted.map(() => '');
  const extents: (Extent | undefined)[] = sorted.map(() => undefined);
  const flushRight = (cell: Row['cells'][number]) =>
    columnAt(sorted, cell, row.size) < 0 ? sorted.findIndex((c) => c.ends.filter((end) => Math.abs(end - cell.right) <= row.size * 0.5).length >= 2) : -1;
  for (const cell of row.cells) {
    const flush = flushRight(cell);
    const column = flush >= 0 ? flush : nearestColumn(sorted, cell, row.size);
    texts[column] = joinLines([texts[column] as string, cell.text].filter(Boolean));
    const was = extents[column];
    extents[column] = was ? { x: Math.min(was.x, cell.x), right: Math.max(was.right, cell.right) } : { x: cell.x, right: cell.right };
  }
  return { texts, top: row.top, bottom: row.bottom, size: row.size, extents };
}

function tableOf({ rows: run, columns }: TableRun, header: readonly string[][] = []): RootContent {
  const rows = joinWrappedLines(run.map((row) => lineOf(row, columns)));
  const styles = stylesOf(run);
  return table(
    [...header, ...rows].map((row) => textCells(row, styles)),
    blocksToHtml,
  );
}

/** The texts the rows set in one style, every glyph (blocks.ts textCells): their pieces, or a row's cells where it keeps no pieces. */
const stylesOf = (rows: readonly Row[]): Map<string, PieceStyle> =>
  // A row of one piece keeps no pieces (pdf-rows.ts): its cells say it.
  styledTexts(rows.flatMap((row) => (row.pieces.length ? row.pieces : row.cells)));
