// The cells of a table ruled only by horizontal lines (pdf-rules.ts), and its header's spanning
// cells: a header whose upper line names groups of the columns below it ("Accuracy" over
// "simple complex all") — ruled off by a short rule under the group (LaTeX's \cline, booktabs'
// \cmidrule) or wider than one column — is two header rows, the group name one cell spanning
// its columns, and each column's name under no group one cell spanning the header's rows.
// Pure functions over plain data, tested on arrays.

import { textCells, type CellSource } from './blocks.js';
import { codeOnly, type PieceStyle } from './pdf-piece-style.js';
import type { GridLine, Line } from './pdf-grid.js';
import { joinLines } from '../../core/cjk-text.js';

/** A column's x extent: its body cells' text, merged. */
export interface Band {
  from: number;
  to: number;
}

/** Points by which a rule's end may miss the middle of the last column it spans, or a piece reach into a band it does not span. */
const SLACK = 3;

/** The column a piece overlaps most. */
export function columnOf(piece: GridLine, columns: readonly Band[]): number {
  const from = piece.bbox.x;
  const to = from + piece.bbox.w;
  let best = 0;
  let bestOverlap = -Infinity;
  columns.forEach((c, k) => {
    const overlap = Math.min(to, c.to) - Math.max(from, c.from);
    if (overlap > bestOverlap) [best, bestOverlap] = [k, overlap];
  });
  return best;
}

/** One row's text per column: each column's pieces line by line, joined. */
export function cellsOf(row: readonly GridLine[][], columns: readonly Band[]): string[] {
  const parts: string[][] = columns.map(() => []);
  for (const v of row) {
    const perColumn: string[][] = columns.map(() => []);
    for (const piece of v) perColumn[columnOf(piece, columns)]?.push(piece.text.trim());
    perColumn.forEach((texts, k) => texts.length && parts[k]?.push(joinLines(texts)));
  }
  return parts.map((texts) => joinLines(texts.filter(Boolean)).replace(/\s+/g, ' ').trim());
}

/** The first and last column a phrase of a header's line spans, and the pieces it is made of. */
interface Span {
  piece: GridLine;
  parts: readonly GridLine[];
  first: number;
  last: number;
}

/** Pieces this many ems apart or closer are words of one phrase (a word space is a third of an em; cells stand further apart). */
const WORD_GAP = 0.45;

/** A line's pieces joined into phrases where they stand a word space apart (pdfTeX sets each word apart), each with its pieces. */
function phrasesOf(line: readonly GridLine[]): { piece: GridLine; parts: GridLine[] }[] {
  const out: { piece: GridLine; parts: GridLine[] }[] = [];
  for (const p of line) {
    const last = out.at(-1);
    const end = last ? last.piece.bbox.x + last.piece.bbox.w : -Infinity;
    if (!last || p.bbox.x - end > Math.max(p.font.size, last.piece.font.size) * WORD_GAP) {
      out.push({ piece: p, parts: [p] });
      continue;
    }
    const { bbox } = last.piece;
    const top = Math.min(bbox.y, p.bbox.y);
    const bottom = Math.max(bbox.y + bbox.h, p.bbox.y + p.bbox.h);
    const right = Math.max(end, p.bbox.x + p.bbox.w);
    last.piece = { ...last.piece, bbox: { x: bbox.x, y: top, w: right - bbox.x, h: bottom - top }, text: joinLines([last.piece.text.trim(), p.text.trim()]) };
    last.parts.push(p);
  }
  return out;
}

const bottomOf = (line: readonly GridLine[]) => Math.max(...line.map((p) => p.bbox.y + p.bbox.h));
const topOf = (line: readonly GridLine[]) => Math.min(...line.map((p) => p.bbox.y));

/** The columns whose middle lies within an x extent. */
function columnsWithin(from: number, to: number, columns: readonly Band[]): number[] {
  return columns.flatMap((c, k) => ((c.from + c.to) / 2 >= from - SLACK && (c.from + c.to) / 2 <= to + SLACK ? [k] : []));
}

/**
 * The columns a header piece spans: those a short rule right under it covers (between its line and
 * the next), else those whose text it reaches over; undefined where that is fewer than two.
 */
