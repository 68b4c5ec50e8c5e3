// Tables ruled only by horizontal lines: LaTeX's booktabs (a top rule, a mid rule under the
// header, a bottom rule), Word and LibreOffice tables with only their top, header and bottom
// borders. No vertical line draws the columns, so they come from the text: the x bands the
// pieces of the rows between the rules leave free are the column gaps. Rows come from the
// spacing: a wrapped cell's lines sit at line spacing, rows further apart (or, where the spacing
// is even, a new row starts with text in the first column), so a cell's lines are joined into
// one cell. Pure functions over plain data, tested on arrays.

import { table, textCells } from './blocks.js';
import { blocksToHtml } from './render.js';
import { visualLines, type Box, type GridLine, type GridTable, type Line } from './pdf-grid.js';
import { bandEnd } from './pdf-table-bands.js';
import { linesStyledTexts } from './pdf-piece-style.js';
import { cellsOf, columnOf, spannedHeader } from './pdf-header-spans.js';
import { holdsTextBetweenTables } from './pdf-rule-sections.js';
import { numericRows } from './pdf-numeric-rows.js';
import { tightColumns } from './pdf-tight-columns.js';
import { twoSpacings } from './pdf-row-spacing.js';
import { staysUnderHeader, withHeaderColumns } from './pdf-header-columns.js';
import { rowSpacing } from './pdf-cut-spacing.js';

/** A horizontal ruling merged along its length: its y, and its x extent. */
export type Rule = Line;

/** Rule ends this close (points) are the same table's edges. */
const EDGE = 3;
/** Shorter rules are underlines and separators inside text, not a table's frame. */
const MIN_RULE = 60;
/** Pieces closer than this many ems belong to one column (a word space is a quarter em). */
const COLUMN_GAP = 0.8;
/** A line at least this many ems wide that fills its column is prose, not a cell. */
const PROSE_EMS = 15;
/** Baseline distances up to this many times the smallest are a wrapped cell's lines. */
const WRAP = 1.2;
/**
 * Text whose bottom stands within this many ems above a rule hugs it, as a cell's text hugs the
 * rule under it (cell padding, ~0.1 cm); the text before a table ends a paragraph's spacing above it.
 */
const HUG = 0.4;
/**
 * A row's first line starts within this many ems under the rule over it: Chrome's cell padding and
 * half the leading (about half an em; a code line centred in a taller row of Arabic text, 0.51),
 * where a paragraph after the table stands the table's margin (an em) and its own leading off.
 */
const ROW_UNDER_RULE = 0.8;

/**
 * The tables framed by horizontal rules of one extent, each with the text lines it holds.
 * `rules` are the page's horizontal rulings that no vertical ruling touches; `lines` the text
 * lines no ruled grid took.
 */
export function ruleTables<L extends GridLine>(rules: readonly Rule[], lines: readonly L[]): GridTable<L>[] {
  const tables: GridTable<L>[] = [];
  const free = new Set(lines);
  const budget = { tries: MAX_TRIES };
  for (const frame of frames(rules)) {
    for (const found of frameTables(toPageEnd(frame, lines), rules, [...free], budget)) {
      for (const line of found.lines) free.delete(line);
      tables.push(found);
    }
  }
  return tables;
}

/** Runs of rules, top to bottom, that start and end at the same x: a table's top, inner and bottom rules. */
function frames(rules: readonly Rule[]): Rule[][] {
  const chains: Rule[][] = [];
  for (const rule of [...rules].filter((r) => r.to - r.from >= MIN_RULE).sort((a, b) => a.at - b.at)) {
    const chain = chains.find((c) => Math.abs((c.at(-1) as Rule).from - rule.from) <= EDGE && Math.abs((c.at(-1) as Rule).to - rule.to) <= EDGE);
    if (chain) chain.push(rule);
    else chains.push([rule]);
  }
  return chains.filter((c) => c.length >= 2);
}

/**
 * A frame whose last two rules hold one row — a header, its cells' lines centred on each other
 * (bodyRows' band) — with only the frame's text below it down to the page's end, the first of
 * it hugging the rule: a table the page break cut, its header ruled above and below and its
 * body's bottom rule on the next page (Chrome's print of pandoc's table). The frame gets a rule under the page's last line, so the
 * body is read with its header; else the header's lines alone read as a table of two rows.
 */
