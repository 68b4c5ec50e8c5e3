// Borderless tables as LibreOffice prints pandoc's DOCX tables of a manual (DataX's odpswriter,
// otsstreamreader): narrow columns whose header names wrap upwards (pandoc sets header cells
// bottom-aligned), the header's lines a line's pitch apart over rows a cell's padding apart; and
// a narrow first column whose long names LibreOffice breaks inside the word onto a line of their
// own. Made by pandoc (gfm → docx) and LibreOffice; the layout is checked with pdftotext first.

import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSoffice, SOFFICE } from '../helpers/soffice.js';
import { inProcess, type InProcess } from './in-process.js';

let ops: InProcess;

const BODY = [
  '| 1 | 32 | 30303 | 13.03 | 14.5 | 0.12 |',
  '| 1 | 64 | 38461 | 16.54 | 16.5 | 0.44 |',
  '| 4 | 32 | 114816 | 49.38 | 55.3 | 0.75 |',
  '| 4 | 64 | 147577 | 63.47 | 71.3 | 0.82 |',
  '| 8 | 32 | 204480 | 87.95 | 92.7 | 1.16 |',
];
/** Six equal columns (the header line is longer than pandoc's 72 columns, so the table takes the page's width). */
const benchmark = (header: readonly string[]) =>
  [
    '# Benchmark',
    '',
    'The figures below were measured on one machine with the default settings of the writer.',
    '',
    `| ${header.join(' | ')} |`,
    '|--------|--------|--------|--------|--------|--------|',
    ...BODY,
    '',
    'The load grows with the number of tasks.',
    '',
  ].join('\n');

/** The first column's name on four lines, the others on two or three: a header of its own over the rows. */
const TALL_FIRST = ['Number of parallel tasks', 'Block size in MB', 'Records per second', 'Megabytes per second', 'Network traffic (MB/s)', 'Load'];

const NAMES = ['dataSource', 'isExportSequenceInfo', 'maxRetries', 'startTimestampMillis', 'enableSeekIterator', 'mode', 'isTimeseriesTable'];
const DESCRIPTIONS = [
  'The name of the data source, as the console lists it.',
  'Whether the time each row was written is exported.',
  'The most retries of one request, five minutes in all.',
  'The left bound of the time range, in milliseconds.',
  'Whether the reader first seeks the incremental data.',
  'The export mode: rows, or columns when left out.',
  'Whether the table is a time series table.',
];
/** A parameter table on one page, its first column narrow (the dashes set the widths): the longer names break inside the word. */
const PARAMETERS = [
  '# Reader',
  '',
  'Every parameter of the reader is listed below with its default.',
  '',
  '| Name | Description | Required | Default |',
  `| --- |${'-'.repeat(113)}| --- |---------|`,
  ...NAMES.map((name, k) => `| ${name} | ${DESCRIPTIONS[k]} | ${k % 2 ? 'no' : 'yes'} | ${k % 2 ? 'false' : 'none'} |`),
  '',
  'The reader keeps its state in the status table between runs.',
  '',
].join('\n');

const layout = (name: string) => execFileSync('pdftotext', ['-layout', ops.at(`${name}.pdf`), '-'], { encoding: 'utf8' });

/** The Markdown table rows of `text` that follow its line starting with `first`, the header included, each row's cells. */
function tableAfter(text: string, first: string): string[][] {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.startsWith(first));
  const rows: string[][] = [];
  for (let k = start; k >= 0 && k < lines.length && (lines[k] as string).startsWith('|'); k++) {
    if (k !== start + 1) rows.push((lines[k] as string).split(' | ').map((cell) => cell.replace(/^\|\s?|\s?\|$/g, '').trim()));
  }
  return rows;
}
/** A cell's text without spaces: where a name broken inside the word is joined is the word breaking's business (pdf-word-breaks.ts). */
const squeezed = (cells: readonly string[]) => cells.map((c) => c.replaceAll(' ', ''));

beforeAll(async () => {
  ops = await inProcess({ soffice: SOFFICE, workers: '1' });
  ops.put('tall-first.md', benchmark(TALL_FIRST));
  ops.put('parameters.md', PARAMETERS);
  const names = ['tall-first', 'parameters'];
  for (const name of names) execFileSync('pandoc', ['-f', 'gfm', `${name}.md`, '-o', `${name}.docx`], { cwd: ops.dir });
  runSoffice(ops.at('profile'), ['--convert-to', 'pdf', ...names.map((n) => `${n}.docx`)], ops.dir);
}, 180_000);
afterAll(() => ops.close());

describe('read: a LibreOffice table whose header names wrap upwards in narrow columns (pandoc → docx → LibreOffice)', () => {
  it('reads a header of several lines over the rows as one header row, not a table or paragraph of its own', async () => {
    // The layout: the first column's name stands alone on the header's first line, the last column's on its last.
    const lines = layout('tall-first').split('\n');
    const top = lines.findIndex((l) => l.trim() === 'Number');
    expect(top).toBeGreaterThan(0);
    expect(lines[top + 3]).toMatch(/^tasks\s+MB\s+second\s+second\s+\(MB\/s\)\s+Load$/);

    const text = (await ops.ok('read', { input: 'tall-first.pdf' })).text ?? '';
    const rows = tableAfter(text, '| Number');
    expect(squeezed(rows[0] as string[])).toEqual(squeezed(TALL_FIRST));
    expect(rows.slice(1).map((r) => `| ${r.join(' | ')} |`)).toEqual(BODY);
  });
});

describe('read: a LibreOffice parameter table whose first column’s names break inside the word (pandoc → docx → LibreOffice)', () => {
  it('keeps a name’s broken-off rest in its row, told by the rows’ padding, not a row of its own', async () => {
    // The layout: the names break inside the word, the rest on the line below in the first column.
    const text0 = layout('parameters');
    expect(text0).toMatch(/^isExportSequ\s+Whether the/m);
    expect(text0).toMatch(/^enceInfo\s+time each row/m);

    const text = (await ops.ok('read', { input: 'parameters.pdf' })).text ?? '';
    const rows = tableAfter(text, '| Name |');
    expect(rows.slice(1).map((r) => (r[0] as string).replaceAll(' ', ''))).toEqual(NAMES);
    expect(rows.slice(1).map((r) => r[1])).toEqual(DESCRIPTIONS);
  });
});
