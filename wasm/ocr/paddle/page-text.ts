// From PP-OCR's lines to a page: reading order (recursive XY-cut: columns where a vertical
// band of the page is empty, else rows where a horizontal one is; vertical Chinese columns
// right to left), paragraphs where the gap between lines is wider than a line, and the
// word boxes a searchable PDF's text layer needs (each CJK character a word of its own).

import type { OcrLine, OcrWord, PixelBox } from '../../../core/ocr-layout.js';
import { isCjkCharacter, removeCjkSpaces } from '../../../core/cjk-text.js';
import type { Quad } from './geometry.js';
import type { PageChar, PageLine } from './system.js';
import { median } from '../../../core/median.js';

interface Placed {
  line: PageLine;
  box: PixelBox;
}

/** Lines in reading order, grouped into paragraphs. */
export function readingOrder(lines: readonly PageLine[]): PageLine[][] {
  const placed = lines.map((line) => ({ line, box: boundingBox(line.quad) }));
  const thickness = Math.max(1, median(placed.map(({ line, box }) => (line.vertical ? box[2] - box[0] : box[3] - box[1]))));
  // A page set in vertical columns has short pieces too (a column's last characters, broken
  // columns): the majority decides how the page reads.
  const vertical = 2 * placed.filter((p) => p.line.vertical).length > placed.length;
  const spacing = { thickness, paragraphGap: Math.max(0.8 * thickness, 1.5 * median(lineGaps(placed))), vertical };
  return cut(placed, spacing).map((block) => block.map((p) => p.line));
}

interface Spacing {
  /** Typical line height (width, for vertical lines). */
  thickness: number;
  /** A gap between two lines at least this wide starts a new paragraph. */
  paragraphGap: number;
  /** The page reads in vertical columns, right to left. */
  vertical: boolean;
}

/** Gaps between each horizontal line and the next one below it that shares some of its width. */
function lineGaps(placed: readonly Placed[]): number[] {
  const sorted = placed.filter((p) => !p.line.vertical).sort((a, b) => a.box[1] - b.box[1]);
  const gaps: number[] = [];
  sorted.forEach((upper, i) => {
    const lower = sorted.slice(i + 1).find((p) => p.box[1] >= upper.box[3] && overlapsAcross(upper.box, p.box));
    if (lower) gaps.push(lower.box[1] - upper.box[3]);
  });
  return gaps;
}

/** The page's text: lines joined by newlines, paragraphs by blank lines, no spaces between CJK characters. */
export function pageText(paragraphs: readonly PageLine[][]): string {
  return paragraphs.map((paragraph) => paragraph.map((line) => removeCjkSpaces(line.text.trim())).join('\n')).join('\n\n');
}

function cut(items: Placed[], spacing: Spacing): Placed[][] {
  if (items.length <= 1) return items.length ? [items] : [];
  const { vertical } = spacing;
  // Columns: a band with no line in it, wider than half a line (any gap between vertical columns).
  const columns = split(items, 0, vertical ? 0 : spacing.thickness / 2);
  if (columns.length > 1) return (vertical ? columns.reverse() : columns).flatMap((column) => cut(column, spacing));
  const rows = split(items, 1, 0);
  if (rows.length > 1)
    return joinParagraphs(
      rows.map((row) => cut(row, spacing)),
      spacing.paragraphGap,
    );
  // Overlapping boxes that no cut separates: top to bottom, then left to right.
  return [[...items].sort((a, b) => a.box[1] - b.box[1] || a.box[0] - b.box[0])];
}

/** Groups along x (axis 0) or y (axis 1), split wherever a gap wider than `minGap` runs across all items. */
function split(items: readonly Placed[], axis: 0 | 1, minGap: number): Placed[][] {
  const sorted = [...items].sort((a, b) => a.box[axis] - b.box[axis]);
  const groups: Placed[][] = [];
  let reach = -Infinity;
  for (const item of sorted) {
    if (groups.length === 0 || item.box[axis] - reach > minGap) groups.push([]);
    (groups.at(-1) as Placed[]).push(item);
    reach = Math.max(reach, item.box[axis + 2] as number);
  }
  return groups;
}

/** Rows read one after another; a row close under the one before continues its paragraph. */
function joinParagraphs(rows: Placed[][][], paragraphGap: number): Placed[][] {
  const blocks: Placed[][] = [];
  for (const row of rows) {
    const [first, ...rest] = row;
    const previous = blocks.at(-1)?.at(-1);
    const head = first?.[0];
    if (first && previous && head && head.box[1] - previous.box[3] < paragraphGap && overlapsAcross(previous.box, head.box)) {
      (blocks.at(-1) as Placed[]).push(...first);
      blocks.push(...rest);
    } else {
      blocks.push(...row);
    }
  }
  return blocks;
}

function overlapsAcross(a: PixelBox, b: PixelBox): boolean {
  return Math.min(a[2], b[2]) > Math.max(a[0], b[0]);
}

/** Words and baselines for the text layer, in reading order. */
export function layoutLines(paragraphs: readonly PageLine[][]): OcrLine[] {
  return paragraphs.flat().flatMap((line) => (line.vertical ? line.chars.filter((c) => c.text.trim() !== '').map(charLine) : [horizontalLine(line)]));
}

function horizontalLine(line: PageLine): OcrLine {
  const box = boundingBox(line.quad);
  const [, , bottomRight, bottomLeft] = line.quad;
  // The box reaches below the glyphs by the unclip margin; CJK glyphs sit on about this line.
  const lift = (box[3] - box[1]) * 0.15;
  return { box, baseline: [bottomLeft.y - lift, bottomRight.y - lift], words: words(line.chars) };
}

/** A character of a vertical column, laid as a one-character line in its own cell. */
function charLine(char: PageChar): OcrLine {
  const box = boundingBox(char.quad);
  return { box, baseline: [box[3] - (box[3] - box[1]) * 0.15, box[3] - (box[3] - box[1]) * 0.15], words: [{ text: char.text, box }] };
}

/** CJK characters one word each; other characters gathered into words between spaces. */
function words(chars: readonly PageChar[]): OcrWord[] {
  const out: OcrWord[] = [];
  let current: { text: string; box: PixelBox } | undefined;
  for (const char of chars) {
    if (char.text.trim() === '') {
      current = undefined;
      continue;
    }
    const box = boundingBox(char.quad);
    // A CJK character never joins a word; Latin letters, digits and punctuation gather until a space.
    if (current && !isCjkCharacter(char.text) && !isCjkCharacter(current.text)) {
      current.text += char.text;
      current.box = [Math.min(current.box[0], box[0]), Math.min(current.box[1], box[1]), Math.max(current.box[2], box[2]), Math.max(current.box[3], box[3])];
      continue;
    }
    current = { text: char.text, box };
    out.push(current);
  }
  return out;
}

export function boundingBox(quad: Quad): PixelBox {
  const xs = quad.map((p) => p.x);
  const ys = quad.map((p) => p.y);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}
