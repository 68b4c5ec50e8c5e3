// Stage 0 of PDF reading, for right-to-left lines (Arabic, Persian, Hebrew): the characters in
// logical order, from where the glyphs stand, as poppler orders them — not in the order the
// content stream draws them. Producers draw such a line three ways: in logical order
// (LibreOffice), word by word left to right with each word's letters in logical order (Chrome's
// Skia), or glyph by glyph left to right. Read by position, all three give the same text: the
// glyphs from right to left, and a run of left-to-right words inside the line ("Strict Mode",
// "2024") left to right — the Unicode bidirectional algorithm's layout of a right-to-left
// paragraph, undone.

import { isRightToLeft } from './pdf-rows.js';

/** What ordering needs of a character: the text and the left and right of its box. */
export interface PlacedChar {
  c: string;
  left: number;
  right: number;
}

/**
 * Right-to-left letters; left-to-right letters and digits; anything else (spaces, punctuation,
 * marks) takes its place from them. Arabic-Indic and Persian digits (U+0660–U+06F9) are in the
 * Arabic block but a number runs left to right in any script, so every digit counts as 'L'.
 */
type Strength = 'R' | 'L' | 'N';
const strengthOf = (c: string): Strength => (/\p{Nd}/u.test(c) ? 'L' : isRightToLeft(c) ? 'R' : /[\p{L}\p{N}]/u.test(c) ? 'L' : 'N');

/** Whether a line is written right to left: more of its letters are of a right-to-left script than of a left-to-right one. */
export const isRightToLeftLine = (chars: readonly PlacedChar[]) => isRightToLeft(chars.map((c) => c.c).join(''));

const center = (c: PlacedChar) => (c.left + c.right) / 2;

/**
 * Whether a right-to-left line is drawn in visual order: from one word to the next of its
 * right-to-left words (a space between them, or glyphs `apart`; no left-to-right letter between
 * them), the stream steps right more often than left. A line drawn in logical order
 * (LibreOffice) steps left, and is read as it comes: its base direction may be left to right (a
 * heading that ends in `null` drawn with `null` at its right), which its positions cannot tell.
 */
export function drawnInVisualOrder<T extends PlacedChar>(chars: readonly T[], apart: (before: T, next: T) => boolean): boolean {
  let right = 0;
  let left = 0;
  let last: T | undefined;
  let newWord = false;
  for (const ch of chars) {
    if (ch.c.trim() === '') newWord = true;
    const strength = strengthOf(ch.c);
    // Across a left-to-right run the step tells the base direction, not the order: not counted.
    if (strength === 'L') last = undefined;
    if (strength !== 'R') continue;
    if (last && (newWord || apart(last, ch))) {
      if (center(ch) > center(last)) right++;
      else left++;
    }
    last = ch;
    newWord = false;
  }
  return right > left;
}

const isMark = (c: PlacedChar) => (/^\p{M}+$/u.test(c.c) ? 1 : 0);

/** Characters from the rightmost to the leftmost; glyphs at one place in the stream's order, a combining mark after its letter. */
export const fromTheRight = <T extends PlacedChar>(chars: readonly T[]): T[] =>
  lamAlefInOrder(
    chars
      .map((c, i) => ({ c, i }))
      .sort((a, b) => center(b.c) - center(a.c) || isMark(a.c) - isMark(b.c) || a.i - b.i)
      .map(({ c }) => c),
  );

const LAM = 'ل';
/** Alef and its forms with madda and hamza: the letters the lam-alef ligature joins to a lam. */
const ALEF = /^[\u0622\u0623\u0625\u0627]$/u;
/** Points within which the alef of a ligature stands at its lam's edge. */
const LIGATURE_SLACK = 0.5;

/**
 * The lam-alef ligature (ﻻ, one glyph for ل + ا) in logical order, lam first. Chrome's Skia
 * and LibreOffice map the glyph to alef then lam: the lam takes the glyph's box and the alef
 * stands without width at its right edge, so in the stream and by position the alef comes first (poppler reads `تعاملات` as
 * `تعامالت` too). An alef with no width at a lam's right edge, just before it, goes after it, at its left edge.
 */
export function lamAlefInOrder<T extends PlacedChar>(order: T[]): T[] {
  for (let k = 0; k + 1 < order.length; k++) {
    const [alef, lam] = [order[k] as T, order[k + 1] as T];
    const zeroWidth = alef.right - alef.left < LIGATURE_SLACK;
    if (ALEF.test(alef.c) && lam.c === LAM && zeroWidth && Math.abs(alef.left - lam.right) < LIGATURE_SLACK) {
      k = withArticleAlef(order, k);
      order[k] = lam;
      // Put just inside the lam's left edge, where the next letter joins, so that no word space comes between them
      // and, ordered again, it is not taken for the alef of a ligature with a lam after it (خلال read خللا).
      const at = lam.left + Math.min(LIGATURE_SLACK, (lam.right - lam.left) / 2);
      order[k + 1] = { ...alef, left: at, right: at };
      k++;
    }
  }
  return order;
}

const WAW = 'و';
const ARTICLE_ALEF = 'ا';

