// Tables framed by horizontal rules only (wasm/read/pdf-rules.ts), on text lines and rules laid
// out by hand: the cases the LibreOffice-made documents of read-pdf-tables.test.ts do not reach —
// LaTeX's even line spacing, two tables of one width sharing their rules' chain, and prose
// between a page's header and footer rules.

import { describe, expect, it } from 'vitest';
import type { Rule } from '../../wasm/read/pdf-rules.js';
import { markdownOf, piece, row } from '../helpers/ruled-lines.js';

const rule = (at: number, from = 50, to = 350): Rule => ({ at, from, to });

const COLUMNS = [55, 200, 280];

describe('ruleTables', () => {
  it('reads a booktabs table set at even line spacing: a line with an empty first column continues the row above', () => {
    const lines = [
      ...row(111, COLUMNS, ['Method', 'Score', 'Notes']),
      ...row(127, COLUMNS, ['A', '0.91', 'fast and']),
      ...row(139, COLUMNS, ['', '', 'small']),
      ...row(151, COLUMNS, ['B', '0.87', 'slow']),
      ...row(163, COLUMNS, ['C', '0.80', '']),
    ];
    expect(markdownOf(lines, [rule(100), rule(115), rule(170)])).toEqual([
      '| Method | Score | Notes |\n| - | - | - |\n| A | 0.91 | fast and small |\n| B | 0.87 | slow |\n| C | 0.80 | |',
    ]);
  });

  it('reads two tables of one width whose rules form one chain, the caption between them left out', () => {
    const lines = [
      ...row(111, COLUMNS, ['Method', 'Score', 'Notes']),
      ...row(127, COLUMNS, ['A', '0.91', 'fast']),
      ...row(139, COLUMNS, ['B', '0.87', 'slow']),
      piece(55, 185, 'Table 2: the same methods measured again on the second data set.'),
      ...row(211, COLUMNS, ['Method', 'Time', 'Memory']),
      ...row(227, COLUMNS, ['A', '12 s', '1 GB']),
      ...row(239, COLUMNS, ['B', '30 s', '2 GB']),
    ];
    const tables = markdownOf(lines, [rule(100), rule(115), rule(145), rule(200), rule(215), rule(245)]);
    expect(tables).toEqual([
      '| Method | Score | Notes |\n| - | - | - |\n| A | 0.91 | fast |\n| B | 0.87 | slow |',
      '| Method | Time | Memory |\n| - | - | - |\n| A | 12 s | 1 GB |\n| B | 30 s | 2 GB |',
    ]);
  });

  it('leaves a heading between two tables of one width out of the second, whose window would start at the first one’s bottom rule (pandoc → Chrome)', () => {
    const lines = [
      ...row(111, COLUMNS, ['Tool', 'Description', '']),
      ...row(131, COLUMNS, ['jvm', 'runtime facts', '']),
      ...row(151, COLUMNS, ['memory', 'memory use', '']),
      piece(55, 181, '2.2 Class and ClassLoader tools'), // across the gap between the columns
      ...row(211, COLUMNS, ['Tool', 'Description', '']),
      ...row(231, COLUMNS, ['sc', 'search classes', '']),
      ...row(251, COLUMNS, ['sm', 'search methods', '']),
    ];
    expect(markdownOf(lines, [rule(100), rule(117), rule(157), rule(200), rule(217), rule(257)])).toEqual([
      '| Tool | Description |\n| - | - |\n| jvm | runtime facts |\n| memory | memory use |',
      '| Tool | Description |\n| - | - |\n| sc | search classes |\n| sm | search methods |',
    ]);
  });

  it('makes no table of a two-column page between its header and footer rules, nor of a paragraph between two rules', () => {
    const prose = 'x'.repeat(46); // 230 pt: a column of justified text
    const page = Array.from({ length: 40 }, (_, i) => [piece(50, 100 + i * 14, prose), piece(310, 100 + i * 14, prose)]).flat();
    expect(markdownOf(page, [rule(80, 50, 540), rule(700, 50, 540)])).toEqual([]);
    const paragraph = [piece(55, 111, 'A note set between two rules, one line long.'), piece(55, 125, 'And its second line.')];
    expect(markdownOf(paragraph, [rule(100), rule(130)])).toEqual([]);
  });

  it('makes no table between two rules that each underline a header row (two tables ruled only under their headers)', () => {
    const lines = [
      ...row(97, COLUMNS, ['Name', 'Value', '']),
      ...row(113, COLUMNS, ['a', '1', '']),
      ...row(127, COLUMNS, ['b', '2', '']),
      piece(55, 150, 'Second heading'),
      ...row(167, COLUMNS, ['Name', 'Value', '']),
      ...row(185, COLUMNS, ['c', '3', '']),
    ];
    // Each rule 1 pt under a header row's text: no table's top, the first table's header above it.
    expect(markdownOf(lines, [rule(100), rule(170)])).toEqual([]);
  });
  it('keeps a row whose every cell wraps one row where other rows’ cells are centred half a line off their neighbours (pandoc → Chrome)', () => {
    // Chrome's spacing at 10 pt: a cell's lines 15 pt apart, rows 18.75 (cell padding); a one-line cell centred on a two-line one.
    const WIDE = [55, 170, 290];
    const lines = [
      ...row(111, WIDE, ['Producer', 'Consumer', 'Broker']),
      ...row(130, WIDE, ['production', '', '']),
      ...row(137.5, WIDE, ['', 'consumption', 'message Topic']),
      ...row(145, WIDE, ['instance', '', '']),
      ...row(163.75, WIDE, ['whether sent', 'whether consumed', 'The Key']),
      ...row(178.75, WIDE, ['successfully', 'successfully', 'of it']),
      ...row(197.5, WIDE, ['Time spent', 'Time taken', 'Tag']),
    ];
    expect(markdownOf(lines, [rule(100, 50, 400), rule(117, 50, 400), rule(205, 50, 400)])).toEqual([
      '| Producer | Consumer | Broker |\n| - | - | - |\n| production instance | consumption | message Topic |\n| whether sent successfully | whether consumed successfully | The Key of it |\n| Time spent | Time taken | Tag |',
    ]);
    // Where no cell is centred, LaTeX's even spacing (12 pt) still starts a row at each line with a first cell.
    const even = [
      ...row(111, COLUMNS, ['Method', 'Score', 'Notes']),
      ...row(127, COLUMNS, ['A', '0.91', 'fast']),
      ...row(139, COLUMNS, ['B', '0.87', 'slow']),
      ...row(153.5, COLUMNS, ['C', '0.80', 'new']),
    ];
    expect(markdownOf(even, [rule(100), rule(115), rule(160)])).toEqual([
      '| Method | Score | Notes |\n| - | - | - |\n| A | 0.91 | fast |\n| B | 0.87 | slow |\n| C | 0.80 | new |',
    ]);
  });

  it('joins a cell’s wrapped lines where every row wraps alike, by two exact spacings: the line height and the rows a padding further (pandoc → Chrome)', () => {
    // Chrome at 10 pt: a cell's lines 15 pt apart, rows 18.75 (1.25 times); no row holds a centred cell.
    const WIDE = [55, 170];
    const rows = [1, 2, 3].flatMap((k) => {
      const at = 130 + (k - 1) * 33.75;
      return [...row(at, WIDE, [`retry${k} when a`, 'How many times a send is']), ...row(at + 15, WIDE, ['send failed', `tried, at most ${k}.`])];
    });
    expect(markdownOf([...row(111, WIDE, ['Option', 'Description']), ...rows], [rule(100), rule(117), rule(210)])).toEqual([
      '| Option | Description |\n| - | - |\n| retry1 when a send failed | How many times a send is tried, at most 1. |\n| retry2 when a send failed | How many times a send is tried, at most 2. |\n| retry3 when a send failed | How many times a send is tried, at most 3. |',
    ]);
    // LaTeX's rows of one line, spaced out every two rows (\addlinespace): two spacings too, but no line above the narrower one wrapped.
    const grouped = [
      ...row(111, COLUMNS, ['Method', 'Score', 'Notes']),
      ...row(127, COLUMNS, ['A', '0.91', 'fast, small']),
      ...row(139, COLUMNS, ['B', '0.87', 'slow']),
      ...row(154, COLUMNS, ['C', '0.80', 'new']),
      ...row(166, COLUMNS, ['D', '0.78', 'old one']),
    ];
    expect(markdownOf(grouped, [rule(100), rule(115), rule(172)])).toEqual([
      '| Method | Score | Notes |\n| - | - | - |\n| A | 0.91 | fast, small |\n| B | 0.87 | slow |\n| C | 0.80 | new |\n| D | 0.78 | old one |',
    ]);
  });

  it('reads a table the page break cuts under its header to the page’s end where its first row starts half an em under the rule (a code cell centred in a taller row)', () => {
    // Chrome's print of react.dev's Arabic table: the row's code cell, smaller than the Arabic
    // beside it, starts 5.1 pt (0.51 em) under the header's rule; its page has no rule under it.
    const WIDE = [55, 170];
    const header = row(111, WIDE, ['Syntax', 'Export statement']);
    const body = [...row(130.1, WIDE, ['Default', 'export default function Button() {}']), ...row(150, WIDE, ['Named', 'export function Button() {}'])];
    expect(markdownOf([...header, ...body], [rule(100), rule(117)])).toEqual([
      '| Syntax | Export statement |\n| - | - |\n| Default | export default function Button() {} |\n| Named | export function Button() {} |',
    ]);
  });
});
