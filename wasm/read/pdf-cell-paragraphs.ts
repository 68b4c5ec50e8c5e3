// A ruled table's cell as the paragraphs and list items it sets, for a writer that keeps them (the
// editable DOCX). read's Markdown puts a cell on one line, its lines joined (pdf-grid.ts); a DOCX
// cell written as that one paragraph runs shorter than the PDF's row, and its list reads as one
// run. Here a line that starts with a bullet or a number starts an item of its own, a line below
// one the PDF ended short of the cell's right edge with a sentence's end starts a paragraph, and
// every other line continues the one above (it wrapped). Pure functions over plain data.

import type { BlockContent } from 'mdast';
import { joinLines } from '../../core/cjk-text.js';
import { nestLists, paragraph, type ListEntry } from './blocks.js';
import { BULLET, NUMBERED, withoutBullet } from './pdf-page-model.js';

/** One visual line of a cell: its text, where it starts and ends across the page (points), its size. */
export interface CellLine {
  text: string;
  left: number;
  right: number;
  size: number;
  /** Points from the page's top to its baseline. */
  y: number;
}

/** What ends a sentence or a label at a line's end: a line ended short after it was ended there. */
const SENTENCE_END = /[.!?:。！？：]$/u;
/** A line that starts with a capital after a line ended short starts anew (a wrapped line's next word would have fitted). */
const CAPITAL = /^\p{Lu}/u;
/** Steps down past a line's pitch by this share of it are space above a paragraph (an empty line, a paragraph's spacing). */
const SPACED = 0.3;
/** Points per em a bullet's text stands right of a lower level's bullet before it is nested. */
const LEVEL_EMS = 1.2;

interface Part {
  text: string[];
  /** A list item's marker: where it stands across the page, and a numbered item's number (1 for "1." or "1)"). */
  item?: { left: number; number?: number };
  /** Points of space the PDF leaves above it beyond the cell's line pitch. */
  above?: number;
}

/** A star or a dash typed before a cell's text is more often a note's mark than a list's: it stays text. */
const TYPED_MARK = /^[*\-–—]/;

/** A numbered item's number, where it is written in digits. */
const DIGITS = /^(\d{1,3})[.)]\s/;

/**
 * The cell's blocks, undefined where they are one paragraph (as read has it). `right` is where the
 * cell's text may run to: its right edge less its padding.
 */
export function cellBlocks(lines: readonly CellLine[], right: number): BlockContent[] | undefined {
  const parts: Part[] = [];
  const pitch = linePitch(lines);
  // A mark before a cell's only item is the cell's text as the PDF shows it (◦ before a note): lists have two items or more.
  const bulletLine = (text: string) => BULLET.test(text) && !TYPED_MARK.test(text);
  const bullets = lines.filter((line) => bulletLine(line.text.trim())).length >= 2;
  const numbers = lines.filter((line) => NUMBERED.test(line.text.trim())).length >= 2;
  for (const [k, line] of lines.entries()) {
    const text = line.text.trim();
    const last = parts.at(-1);
    const above = lines[k - 1];
    const space = above && pitch !== undefined ? line.y - above.y - pitch : 0;
    const spaced = pitch !== undefined && space > pitch * SPACED;
    const bulleted = bullets && bulletLine(text);
    const numbered = !bulleted && numbers && NUMBERED.test(text);
    if (!last || !above || spaced || bulleted || numbered || endsPart(above, line, right, last)) {
      const digits = DIGITS.exec(text)?.[1];
      // Items numbered by letters or roman numerals keep their numbers as text: a paragraph each.
      const item = bulleted || digits !== undefined ? { left: line.left, ...(digits !== undefined && { number: Number(digits) }) } : undefined;
      parts.push({ text: [bulleted ? withoutBullet(text).trim() : text], ...(item && { item }), ...(spaced && { above: space }) });
    } else last.text.push(text);
  }
  if (parts.length < 2) return undefined;
  return blocksOf(countedFromOne(parts), Math.min(...lines.map((l) => l.size)));
}

/** The cell's line pitch: its closest step from one line down to the next (none for one line). */
function linePitch(lines: readonly CellLine[]): number | undefined {
  const steps = lines.slice(1).map((line, k) => line.y - (lines[k] as CellLine).y);
  const pitch = Math.min(...steps.filter((step, k) => step > (lines[k] as CellLine).size * 0.8));
  return Number.isFinite(pitch) ? pitch : undefined;
}

/**
 * Whether `line` starts a part of its own after `above`: `above` ended short of the cell's edge
 * (the line's first word would have fitted, with a character to spare) after a sentence's end or
 * before a capital — or, below a list item, after anything where the line is not indented to the
 * item's text.
 */
function endsPart(above: CellLine, line: CellLine, right: number, part: Part): boolean {
  const characters = [...line.text.trim()].length;
  const advance = characters ? (line.right - line.left) / characters : line.size / 2;
  const word = [...(/^\S+/.exec(line.text.trim())?.[0] ?? '')].length;
  const short = right - above.right > (word + 2) * advance;
  if (!short) return false;
  const underItem = part.item !== undefined && line.left <= part.item.left + line.size / 2;
  return underItem || SENTENCE_END.test(above.text.trim()) || CAPITAL.test(line.text.trim());
}

/**
 * Numbered items stay list items where a run of them counts 1, 2, 3… (Word numbers them so); any
 * other run keeps its numbers as text, in paragraphs of their own.
 */
function countedFromOne(parts: readonly Part[]): Part[] {
  const out = parts.map((part) => ({ ...part }));
  for (let k = 0; k < out.length;) {
    if (out[k]?.item?.number === undefined) {
      k++;
      continue;
    }
    let end = k;
    while (out[end]?.item?.number !== undefined) end++;
    const run = out.slice(k, end);
    const counts = run.every((part, i) => part.item?.number === i + 1);
    for (const part of run) {
      if (!counts) delete part.item;
      else part.text[0] = (part.text[0] as string).replace(NUMBERED, '');
    }
    k = end;
  }
  return out;
}

/** Paragraphs as they are, runs of list items as lists nested by their markers' indent. */
function blocksOf(parts: readonly Part[], size: number): BlockContent[] {
  const out: BlockContent[] = [];
  let items: ListEntry[] = [];
  let left = Infinity;
  const flush = () => {
    out.push(...nestLists(items));
    items = [];
    left = Infinity;
  };
  for (const part of parts) {
    const text = paragraph([{ text: joinLines(part.text) }]);
    const block = part.above === undefined ? text : { ...text, data: { pdfSpaceAbove: part.above } };
    if (!part.item) {
      flush();
      out.push(block);
      continue;
    }
    left = Math.min(left, part.item.left);
    items.push({ level: Math.max(0, Math.round((part.item.left - left) / (size * LEVEL_EMS))), ordered: part.item.number !== undefined, content: [block] });
  }
  flush();
  return out;
}
