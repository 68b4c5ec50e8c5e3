// Stage 0 of PDF reading: whether a page is set right to left though its text is not in a
// right-to-left script. Chrome prints an untranslated page of a Persian site (react.dev's
// `dir=rtl` pages left in English) flush right, each paragraph's lines in the bidirectional
// algorithm's layout of a right-to-left paragraph: the full stop of "…whether specific functions
// are compiled." stands at the left of its last line (`.functions are compiled`). poppler reads such a page by
// position as a left-to-right one; read so, an English sentence's punctuation moves to its start
// and a code line's brackets to the wrong end (`{ )(function MyComponent`, `;>return <div></div`,
// whose `</div` the Markdown's HTML parser takes for a tag that swallows what follows).

import type { StextLine } from './pdf-page-model.js';
import { isRightToLeft } from './pdf-rows.js';

/** Punctuation that ends a sentence or clause: what a paragraph's last line shows at the paragraph's far end. */
export const CLOSING = /^[.:;,!?]$/;

/** Lines that must say so before a page of left-to-right text is taken as set right to left. */
const MIN_VOTES = 2;

/**
 * Where a line's closing punctuation stands tells its paragraph's direction: a paragraph's last
 * line is short, starts at the paragraph's near margin and ends with its closing punctuation —
 * at the right of a left-to-right line standing at the left, at the left of a right-to-left one
 * standing at the right. Lines in a right-to-left script, or without letters, say nothing.
 */
function directionOf(line: StextLine, left: number, right: number): 'rtl' | 'ltr' | undefined {
  const visible = [...line.text].filter((c) => c.trim() !== '');
  if (visible.length < 2 || !visible.some((c) => /\p{L}/u.test(c)) || isRightToLeft(line.text)) return undefined;
  const [leftGap, rightGap] = [line.bbox.x - left, right - (line.bbox.x + line.bbox.w)];
  // A line of left-to-right letters is drawn left to right: its text's first character is its leftmost glyph.
  if (CLOSING.test(visible[0] as string) && leftGap > rightGap) return 'rtl';
  if (CLOSING.test(visible.at(-1) as string) && rightGap > leftGap) return 'ltr';
  return undefined;
}

/**
 * Whether a page's left-to-right text is set as right-to-left paragraphs (`left` and `right`:
 * its text's margins): more of its lines end a right-to-left paragraph than a left-to-right one,
 * and at least MIN_VOTES do.
 */
export function setRightToLeft(lines: readonly StextLine[], left: number, right: number): boolean {
  let rtl = 0;
  let ltr = 0;
  for (const line of lines) {
    if (line.wmode) continue;
    const direction = directionOf(line, left, right);
    if (direction === 'rtl') rtl++;
    else if (direction === 'ltr') ltr++;
  }
  return rtl >= MIN_VOTES && rtl > ltr;
}

/** Visible ASCII: what a line of code is written in; a symbol beyond it (an emoji in a comment) comes from a fallback face. */
const ASCII = /^[\x21-\x7e]$/;

/**
 * Whether a line's glyphs are set in a monospaced face: a line of code, which is a paragraph
 * of its own (a code block's lines are cut by line feeds), so that the bidirectional algorithm's
 * layout of it can be undone line by line. A line of prose is not: its ends take their direction
 * from the lines before and after it (a comma ending a line inside a paragraph stays at its right).
 */
export const isCode = (chars: readonly { c: string; mono: boolean }[]) => {
  const ascii = chars.filter((c) => ASCII.test(c.c));
  return ascii.length > 0 && ascii.every((c) => c.mono);
};