function toPageEnd<L extends GridLine>(frame: readonly Rule[], lines: readonly L[]): readonly Rule[] {
  const [above, last] = [frame.at(-2) as Rule, frame.at(-1) as Rule];
  const within = (l: GridLine) => l.bbox.x >= last.from - EDGE && l.bbox.x + l.bbox.w <= last.to + EDGE;
  const below = lines.filter((l) => middle(l) > last.at);
  const between = visualLines(lines.filter((l) => middle(l) > above.at && middle(l) < last.at && within(l)));
  if (below.length === 0 || !below.every(within) || !hugsBelow(last, below) || !isOneRow(between) || !holdsCells(below)) return frame;
  return [...frame, { ...last, at: Math.max(...below.map((l) => l.bbox.y + l.bbox.h)) + 1 }];
}

/**
 * Whether some line of `lines` stands in two cells a column gap apart: a cut table's body does,
 * where a caption and a page number under a table's bottom rule (LaTeX's \caption below its
 * table) are one piece a line.
 */
function holdsCells(lines: readonly GridLine[]): boolean {
  return visualLines(lines).some((v) =>
    v.some((p, k) => k > 0 && p.bbox.x - ((v[k - 1] as GridLine).bbox.x + (v[k - 1] as GridLine).bbox.w) > p.font.size * COLUMN_GAP),
  );
}

/**
 * Whether the topmost line under a rule starts within ROW_UNDER_RULE ems of it, as a row's text starts under
 * its header's rule (cell padding); a paragraph after a table's bottom rule stands a margin off.
 */
function hugsBelow(rule: Rule, below: readonly GridLine[]): boolean {
  const top = below.reduce((a, b) => (b.bbox.y < a.bbox.y ? b : a));
  return top.bbox.y - rule.at <= top.font.size * ROW_UNDER_RULE;
}

/** Visual lines that make one table row: one line, or one band of cells centred on each other. */
function isOneRow(visual: readonly GridLine[][]): boolean {
  return visual.length === 1 || (visual.length > 1 && bandsOf(visual).every((mark, k) => mark === (k === 0 ? 'start' : 'in')));
}

/** Windows of rules tried per page at most: bounded work on a page of many like rules (graph paper). */
const MAX_TRIES = 2_000;

/**
 * The tables a frame's rules hold, top to bottom: from each rule, the widest run of rules down
 * that holds a table (two tables of one width on a page share a chain, the caption between
 * them no table; a page's header and footer rules frame its prose, no table).
 */
function frameTables<L extends GridLine>(frame: readonly Rule[], rules: readonly Rule[], lines: readonly L[], budget: { tries: number }): GridTable<L>[] {
  const found: GridTable<L>[] = [];
  let free = lines;
  for (let start = 0; start + 1 < frame.length; start++) {
    for (let end = frame.length; end >= start + 2 && budget.tries > 0; end--) {
      budget.tries--;
      const table = tableBetween(frame.slice(start, end), rules, free, found.at(-1)?.box.bottom === (frame[start] as Rule).at);
      if (!table) continue;
      found.push(table);
      free = free.filter((l) => !table.lines.has(l));
      start = end - 2; // the next table may start at this one's bottom rule
      break;
    }
  }
  return found;
}

const middle = (line: GridLine) => line.bbox.y + line.bbox.h / 2;

/**
 * The table the rules hold. Where the top rule is the bottom rule of the table above
 * (`sharedTop`), the lines above the next rule must fill two cells to be a header: a heading
 * between two tables is not one (pandoc's tables in Chrome's print, each ruled at its top, under
 * its header and at its bottom). Text standing off both rules of a section, the header's too, is
 * no row (pdf-rule-sections.ts). `all` are the page's rules: a short one under a header's line
 * marks the columns a cell of it spans (pdf-header-spans.ts).
 */
