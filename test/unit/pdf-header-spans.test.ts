// A rule-framed table's header cells that span columns (wasm/read/pdf-header-spans.ts, through
// pdf-rules.ts's ruleTables), on text lines and rules laid out by hand: a group name over a short
// rule, one wider than a column with no rule, words set apart one by one (pdfTeX), and the header
// lines that are a cell's wrapped lines, which stay one header row.

import { describe, expect, it } from 'vitest';
import type { GridLine } from '../../wasm/read/pdf-grid.js';
import { ruleTables, type Rule } from '../../wasm/read/pdf-rules.js';
import { renderedBlocks } from '../../wasm/read/render.js';

/** A piece of text whose baseline is at `baseline`, starting at x, 5 pt a character wide (size 10). */
const piece = (x: number, baseline: number, text: string): GridLine => ({
  bbox: { x, y: baseline - 8, w: text.length * 5, h: 10 },
  font: { size: 10 },
  y: baseline,
  text,
});

/** Each word of a text its own piece, a word space (3 pt) apart, as pdfTeX sets a line. */
const words = (x: number, baseline: number, text: string): GridLine[] => {
  let at = x;
  return text.split(' ').map((word) => {
    const p = piece(at, baseline, word);
    at += word.length * 5 + 3;
    return p;
  });
};

const row = (baseline: number, xs: readonly number[], texts: readonly string[]) =>
  texts.flatMap((text, k) => (text ? [piece(xs[k] as number, baseline, text)] : []));

const rule = (at: number, from = 50, to = 350): Rule => ({ at, from, to });

const markdownOf = (lines: readonly GridLine[], rules: readonly Rule[]) => ruleTables(rules, lines).map((t) => [...renderedBlocks([t.table])].join(''));

const COLUMNS = [55, 120, 200, 280];

const BODY = [...row(139, COLUMNS, ['Large', 'OTSL', '0.965', '0.934']), ...row(151, COLUMNS, ['Small', 'HTML', '0.938', '0.904'])];
const BODY_HTML = '<tr><td>Large</td><td>OTSL</td><td>0.965</td><td>0.934</td></tr>\n<tr><td>Small</td><td>HTML</td><td>0.938</td><td>0.904</td></tr>';

describe('spannedHeader', () => {
  it('reads a group name over a short rule as a cell spanning the columns the rule covers, the names beside it spanning both header rows', () => {
    const lines = [piece(225, 107, 'TEDs'), ...row(123, COLUMNS, ['Model', 'Language', 'simple', 'complex']), ...BODY];
    expect(markdownOf(lines, [rule(95), rule(112, 195, 320), rule(128), rule(160)])).toEqual([
      '<table>\n<tr><th rowspan="2">Model</th><th rowspan="2">Language</th><th colspan="2">TEDs</th></tr>\n<tr><td>simple</td><td>complex</td></tr>\n' +
        `${BODY_HTML}\n</table>`,
    ]);
  });

  it('reads a group name wider than a column, its words set apart one by one and no rule under it, as a spanning cell', () => {
    const lines = [...words(200, 107, 'Score on the test set'), ...row(123, COLUMNS, ['Model', 'Language', 'simple', 'complex']), ...BODY];
    expect(markdownOf(lines, [rule(95), rule(128), rule(160)])[0]).toContain(
      '<tr><th rowspan="2">Model</th><th rowspan="2">Language</th><th colspan="2">Score on the test set</th></tr>\n<tr><td>simple</td><td>complex</td></tr>',
    );
  });

  it('keeps a header cell wrapped onto two lines one header row: its lines name one column, and a short rule under a word spans nothing', () => {
    const lines = [piece(200, 107, 'Score'), ...row(123, COLUMNS, ['Model', 'Language', '(mean)', 'Max']), ...BODY];
    expect(markdownOf(lines, [rule(95), rule(112, 195, 240), rule(128), rule(160)])).toEqual([
      '| Model | Language | Score (mean) | Max |\n| - | - | - | - |\n| Large | OTSL | 0.965 | 0.934 |\n| Small | HTML | 0.938 | 0.904 |',
    ]);
  });

  it('keeps the header as before where a group spans columns whose names below do not stand apart', () => {
    const lines = [...words(200, 107, 'Score on the test set'), ...row(123, COLUMNS, ['Model', 'Language', 'simple', '']), ...BODY];
    expect(markdownOf(lines, [rule(95), rule(128), rule(160)])[0]).toMatch(/^\| Model \| Language \| Score on the simple \| test set \|/);
  });
});
