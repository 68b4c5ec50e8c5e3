// A borderless table's header row whose cells wrap onto several lines. pandoc's DOCX sets its
// header cells bottom-aligned, so in LibreOffice's print a narrow column's long name ("pkName1",
// "DataX 速度(Rec/s)") wraps upwards: the header row's upper lines stand right over the line that
// holds every column's last words. Those upper lines stand at a cell's line pitch above it, where
// the table's rows stand a cell's padding apart, so the detector (pdf-borderless.ts), which ends
// a run at a gap twice the widest before it, starts the table at the header's last line and
// leaves the upper lines as a paragraph over it. These functions find them. Pure functions over
// plain data, tested on arrays.

/** What is read of a line above the table. */
export interface UpperLine {
  top: number;
  bottom: number;
  size: number;
  pieces: readonly { x: number; right: number }[];
  /** A line no table takes (a list item, a ruled table's). */
  excluded: boolean;
}

/** A line of a wrapped cell stands at most this many ems below the one above (single spacing: a font's box, ~1.17 em a line). */
const LINE_GAP_EMS = 0.25;
/** Text edges within this many ems of each other line up (pdf-lead-in.ts ALIGNED). */
const ALIGNED = 0.15;
/** Lines of one table are set in one size, within this share. */
const SIZE_TOLERANCE = 0.05;

/** Whether each of the line's pieces starts where a column's text starts (`starts`, left to right) and ends before the next column's. */
function keepsToColumns(line: UpperLine, starts: readonly number[], size: number): boolean {
  return line.pieces.every((p) => {
    const column = starts.findIndex((x) => Math.abs(p.x - x) <= size * ALIGNED);
    const next = starts[column + 1];
    return column >= 0 && (next === undefined || p.right < next);
  });
}

/** Whether `line` could be a line of the table's (over `below`, in the same size, keeping to its columns), no further above than `room`. */
function fitsOver(line: UpperLine, below: UpperLine, starts: readonly number[], room: number): boolean {
  const gap = below.top - line.bottom;
  if (line.excluded || line.pieces.length === 0 || Math.abs(line.size - below.size) > below.size * SIZE_TOLERANCE) return false;
  return gap >= -below.size * LINE_GAP_EMS && gap <= room && keepsToColumns(line, starts, below.size);
}

/**
 * How many lines right over `lines[first]` (down to `floor`) stand at a cell's line pitch and keep
 * to the columns: close above, no further than the table's closest lines stand (`leastGap`). A
 * paragraph's last line stands a paragraph's spacing over a table.
 */
function linesAtPitch(lines: readonly UpperLine[], first: number, floor: number, starts: readonly number[], leastGap: number): number {
  let k = first;
  const room = (below: UpperLine) => Math.min(below.size * LINE_GAP_EMS, leastGap + below.size * ALIGNED);
  while (k > floor && fitsOver(lines[k - 1] as UpperLine, lines[k] as UpperLine, starts, room(lines[k] as UpperLine))) k--;
  return first - k;
}

/** The header lines over a table: how many, and whether they are a row of their own or the upper lines of the table's first row. */
export interface HeaderLines {
  count: number;
  ownRow: boolean;
}

/**
 * The header row's lines right over a table's first line (`lines[first]`), going up no further
 * than `floor` (the end of a table above). `starts` are where each column's text starts,
 * `leastGap` the least room between two of the table's lines. Either the first line is the
 * header's last (its upper lines stand at a line's pitch over it), or the header is a row of its
 * own a row's room above, of two lines or more at a line's pitch (one line would have started
 * the table).
 */
export function headerLinesAbove(lines: readonly UpperLine[], first: number, floor: number, starts: readonly number[], leastGap: number): HeaderLines {
  const joined = linesAtPitch(lines, first, floor, starts, leastGap);
  if (joined > 0) return { count: joined, ownRow: false };
  const below = lines[first] as UpperLine;
  const bottom = first - 1;
  if (bottom < floor || !fitsOver(lines[bottom] as UpperLine, below, starts, leastGap + below.size * ALIGNED)) return { count: 0, ownRow: false };
  const upper = linesAtPitch(lines, bottom, floor, starts, leastGap);
  return upper > 0 ? { count: upper + 1, ownRow: true } : { count: 0, ownRow: false };
}
