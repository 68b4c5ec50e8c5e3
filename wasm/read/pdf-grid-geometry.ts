// Where a ruled table's rows and columns stand on the page, and how its text sits in its cells,
// for a writer that sets the table as the PDF does (the editable DOCX): each column as wide as the
// PDF draws it and each row as tall, its text at the PDF's size and as far in from the rules.
// read's Markdown ignores it. Pure functions over plain data.

import { median } from '../../core/median.js';
import { BOLD_FACE } from './blocks.js';

/** What a cell's text line tells of its place and size (pdf-grid.ts's GridLine has these). */
interface CellText {
  bbox: { x: number; y: number; w: number; h: number };
  font: { size: number; weight?: string; name?: string };
}

/** How a line is drawn: its width across (points) and its colour ("r,g,b" in 0–1). */
export interface Pen {
  weight: number;
  color: string;
}

/** A grid's rules: the pen most of its lines are drawn with, and the heaviest at each row boundary (top to bottom; none where no line is drawn). */
export interface GridRules {
  usual: Pen;
  rows: (Pen | undefined)[];
}

/** Where a row's text stands down the page (points from the page's top). */
export interface RowText {
  top: number;
  bottom: number;
}

export interface GridGeometry {
  /** Points from the page's left to each column's ruling, left to right (one more than the columns). */
  xs: number[];
  /** Points from the page's top to each row's ruling, top to bottom (one more than the rows). */
  ys: number[];
  /** The cells' usual text size in points, and the points their lines take across the page, all added (how wide the PDF's face sets them). */
  size: number;
  width: number;
  /** Points the cells' text keeps at the least from the ruling at its left. */
  padding: number;
  /** How its lines are drawn, where the page says (a header's heavier rule under it). */
  rules?: GridRules;
  /** Whether the first row's text is set bold (most of its width): a writer bolds a header only where the PDF does. */
  headerBold: boolean;
  /** Points from the page's top to each row's text: its highest line's top and lowest line's bottom over its cells (none: no text). */
  rowText: (RowText | undefined)[];
}

declare module 'mdast' {
  interface Data {
    /** A ruled table's grid (pdf-grid-geometry.ts). */
    pdfGrid?: GridGeometry;
  }
}

/** Padding past this (points) is text set apart in its cell (centred, aligned right), not the table's padding. */
const MOST_PADDING = 18;

/**
 * The grid's geometry from its rulings and the text lines of each cell (each with the cell's
 * left ruling); undefined where no cell holds text.
 */
export function gridGeometry(
  xs: readonly number[],
  ys: readonly number[],
  cells: readonly { left: number; row: number; lines: readonly CellText[] }[],
  pens: { rows: (Pen | undefined)[]; all: readonly (Pen & { length: number })[] } = { rows: [], all: [] },
): GridGeometry | undefined {
  const filled = cells.filter((cell) => cell.lines.length > 0);
  const sizes = filled.flatMap((cell) => cell.lines.map((line) => line.font.size));
  if (sizes.length === 0) return undefined;
  const size = median(sizes);
  // The least: text centred in its cell stands further in than the padding.
  const padding = Math.min(...filled.map((cell) => Math.min(...cell.lines.map((line) => line.bbox.x)) - cell.left));
  const usual = usualPen(pens.all);
  return {
    xs: [...xs],
    ys: [...ys],
    size,
    width: filled.reduce((sum, cell) => sum + cell.lines.reduce((w, line) => w + line.bbox.w, 0), 0),
    padding: Math.max(0, Math.min(MOST_PADDING, padding)),
    headerBold: mostlyBold(filled.filter((cell) => cell.row === 0).flatMap((cell) => cell.lines)),
    rowText: rowTexts(ys.length - 1, filled),
    ...(usual && { rules: { usual, rows: pens.rows } }),
  };
}

/**
 * Where each of `rows` rows' text stands down the page, over all its cells: how far in from its
 * rules the PDF sets it (a writer holds a row padded around its text as tall as the PDF's). A
 * cell spanning rows counts in its first, whose text then reaches past its rule.
 */
function rowTexts(rows: number, cells: readonly { row: number; lines: readonly CellText[] }[]): (RowText | undefined)[] {
  const texts: (RowText | undefined)[] = Array.from({ length: rows }, () => undefined);
  for (const { row, lines } of cells) {
    const [top, bottom] = [Math.min(...lines.map((l) => l.bbox.y)), Math.max(...lines.map((l) => l.bbox.y + l.bbox.h))];
    const seen = texts[row];
    texts[row] = seen ? { top: Math.min(seen.top, top), bottom: Math.max(seen.bottom, bottom) } : { top, bottom };
  }
  return texts;
}

/** Whether bold lines take more of the width than the others (none: not bold). */
function mostlyBold(lines: readonly CellText[]): boolean {
  const bold = lines.reduce((sum, line) => sum + (line.font.weight === 'bold' || BOLD_FACE.test(line.font.name ?? '') ? line.bbox.w : 0), 0);
  const all = lines.reduce((sum, line) => sum + line.bbox.w, 0);
  return bold * 2 > all;
}

/** Weights this close (points) are one pen's: a PDF writer's rounding. */
const SAME_WEIGHT = 0.05;

/**
 * The pen that draws the most of the grid's length (the first met among as much): a nested
 * table's many short inner lines are not the table's own. Each pen's share is summed over the
 * pens of its colour within SAME_WEIGHT of it, in one pass over them sorted by weight: a hostile
 * grid of thousands of segments costs n log n, not n².
 */
function usualPen(pens: readonly (Pen & { length: number })[]): Pen | undefined {
  type Drawn = Pen & { length: number };
  const byColour = new Map<string, Drawn[]>();
  for (const pen of pens) {
    const group = byColour.get(pen.color);
    if (group) group.push(pen);
    else byColour.set(pen.color, [pen]);
  }
  const shares = new Map<Drawn, number>();
  for (const group of byColour.values()) {
    const sorted = group.sort((a, b) => a.weight - b.weight);
    let [low, high, sum] = [0, 0, 0];
    for (const pen of sorted) {
      for (; high < sorted.length && (sorted[high] as Drawn).weight - pen.weight <= SAME_WEIGHT; high++) sum += (sorted[high] as Drawn).length;
      for (; pen.weight - (sorted[low] as Drawn).weight > SAME_WEIGHT; low++) sum -= (sorted[low] as Drawn).length;
      shares.set(pen, sum);
    }
  }
  let best: { pen: Pen; length: number } | undefined;
  for (const pen of pens) {
    const length = shares.get(pen) ?? 0;
    // Sums met in another order differ in the last bits: as much is within a nanopoint.
    if (!best || length > best.length + 1e-9) best = { pen: { weight: pen.weight, color: pen.color }, length };
  }
  return best?.pen;
}