function tableBetween<L extends GridLine>(rules: readonly Rule[], all: readonly Rule[], lines: readonly L[], sharedTop: boolean): GridTable<L> | undefined {
  const top = (rules[0] as Rule).at;
  const bottom = (rules.at(-1) as Rule).at;
  const left = Math.min(...rules.map((r) => r.from)) - EDGE;
  const right = Math.max(...rules.map((r) => r.to)) + EDGE;
  if (huggedAbove(rules[0] as Rule, lines)) return undefined;
  const inside: L[] = [];
  for (const line of lines) {
    if (middle(line) <= top || middle(line) >= bottom) continue;
    const { x, w } = line.bbox;
    if (x + w <= left || x >= right) continue; // beside the table (the other column of the page)
    if (x < left - EDGE || x + w > right + EDGE) return undefined; // text running across the frame's edge
    inside.push(line);
  }
  if (holdsTextBetweenTables(rules, inside, 0)) return undefined;
  const visual = visualLines(inside);
  const inner = rules.slice(1, -1).map((r) => r.at);
  // The header: what lies above the first inner rule, or the first line when there is none.
  const headerEnd = inner[0];
  const header = headerEnd === undefined ? visual.slice(0, 1) : visual.filter((v) => middle(v[0] as GridLine) < headerEnd);
  const body = visual.slice(header.length);
  if (!header.length || !body.length || isProseAbove(header, right - left)) return undefined;
  // A ruled header's cells over no body column are columns too (pdf-header-columns.ts).
  const bodyColumns = tightColumns(columnsOf(body.flat()), body);
  const columns = headerEnd === undefined ? bodyColumns : withHeaderColumns(bodyColumns, header.flat());
  if (columns.length < 2 || isProse(body, columns)) return undefined;
  const read = bodyRows(body, columns, inner);
  const lineRows = [header, ...read.rows.flatMap((row) => numericRows(row, columns))];
  const rows = lineRows.map((row) => cellsOf(row, columns));
  if (sharedTop && (rows[0] as string[]).filter(Boolean).length < 2) return undefined;
  // Most rows fill two cells or more, or stand under a ruled header of two cells or more that
  // showed columns the body leaves empty, one cell a piece (a results table's first column
  // alone): else these are paragraphs between two rules.
  const headed = columns.length > bodyColumns.length && (rows[0] as string[]).filter(Boolean).length >= 2;
  const isRow = (r: string[], k: number) => r.filter(Boolean).length >= 2 || (headed && k > 0 && staysUnderHeader(lineRows[k] as GridLine[][], header.flat()));
  if (rows.filter(isRow).length * 2 < rows.length || rows.length < 2) return undefined;
  const box: Box = { left, right, top, bottom };
  const styles = linesStyledTexts(inside);
  const withinHeader = all.filter((r) => r.at > top && r.at < (headerEnd ?? bottom) && r.from >= left && r.to <= right);
  const cells = rows.map((row) => textCells(row, styles));
  const spanned = spannedHeader(header, columns, withinHeader, styles);
  const found = table(spanned ? [...spanned, ...cells.slice(1)] : cells, blocksToHtml);
  // The spacing goes with the table: a part cut by a page break is read again by the next part's (pdf-cut-spacing.ts).
  const pdfRowSpacing = rowSpacing(lineRows.slice(1), inner, read.wrap);
  return { box, table: { ...found, data: { ...found.data, pdfRowSpacing } }, lines: new Set(inside) };
}

/**
 * Whether text hugs the rule from above, as a header row's text hugs the rule under it: the rule
 * is no table's top but the line under a header. Pandoc's and Word's plain table styles rule only
 * that line; two such tables of one width on a page give two rules of one extent, and between
 * them lie the end of the first table, the text between the two and the second's header: no table.
 */
function huggedAbove(rule: Rule, lines: readonly GridLine[]): boolean {
  return lines.some(
    (l) => l.bbox.x < rule.to && l.bbox.x + l.bbox.w > rule.from && l.bbox.y + l.bbox.h <= rule.at && rule.at - (l.bbox.y + l.bbox.h) <= l.font.size * HUG,
  );
}

/** Column bands: the x extents of the pieces merged where they overlap or nearly meet. */
function columnsOf(pieces: readonly GridLine[]): { from: number; to: number }[] {
  const bands: { from: number; to: number }[] = [];
  for (const p of [...pieces].sort((a, b) => a.bbox.x - b.bbox.x)) {
    const last = bands.at(-1);
    const from = p.bbox.x;
    const to = p.bbox.x + p.bbox.w;
    if (last && from - last.to <= p.font.size * COLUMN_GAP) last.to = Math.max(last.to, to);
    else bands.push({ from, to });
  }
  return bands;
}

/**
 * Whether what lies above a frame's first inner rule is prose, not a header: two lines or more
 * that run across the frame's width (a paragraph's full lines). A page's rule (pandoc's `---`,
 * Chrome's <hr>) as wide as the table under it chains with the table's rules; the section
 * between them is no header row.
 */
function isProseAbove(header: readonly GridLine[][], width: number): boolean {
  const across = (p: GridLine) => p.bbox.w >= p.font.size * PROSE_EMS && p.bbox.w >= width * FILLS;
  return header.filter((v) => v.some(across)).length >= 2;
}

/** The share of its frame's width a line of prose fills. */
const FILLS = 0.85;

