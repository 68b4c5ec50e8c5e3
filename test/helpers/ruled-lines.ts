// Text lines and rules laid out by hand for the rule-framed table readers' unit tests
// (pdf-rules.test.ts, pdf-rule-sections.test.ts): pieces of 10-pt text, 5 pt a character wide.

import type { GridLine } from '../../wasm/read/pdf-grid.js';
import { ruleTables, type Rule } from '../../wasm/read/pdf-rules.js';
import { renderedBlocks } from '../../wasm/read/render.js';

export const SIZE = 10;

/** A piece of text whose baseline is at `baseline`, starting at x, 5 pt a character wide. */
export const piece = (x: number, baseline: number, text: string): GridLine => ({
  bbox: { x, y: baseline - 8, w: text.length * 5, h: 10 },
  font: { size: SIZE },
  y: baseline,
  text,
});

/** A row of pieces on one baseline, at the columns' x (empty strings are empty cells). */
export const row = (baseline: number, xs: readonly number[], texts: readonly string[]): GridLine[] =>
  texts.flatMap((text, k) => (text ? [piece(xs[k] as number, baseline, text)] : []));

/** The Markdown of each table the rules frame. */
export const markdownOf = (lines: readonly GridLine[], rules: readonly Rule[]): string[] =>
  ruleTables(rules, lines).map((t) => [...renderedBlocks([t.table])].join(''));
