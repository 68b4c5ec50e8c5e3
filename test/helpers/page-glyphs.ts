// Glyphs laid out by hand for the PDF piece readers' unit tests (pdf-pieces.test.ts,
// pdf-cell-style.test.ts): 10-pt glyphs 5 points apart on one line.

import type { PageChar } from '../../wasm/read/pdf-pieces.js';

/** Glyphs of `text` from x, 5 points apart, in `font` (bold or italic as its name says). */
export const glyphs = (text: string, x: number, font: string): PageChar[] =>
  [...text].map((c, i) => ({
    c,
    left: x + i * 5,
    right: x + i * 5 + 5,
    top: 90,
    bottom: 102,
    x: x + i * 5,
    y: 100,
    size: 10,
    font,
    bold: /Bold/.test(font),
    mono: false,
    italic: /Italic/.test(font),
  }));
