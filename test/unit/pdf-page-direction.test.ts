// Stage 0 of PDF reading, a page's direction from its layout (pdf-page-direction.ts): English set
// as right-to-left paragraphs (Chrome's print of react.dev's untranslated Persian pages), told by
// where its paragraphs' last lines stand and where their full stops are drawn.

import { describe, expect, it } from 'vitest';
import { setRightToLeft } from '../../wasm/read/pdf-page-direction.js';
import type { StextLine } from '../../wasm/read/pdf-page-model.js';

/** A line of `text` as drawn, left to right, from `x` to `right`. */
const line = (text: string, x: number, right: number): StextLine => ({ text, x, y: 0, bbox: { x, y: 0, w: right - x, h: 12 }, font: { size: 10 } });

describe('a page’s direction from its layout (pdf-page-direction.ts)', () => {
  it('takes a page for right to left where its short last lines stand at the right with their full stop at the left', () => {
    const rightToLeft = [
      line('React Compiler directives are special string literals that control whether specific', 100, 500),
      line('.functions are compiled', 380, 500),
      line(':Place directives at the beginning of a function to control its compilation', 150, 500),
    ];
    expect(setRightToLeft(rightToLeft, 100, 500)).toBe(true);
  });

  it('does not for a page set left to right, nor on one line’s say', () => {
    const leftToRight = [
      line('React Compiler directives are special string literals that control whether specific', 100, 500),
      line('functions are compiled.', 100, 220),
      line('.then(render)', 380, 500),
      line('.catch(report)', 380, 500),
      line('Place directives at the beginning of a function to control its compilation:', 100, 450),
      line('Directives are escape hatches.', 100, 250),
    ];
    expect(setRightToLeft(leftToRight, 100, 500)).toBe(false);
    expect(setRightToLeft([line('.functions are compiled', 380, 500)], 100, 500)).toBe(false);
  });

  it('leaves lines in a right-to-left script to their script', () => {
    expect(setRightToLeft([line('.שלום עולם', 380, 500), line('.עוד שורה', 380, 500)], 100, 500)).toBe(false);
  });
});