/**
 * The article's alef after a lone و, before the lam-alef ligature at `k`, which Chrome maps to a
 * space or to nothing (`والانضباط` read `و لانضباط`): where a و that starts a word stands a
 * glyph's width from the ligature, with a space or nothing between, an alef is put there.
 * و, "and", is written joined to the word after it, so a و alone before a gap starts that word.
 * Returns where the ligature's alef now is.
 */
function withArticleAlef<T extends PlacedChar>(order: T[], k: number): number {
  const alef = order[k] as T;
  const space = order[k - 1]?.c === ' ' ? order[k - 1] : undefined;
  const at = space ? k - 1 : k;
  const [waw, before] = [order[at - 1], order[at - 2]];
  if (waw?.c !== WAW || (before !== undefined && /\p{L}/u.test(before.c))) return k;
  if (space) {
    if (space.right - space.left < LIGATURE_SLACK) return k;
    order[k - 1] = { ...space, c: ARTICLE_ALEF };
    return k;
  }
  // Nothing between: the glyph's room is the gap between the و and the ligature, left of the و.
  if (waw.left - alef.right < LIGATURE_SLACK) return k;
  order.splice(k, 0, { ...alef, c: ARTICLE_ALEF, left: alef.right, right: waw.left });
  return k + 1;
}

/**
 * A right-to-left line's characters in logical order: read from right to left by where each
 * glyph stands (glyphs at one place, a letter and its marks, in the stream's order), then each run
 * of left-to-right letters and digits — with the spaces and marks between them, not those at its
 * ends, which belong to the right-to-left text around it (the brackets of "(bugs)") — turned
 * back to read left to right.
 */
export function logicalOrder<T extends PlacedChar>(chars: readonly T[]): T[] {
  const order = fromTheRight(chars);
  const strengths = withNumbersAndBrackets(
    order.map((c) => c.c),
    order.map((c) => strengthOf(c.c)),
  );
  const out: T[] = [];
  for (let k = 0; k < order.length;) {
    if (strengths[k] !== 'L') {
      out.push(order[k++] as T);
      continue;
    }
    let end = k + 1;
    while (end < order.length && strengths[end] !== 'R') end++;
    while (strengths[end - 1] !== 'L') end--;
    out.push(...leftToRightRun(order.slice(k, end)));
    k = end;
  }
  return out;
}

/** One character between two digits that is part of the number (W4: `3,250`, `09:00`, `1/2`, `03-1234567`). */
const NUMBER_SEPARATOR = /^[,.:/+\-\u00a0]$/u;

/**
 * A left-to-right run, given from the right, turned to read left to right. A run of numbers with
 * no letter in it is numbers side by side in the right-to-left text (W4, N1: a dash or a space
 * between two numbers takes the paragraph's direction): they stand from the right, each read
 * left to right (`09:00–13:00` is drawn `13:00–09:00`).
 */
function leftToRightRun<T extends PlacedChar>(run: readonly T[]): T[] {
  const letterOrBracket = (c: T) => (strengthOf(c.c) === 'L' && !/\p{Nd}/u.test(c.c)) || /[()[\]{}]/.test(c.c);
  if (run.some(letterOrBracket)) return [...run].reverse();
  const out: T[] = [];
  let number: T[] = [];
  const inNumber = (k: number) => {
    const c = (run[k] as T).c;
    if (/\p{Nd}/u.test(c) || NUMBER_SIGN.test(c)) return true;
    return NUMBER_SEPARATOR.test(c) && /\p{Nd}/u.test(run[k - 1]?.c ?? '') && /\p{Nd}/u.test(run[k + 1]?.c ?? '');
  };
  for (const [k, c] of run.entries()) {
    if (inNumber(k)) {
      number.push(c);
      continue;
    }
    out.push(...number.reverse(), c);
    number = [];
  }
  return [...out, ...number.reverse()];
}

/** Signs that go with a number (`100%`, `$5`, `#3`): they run with its digits. */
const NUMBER_SIGN = /^[%‰°#$€£¥]$/u;
const CLOSING_OF: Readonly<Record<string, string>> = { ')': '(', ']': '[', '}': '{' };

/**
 * Two rules of the bidirectional algorithm that put neutrals into a left-to-right run: a sign
 * beside a number's digits is part of the number (W5: `100%`), and a closing bracket whose
 * opening bracket is inside the run that follows it, from the right, closes that run (N0:
 * `sculptureList[index]`, `button { margin: 5px; }`). `strengths` are the characters' in order from the right; returned changed.
 */
function withNumbersAndBrackets(chars: readonly string[], strengths: Strength[]): Strength[] {
  const digit = (k: number) => /^\p{Nd}$/u.test(chars[k] ?? '');
  for (let k = 0; k < chars.length; k++) {
    const c = chars[k] as string;
    if (strengths[k] !== 'N') continue;
    if (NUMBER_SIGN.test(c) && (digit(k - 1) || digit(k + 1))) strengths[k] = 'L';
    const opening = CLOSING_OF[c];
    // The next strong character, past neutrals between (`{ margin: 5px; }`: the `; ` are then inside the run).
    let next = k + 1;
    while (strengths[next] === 'N') next++;
    if (opening && strengths[next] === 'L') {
      let end = next;
      while (end < chars.length && strengths[end] !== 'R') end++;
      if (chars.slice(k + 1, end).includes(opening)) strengths[k] = 'L';
    }
  }
  return strengths;
}
