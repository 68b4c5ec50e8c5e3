// Tables whose cells are outlined one by one: HTML's `border-collapse: separate` (Chrome's print of
// a table with `border-spacing`) draws each cell as a box of its own, a few points from its
// neighbours, so no cell's rulings touch another's and pdf-grid.ts finds no grid — only boxes of
// one cell, no table. Boxes that stand beside or under one another that close are widened to meet
// halfway, so their facing edges snap into one ruling and the boxes into one grid. Pure functions.

import { MAX_PAIRS, mergeRulings, touchingGroups, type Box, type Line, type MergedRulings, type Ruling } from './pdf-grid.js';

/** Boxes at most this many points apart are one table's cells (CSS border-spacing, 2 to 6 px, and the border). */
const SPACING = 5;
/** Outlined boxes a grid needs: two rows of two cells. */
const MIN_BOXES = 4;

/** A group of rulings that is one closed box: two horizontal and two vertical lines. */
function boxOf({ hs, vs }: { hs: Line[]; vs: Line[] }): Box | undefined {
  if (hs.length !== 2 || vs.length !== 2) return undefined;
  const [left, right] = vs.map((v) => v.at).sort((a, b) => a - b) as [number, number];
  const [top, bottom] = hs.map((h) => h.at).sort((a, b) => a - b) as [number, number];
  return { left, right, top, bottom };
}

const overlaps = (a0: number, a1: number, b0: number, b1: number) => Math.min(a1, b1) - Math.max(a0, b0) > 0;

/** Whether two boxes stand side by side or one under the other, at most SPACING apart. */
function besides(a: Box, b: Box): boolean {
  const across = Math.max(b.left - a.right, a.left - b.right);
  const down = Math.max(b.top - a.bottom, a.top - b.bottom);
  return (
    (across >= 0 && across <= SPACING && overlaps(a.top, a.bottom, b.top, b.bottom)) ||
    (down >= 0 && down <= SPACING && overlaps(a.left, a.right, b.left, b.right))
  );
}

const rulingsOf = (box: Box): Ruling[] => [
  { x0: box.left, y0: box.top, x1: box.right, y1: box.top },
  { x0: box.left, y0: box.bottom, x1: box.right, y1: box.bottom },
  { x0: box.left, y0: box.top, x1: box.left, y1: box.bottom },
  { x0: box.right, y0: box.top, x1: box.right, y1: box.bottom },
];

/** The rulings with cells outlined one by one, close together, widened to meet in one grid; others as they were. */
export function outlinedCells(rulings: MergedRulings): MergedRulings {
  if (rulings.horizontal.length * rulings.vertical.length > MAX_PAIRS) return rulings; // a drawing: bounded work
  const groups = touchingGroups(rulings.horizontal, rulings.vertical);
  const boxes = groups.map((g) => ({ g, box: boxOf(g) })).filter((b): b is { g: (typeof groups)[number]; box: Box } => b.box !== undefined);
  const cells = boxes.filter(({ box }) => boxes.some((other) => other.box !== box && besides(box, other.box)));
  if (cells.length < MIN_BOXES) return rulings;
  const taken = new Set(cells.flatMap(({ g }) => [...g.hs, ...g.vs]));
  const half = SPACING / 2;
  const widened = cells.flatMap(({ box }) => rulingsOf({ left: box.left - half, right: box.right + half, top: box.top - half, bottom: box.bottom + half }));
  const kept: Ruling[] = [
    ...rulings.horizontal.filter((h) => !taken.has(h)).map((h) => ({ x0: h.from, y0: h.at, x1: h.to, y1: h.at })),
    ...rulings.vertical.filter((v) => !taken.has(v)).map((v) => ({ x0: v.at, y0: v.from, x1: v.at, y1: v.to })),
  ];
  return mergeRulings([...kept, ...widened]);
}
