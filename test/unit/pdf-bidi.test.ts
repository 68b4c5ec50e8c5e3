// Stage 0 of PDF reading, right-to-left lines (pdf-bidi.ts): a line drawn word by word from the
// left (Chrome's Skia), or glyph by glyph from the left, read in logical order by where its
// glyphs stand; a line drawn in logical order (LibreOffice) read as it comes.

import { describe, expect, it } from 'vitest';
import { drawnInVisualOrder, isRightToLeftLine, logicalOrder, type PlacedChar } from '../../wasm/read/pdf-bidi.js';

/** Glyphs 6 points wide with a 3-point space between words, placed as a right-to-left line shows `logical`, its left-to-right runs left to right. */
function laidOut(visualWords: readonly string[]): PlacedChar[][] {
  // visualWords: the words from the left edge of the line, each as its letters read left to right on the page.
  let x = 0;
  return visualWords.map((word) =>
    [...word].map((c) => {
      const glyph = { c, left: x, right: x + 6 };
      x += 6;
      return glyph;
    }),
  );
}

const text = (chars: readonly PlacedChar[]) => chars.map((c) => c.c).join('');
const reversed = (s: string) => [...s].reverse().join('');
const spaceAfter = (word: PlacedChar[]): PlacedChar[] => {
  const last = word.at(-1) as PlacedChar;
  return [...word, { c: ' ', left: last.right, right: last.right + 3 }];
};
const apart = (a: PlacedChar, b: PlacedChar) => Math.max(b.left - a.right, a.left - b.right) > 1;

// On the page, from the left: يوم كل (React Native) محمد يكتب — each Arabic word's letters right to
// left, and the brackets, which belong to the right-to-left text, mirrored: the glyph at the run's
// left is the closing bracket's.
const LOGICAL = 'يكتب محمد (React Native) كل يوم';
const FROM_LEFT = [reversed('يوم'), reversed('كل'), ')React', 'Native(', reversed('محمد'), reversed('يكتب')];

describe('right-to-left lines (pdf-bidi.ts)', () => {
  it('reads a line drawn word by word from the left in logical order, a left-to-right run and its brackets kept', () => {
    const words = laidOut(FROM_LEFT).map(spaceAfter);
    // Chrome: the words from the left, each Arabic word's letters in logical order (right to left on the page).
    const stream = words.flatMap((w) => (isRightToLeftLine(w) ? [...w.slice(0, -1)].reverse().concat(w.slice(-1)) : w));
    expect(drawnInVisualOrder(stream, apart)).toBe(true);
    expect(text(logicalOrder(stream)).trim()).toBe(LOGICAL);
  });

  it('reads a line drawn glyph by glyph from the left the same way', () => {
    const stream = laidOut(FROM_LEFT).map(spaceAfter).flat();
    expect(drawnInVisualOrder(stream, apart)).toBe(true);
    expect(text(logicalOrder(stream)).trim()).toBe(LOGICAL);
  });

  it('keeps a line drawn in logical order as it comes, even where its base direction is left to right', () => {
    // LibreOffice, a heading in a left-to-right paragraph: the Arabic run at the left, `null` at its right.
    const [run, name] = [laidOut([reversed('يكتب محمد')])[0] as PlacedChar[], { c: 'null', left: 200, right: 224 }];
    const stream = [...run].reverse().concat([{ c: ' ', left: 190, right: 200 }, name]);
    expect(isRightToLeftLine(stream)).toBe(true);
    expect(drawnInVisualOrder(stream, apart)).toBe(false);
  });

  it('puts a combining mark after its letter where both stand at one place, whichever the stream drew first', () => {
    const stream = [
      { c: 'ك', left: 12, right: 18 },
      { c: 'ّ', left: 6, right: 12 },
      { c: 'و', left: 6, right: 12 },
      { c: 'ن', left: 0, right: 6 },
    ];
    expect(text(logicalOrder(stream))).toBe('ك' + 'و' + '\u0651' + 'ن');
  });
});