function spanOf(
  { piece, parts }: { piece: GridLine; parts: readonly GridLine[] },
  line: readonly GridLine[],
  next: readonly GridLine[],
  columns: readonly Band[],
  rules: readonly Line[],
): Span | undefined {
  const middle = piece.bbox.x + piece.bbox.w / 2;
  const rule = rules.find((r) => r.at >= bottomOf(line) - 1 && r.at <= topOf(next) + 1 && r.from <= middle && r.to >= middle);
  const under = rule
    ? columnsWithin(rule.from, rule.to, columns)
    : columns.flatMap((c, k) => (piece.bbox.x < c.to - SLACK && piece.bbox.x + piece.bbox.w > c.from + SLACK ? [k] : []));
  if (under.length < 2) return undefined;
  return { piece, parts, first: under[0] as number, last: under.at(-1) as number };
}

/**
 * The header's cells where a line of it names groups of columns: each such line ends a header row,
 * a group's name spanning its columns, and the lines under it name two or more of those columns
 * apart (else the line is a cell's wrapped first line), no two groups of a line sharing a column.
 * Undefined when no line does.
 */
export function spannedHeader(
  header: readonly GridLine[][],
  columns: readonly Band[],
  rules: readonly Line[],
  styles: ReadonlyMap<string, PieceStyle>,
): CellSource[][] | undefined {
  const rows: { lines: GridLine[][]; spans: Span[] }[] = [{ lines: [], spans: [] }];
  header.forEach((line, i) => {
    const current = rows.at(-1) as { lines: GridLine[][]; spans: Span[] };
    current.lines.push(line);
    const next = header[i + 1];
    if (!next) return;
    const below = header.slice(i + 1).flat();
    const spans = phrasesOf(line).flatMap((phrase) => spanOf(phrase, line, next, columns, rules) ?? []);
    const named = (s: Span) => new Set(below.map((p) => columnOf(p, columns)).filter((k) => k >= s.first && k <= s.last)).size >= 2;
    const apart = spans.every((s, j) => j === 0 || s.first > (spans[j - 1] as Span).last);
    if (spans.length === 0 || !apart || !spans.every(named)) return;
    current.spans = spans;
    rows.push({ lines: [], spans: [] });
  });
  if (rows.length < 2) return undefined;
  const texts = rows.map(({ lines, spans }) => {
    const spanned = new Set(spans.flatMap((s) => s.parts));
    return cellsOf(
      lines.map((v) => v.filter((p) => !spanned.has(p))),
      columns,
    );
  });
  // Each column's own name starts under the last group over it and spans the rows below; the
  // groups over a column must reach down to it from the header's top, and above its name nothing
  // else may stand: else the header is read as before, nothing dropped.
  const ownFrom = columns.map((_, k) => {
    let from = 0;
    while (from < rows.length && (rows[from] as { spans: Span[] }).spans.some((s) => s.first <= k && s.last >= k)) from++;
    return from;
  });
  const spannedLater = (k: number) => rows.slice(ownFrom[k]).some((row) => row.spans.some((s) => s.first <= k && s.last >= k));
  const textAbove = (k: number) => texts.slice(0, ownFrom[k]).some((t) => t[k] !== '');
  if (columns.some((_, k) => spannedLater(k) || textAbove(k))) return undefined;
  const code = codeOnly(styles);
  const cell = (text: string, colSpan: number, rowSpan: number): CellSource => ({ ...(textCells([text], code)[0] as CellSource), colSpan, rowSpan });
  const grid: CellSource[][] = rows.map(() => columns.map((): CellSource => ({ blocks: [], colSpan: 1, rowSpan: 1, covered: true })));
  rows.forEach(({ spans }, r) => {
    for (const s of spans) (grid[r] as CellSource[])[s.first] = cell(s.piece.text.trim(), s.last - s.first + 1, 1);
  });
  columns.forEach((_, k) => {
    const from = ownFrom[k] as number;
    const text = joinLines(
      texts
        .slice(from)
        .map((t) => t[k] as string)
        .filter(Boolean),
    );
    (grid[from] as CellSource[])[k] = cell(text, 1, rows.length - from);
  });
  return grid;
}
