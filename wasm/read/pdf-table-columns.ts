// Columns of a table read from the alignment of its rows (pdf-table-runs.ts): which column a
// cell keeps to, and which columns the names of a header row stand over. A spreadsheet or a
// report sets text flush left and numbers flush right in the same columns, so a column is known
// by where its cells start and by where its numbers, set flush right, end; a header's names, set flush
// left over numbers, start in the room between two columns of numbers. Pure functions over plain
// data, tested on arrays.

/** Where a column's cells start (its first cell's left edge), and where those set flush right end. */
export interface Column {
  x: number;
  ends: number[];
}

/** A piece of text on a row: a cell, or a piece of one (pdf-pieces.ts). */
export interface Unit {
  x: number;
  right: number;
  text: string;
}

/** A cell starting within this many ems of a column's start keeps to it (flush left). */
const LEFT_EMS = 1.5;
/** A cell ending within this many ems of one of a column's right edges keeps to it (flush right: numbers end exactly there). */
const RIGHT_EMS = 0.5;

/** A number as a table sets it, flush right: digits with signs, separators, currency or percent, no letters (2,400; $12.50; (63); 2024-03-07). */
export const isNumber = (text: string) => /\d/.test(text) && !/\p{L}/u.test(text);

/**
 * The column a cell keeps to — by its left edge, else (a number, or any text when
 * `flushRightText`: the row's other cells show where its columns are) by its right edge — or -1.
 */
export function columnAt(columns: readonly Column[], cell: Unit, size: number, flushRightText = false): number {
  let best = -1;
  let distance = Infinity;
  columns.forEach((column, k) => {
    const d = Math.abs(column.x - cell.x);
    if (d <= size * LEFT_EMS && d < distance) [best, distance] = [k, d];
  });
  if (best >= 0 || (!flushRightText && !isNumber(cell.text))) return best;
  columns.forEach((column, k) => {
    const d = Math.min(...column.ends.map((end) => Math.abs(end - cell.right)));
    if (d <= size * RIGHT_EMS && d < distance) [best, distance] = [k, d];
  });
  return best;
}

/** The column a cell keeps to, else the one whose start is nearest its left edge. */
export function nearestColumn(columns: readonly Column[], cell: Unit, size: number): number {
  const at = columnAt(columns, cell, size);
  if (at >= 0) return at;
  return columns.reduce((best, column, k) => (Math.abs(column.x - cell.x) < Math.abs((columns[best] as Column).x - cell.x) ? k : best), 0);
}

/**
 * The column each unit of a row above a table names, given the x extent (band) of each column's
 * cells, left to right; undefined when the row does not read as a header over them: a unit lies
 * over two columns' cells (a title, a line of prose) or over none near it. A unit over no
 * column's cells names the column it starts in when the room between columns counts as the
 * column on its right (a name set flush left over numbers set flush right starts in that room,
 * "Revenue" over "2400"), else the column within an em of it.
 */
export function headerUnitsAbove(units: readonly Unit[], bands: readonly { from: number; to: number }[], size: number): number[] | undefined {
  const named: number[] = [];
  for (const unit of units) {
    const over = bands.flatMap((band, k) => (unit.right > band.from && unit.x < band.to ? [k] : []));
    if (over.length > 1) return undefined;
    const column = over[0] ?? roomColumn(unit, bands, size);
    if (column === undefined) return undefined;
    named.push(column);
  }
  return named.length ? named : undefined;
}

/** The column whose band a unit over none of them stands left of, beside the band before it; or one within an em. */
function roomColumn(unit: Unit, bands: readonly { from: number; to: number }[], size: number): number | undefined {
  const k = bands.findIndex((band) => band.from >= unit.right);
  const before = bands[k - 1];
  if (k >= 0 && (before === undefined || before.to <= unit.x) && (bands[k] as { from: number }).from - unit.right <= size * 3) return k;
  const near = bands.findIndex((band) => Math.max(band.from - unit.right, unit.x - band.to) <= size);
  return near >= 0 ? near : undefined;
}