/** Long lines filling their column, line after line: columns of prose (a two-column page between a header and a footer rule). */
function isProse(body: readonly GridLine[][], columns: readonly { from: number; to: number }[]): boolean {
  const full = (p: GridLine) => {
    const band = columns[columnOf(p, columns)] as { from: number; to: number };
    return p.bbox.w >= p.font.size * PROSE_EMS && p.bbox.w >= (band.to - band.from) * 0.85;
  };
  // A line with nothing in the first column is a cell's wrapped line (a page whose table goes on
  // from the page before with a long description's lines), not a column of prose beside another.
  return body.filter((v) => v.every(full) && v.some((p) => columnOf(p, columns) === 0)).length * 2 > body.length;
}

/**
 * The body's visual lines grouped into rows. A rule between two lines always starts a row, and
 * the lines of a band (a cell centred on a neighbour's lines, pdf-table-bands.ts) are one row.
 * Elsewhere, where the baselines are spaced unevenly (cell padding), lines at the smallest
 * spacing are one row's wrapped cells; where they are even (LaTeX), a line with text in the first
 * column starts a row. `wrap` is the wrapped lines' spacing where the spacing told rows apart,
 * measured between lines in no band.
 */
function bodyRows(
  body: readonly GridLine[][],
  columns: readonly { from: number; to: number }[],
  rules: readonly number[],
): { rows: GridLine[][][]; wrap?: number } {
  const baseline = (v: readonly GridLine[]) => (v[0] as GridLine).y;
  const ruledBetween = (a: number, b: number) => rules.some((r) => r > a && r < b);
  const pitches = body.slice(1).map((v, i) => baseline(v) - baseline(body[i] as GridLine[]));
  const band = bandsOf(body);
  // A wrapped cell's line spacing, measured between lines in no band: a cell centred on its
  // neighbours' lines stands half a line off them (Chrome's print of pandoc's tables). Where a
  // band shows cells centred in padded rows, rows a quarter line further apart than a cell's lines
  // (Chrome's 1.25) are uneven; elsewhere it takes more (LaTeX's even rows vary a little).
  // A pitch across a rule always starts a row and says nothing of padding: booktabs sets a rule's
  // own space above and below it, so LaTeX's even rows would read as uneven across a \midrule.
  const unruled = pitches.map((_, i) => !ruledBetween(baseline(body[i] as GridLine[]), baseline(body[i + 1] as GridLine[])));
  const measured = unruled.some(Boolean) ? pitches.filter((_, i) => unruled[i]) : pitches;
  const unbanded = pitches.filter((_, i) => band[i] === undefined && band[i + 1] === undefined && (unruled[i] || !unruled.some(Boolean)));
  const smallest = Math.min(...(unbanded.length ? unbanded : measured));
  const uneven = measured.some((p) => p > smallest * WRAP * (band.some(Boolean) ? 1 : 1.15)) || twoSpacings(body, pitches, columns);
  const firstColumnFilled = (v: readonly GridLine[]) => v.some((p) => columnOf(p, columns) === 0);
  const rows: GridLine[][][] = [];
  body.forEach((v, i) => {
    const previous = body[i - 1];
    const unbanded = () => (uneven ? (pitches[i - 1] as number) <= smallest * WRAP : !firstColumnFilled(v));
    const continues = previous !== undefined && !ruledBetween(baseline(previous), baseline(v)) && (band[i] === 'in' || (band[i] === undefined && unbanded()));
    if (continues) (rows.at(-1) as GridLine[][]).push(v);
    else rows.push([v]);
  });
  return uneven && unbanded.length ? { rows, wrap: smallest } : { rows };
}

/** Which visual lines start a band ('start') or go on with one ('in'); undefined for lines in none. */
function bandsOf(body: readonly GridLine[][]): ('start' | 'in' | undefined)[] {
  const lines = body.map((v) => ({
    top: Math.min(...v.map((p) => p.bbox.y)),
    bottom: Math.max(...v.map((p) => p.bbox.y + p.bbox.h)),
    size: Math.max(...v.map((p) => p.font.size)),
    units: v.map((p) => ({ x: p.bbox.x, right: p.bbox.x + p.bbox.w, text: p.text })),
  }));
  const marks: ('start' | 'in' | undefined)[] = body.map(() => undefined);
  for (let i = 0; i < lines.length; i++) {
    const end = bandEnd(lines, i);
    if (end === undefined) continue;
    marks.fill('in', i, end);
    marks[i] = 'start';
    i = end - 1;
  }
  return marks;
}
