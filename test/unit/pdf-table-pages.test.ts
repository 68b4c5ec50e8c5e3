// A table continued on the next page is one table (wasm/read/pdf-table-pages.ts): what a PDF's
// page break cuts in two — under a repeated header row or not, a row's cell carried over the
// break — joined back, as `read` and the XLSX writer join it.

import type { RootContent } from 'mdast';
import { describe, expect, it } from 'vitest';
import { paragraph, table, type CellSource } from '../../wasm/read/blocks.js';
import { joinContinuedTable } from '../../wasm/read/pdf-table-pages.js';
import { blocksToHtml, renderedBlocks } from '../../wasm/read/render.js';

const cell = (text: string): CellSource => ({ blocks: text ? [paragraph([{ text }])] : [], colSpan: 1, rowSpan: 1 });
const grid = (rows: string[][]) =>
  table(
    rows.map((row) => row.map(cell)),
    blocksToHtml,
  );
const text = (value: string): RootContent => paragraph([{ text: value }]);
const markdown = (blocks: RootContent[]) => [...renderedBlocks(blocks)].join('\n\n');

describe('a table continued on the next page', () => {
  it('drops the header the next page repeats and joins the cell the break carried over into its row', () => {
    const first = [
      text('Properties'),
      grid([
        ['Name', 'Specification'],
        ['OBJECT', 'hashCode() of the object'],
        ['CLASS', 'class name of the object'],
      ]),
    ];
    // The page's number, left at its foot, does not end the table.
    first.push(text('1'));
    const next = [
      grid([
        ['Name', 'Specification'],
        ['', 'invoking the method'],
        ['METHOD', 'method being invoked'],
      ]),
      text('Tips:'),
    ];
    expect(joinContinuedTable(first, next)).toBe(true);
    expect(markdown(first)).toBe(
      [
        'Properties',
        [
          '| Name | Specification |',
          '| - | - |',
          '| OBJECT | hashCode() of the object |',
          '| CLASS | class name of the object invoking the method |',
          '| METHOD | method being invoked |',
        ].join('\n'),
        '1',
      ].join('\n\n'),
    );
    expect(markdown(next)).toBe('Tips:');
  });

  it('joins a table the next page goes on with, without a header, in as many columns', () => {
    const first = [
      grid([
        ['Region', 'Units'],
        ['North', '120'],
      ]),
    ];
    const next = [
      grid([
        ['South', '210'],
        ['', '330'],
      ]),
    ];
    expect(joinContinuedTable(first, next)).toBe(true);
    // A row of numbers alone under an empty first cell (a total) stays a row.
    expect(markdown(first)).toBe(['| Region | Units |', '| - | - |', '| North | 120 |', '| South | 210 |', '| | 330 |'].join('\n'));
    expect(next).toEqual([]);
  });

  it('turns the next page’s part where its repeated header is the first’s turned: a right-to-left table read from the right on one page only', () => {
    const first = [
      grid([
        ['refs', 'state'],
        ['useRef(initialValue)', 'useState(initialValue) returns the'],
      ]),
    ];
    const next = [
      grid([
        ['state', 'refs'],
        ['current value', ''],
        ['Triggers re-render', 'No re-render'],
      ]),
    ];
    expect(joinContinuedTable(first, next)).toBe(true);
    expect(markdown(first)).toBe(
      [
        '| refs | state |',
        '| - | - |',
        '| useRef(initialValue) | useState(initialValue) returns the current value |',
        '| No re-render | Triggers re-render |',
      ].join('\n'),
    );
    // A header that reads the same both ways tells nothing: the next page's rows stay as they are.
    const same = [
      grid([
        ['x', 'x'],
        ['a', 'b'],
      ]),
    ];
    expect(
      joinContinuedTable(same, [
        grid([
          ['x', 'x'],
          ['c', 'd'],
        ]),
      ]),
    ).toBe(true);
    expect(markdown(same)).toBe(['| x | x |', '| - | - |', '| a | b |', '| c | d |'].join('\n'));
  });

  const settings = [
    ['retries', '2', 'How often a send is tried again.'],
    ['timeout', '3000', 'How long to wait for an answer.'],
    ['group', 'DEFAULT', 'The producer group it belongs to.'],
  ];

  it('joins a row the break cut where the next page leaves empty a cell every other row fills', () => {
    const header = ['Option', 'Default', 'Description'];
    // Only the option's name wraps over the break: its default and description ended above it.
    const emptyDefault = [grid([header, ...settings, ['batch size', '4194304', 'The largest body one batch holds.']])];
    expect(joinContinuedTable(emptyDefault, [grid([header, ['limit', '', ''], ['compress', 'false', 'Whether bodies are zipped.']])])).toBe(true);
    expect(markdown(emptyDefault)).toContain('| batch size limit | 4194304 | The largest body one batch holds. |\n| compress |');
  });

  it('joins a row the break cut where a column of sentences stops mid-sentence and goes on in lower case', () => {
    // Every cell goes on: the description, a column of sentences, stops mid-sentence and goes on in lower case.
    const twoColumns = [
      grid([
        ['Option', 'Description'],
        ...settings.map(([name, , text]) => [name as string, text as string]),
        ['batch size', 'The largest body one batch holds, in'],
      ]),
    ];
    expect(
      joinContinuedTable(twoColumns, [
        grid([
          ['limit', 'bytes, before it is split.'],
          ['compress', 'Whether bodies are zipped.'],
        ]),
      ]),
    ).toBe(true);
    expect(markdown(twoColumns)).toContain('| batch size limit | The largest body one batch holds, in bytes, before it is split. |\n| compress |');
  });

  it('keeps two rows apart where no cell shows a cut: a full row, a sentence that ended, a column of names', () => {
    const body = [
      ['retries', 'How often a send is tried again.'],
      ['timeout', 'How long to wait for an answer.'],
      ['group', 'The producer group it belongs to.'],
    ];
    const ended = [grid([['Option', 'Description'], ...body, ['batch', 'The largest body one batch holds.']])];
    expect(joinContinuedTable(ended, [grid([['compress', 'whether bodies are zipped.']])])).toBe(true);
    expect(markdown(ended)).toContain('| batch | The largest body one batch holds. |\n| compress | whether bodies are zipped. |');
    // Names in lower case, not sentences: a name without a stop is no cut sentence.
    const names = [
      grid([
        ['Key', 'Type'],
        ['namesrvAddr', 'string'],
        ['clientIP', 'string'],
        ['instanceName', 'string'],
        ['pollInterval', 'int'],
      ]),
    ];
    expect(joinContinuedTable(names, [grid([['sendTimeout', 'int']])])).toBe(true);
    expect(markdown(names)).toContain('| pollInterval | int |\n| sendTimeout | int |');
  });

  it('keeps apart a one-word name well shorter than its column’s longest and the next page’s row of empty cells under its own name', () => {
    const header = ['Option', 'Default', 'Required'];
    const body = [
      ['maxTransactionRetryTimeSeconds', '30', 'no'],
      ['uri', '-', 'yes'],
      ['username', '-', 'yes'],
    ];
    const short = [grid([header, ...body, ['cypher', '-', 'yes']])];
    expect(joinContinuedTable(short, [grid([header, ['batchVariable', '', ''], ['batchSize', '1000', 'no']])])).toBe(true);
    expect(markdown(short)).toContain('| cypher | - | yes |\n| batchVariable | | |\n| batchSize |');
    // A name as long as the column's longest word may be one LibreOffice broke for the column's width: its rest goes on the row.
    const broken = [grid([header, ...body, ['maxConnectionTimeoutSecon', '30', 'no']])];
    expect(joinContinuedTable(broken, [grid([header, ['ds', '', ''], ['batchSize', '1000', 'no']])])).toBe(true);
    expect(markdown(broken)).toContain('| maxConnectionTimeoutSecon ds | 30 | no |');
  });

  it('leaves tables apart when the next page starts with something else, or in other columns', () => {
    const first = [
      grid([
        ['Region', 'Units'],
        ['North', '120'],
      ]),
    ];
    const prose = [text('Notes'), grid([['South', '210']])];
    expect(joinContinuedTable(first, prose)).toBe(false);
    const wider = [grid([['South', '210', 'x']])];
    expect(joinContinuedTable(first, wider)).toBe(false);
    const afterProse = [
      grid([
        ['Region', 'Units'],
        ['North', '120'],
      ]),
      text('Sales went up.'),
    ];
    expect(joinContinuedTable(afterProse, [grid([['South', '210']])])).toBe(false);
    expect(prose).toHaveLength(2);
  });
});
