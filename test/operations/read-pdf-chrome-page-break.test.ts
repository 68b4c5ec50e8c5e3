// Reading a row Chrome's print cuts at a page break (issue 45): Chrome lets a table's row run
// over the page's foot and repeats the header (<thead>) on the next page, where the row goes on
// in every column it had text left in. Two pandoc tables of producer settings, each with one long
// row placed where the break falls inside it: the option's name wraps over the break in both; in
// one the short default ended above the break, in the other (two columns) the description is cut
// mid-sentence. Each is read as one table, the cut row one row.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printWithChrome } from './chrome-print.js';
import { inProcess, type InProcess } from './in-process.js';

let ops: InProcess;

const LONG_NAME = 'batch size limit for the messages one producer sends to the broker at once';
const LONG_TEXT =
  'The largest body, in bytes, that one batch of messages may hold before the client splits it into smaller batches of its own; ' +
  'a batch larger than this is refused by the broker, which answers with an error code the client reports to the caller as it is, without sending again.';
const retry = (k: number) => [`retry${k}`, `${k * 100}`, `How many times a message is sent again when the broker does not answer, at most ${k}.`];
const timeout = (k: number) => [`timeout${k}`, `${k * 1000}`, `How long to wait for the broker's answer, in milliseconds, the ${k}th time.`];
const range = (n: number) => Array.from({ length: n }, (_, k) => k + 1);
/** Thirteen rows, the long one, eleven more: on a Letter page in Liberation Serif the break falls inside the long row. */
const ROWS = [...range(13).map(retry), [LONG_NAME, '4194304', LONG_TEXT], ...range(11).map(timeout)];
const TWO_COLUMNS = ROWS.map(([name, , text]) => [name as string, text as string]);
/** The long row's name short: only its description goes on over the break, above one more row of a long description. */
const LAST_PAGE = [
  ...TWO_COLUMNS.slice(0, 13),
  ['batch', LONG_TEXT],
  [
    'timeout1',
    "How long to wait for the broker's answer to a message sent in a batch, in milliseconds, the 1th time it is sent; " +
      'when no answer comes in that time the client sends the batch again, to the same broker or to another one that holds the topic.',
  ],
];
/**
 * Rows whose name and description both wrap onto two lines, top-aligned (no band of centred cells
 * shows the rows), then a row of a short name over three lines that Chrome sets alone on the last
 * page, under the repeated header, with a short line after the table.
 */
const ALIKE = [
  ...range(31).map((k) => [`retry${k} when a send failed`, `How many times a message is sent again when the broker does not answer, at most ${k}.`]),
  [
    'batch',
    'The largest body, in bytes, that one batch of messages may hold before the client splits it into smaller batches of its own; a larger batch is refused by the broker.',
  ],
];

const pipeTable = (header: readonly string[], rows: readonly string[][]) =>
  [`| ${header.join(' | ')} |`, `|${header.map(() => '---|').join('')}`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
/** The table as the reader writes it. */
const readTable = (header: readonly string[], rows: readonly string[][]) =>
  [`| ${header.join(' | ')} |`, `|${header.map(() => ' - |').join('')}`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
const document = (table: string) => `# Producer settings\n\n${table}\n\nThe broker reads them when it starts.\n`;

const THREE = ['Option', 'Default', 'Description'];
const TWO = ['Option', 'Description'];

function print(name: string, markdown: string): void {
  ops.put(`${name}.md`, markdown);
  // Liberation Serif by name (scripts/test-tools.txt): where the break falls is measured in it.
  execFileSync(
    'pandoc',
    [`${name}.md`, '-f', 'gfm', '-s', '--metadata', `pagetitle=${name}`, '--variable', 'mainfont=Liberation Serif', '-o', `${name}.html`],
    {
      cwd: ops.dir,
      stdio: 'ignore',
    },
  );
  printWithChrome(ops, fs.readFileSync(ops.at(`${name}.html`), 'utf8'), `${name}.pdf`);
}

/** Each page's text as pdftotext lays it out, apart from the reader. */
const pages = (pdf: string) => execFileSync('pdftotext', ['-layout', ops.at(pdf), '-'], { encoding: 'utf8' }).split('\f');

beforeAll(async () => {
  ops = await inProcess({ workers: '1' });
  print('three', document(pipeTable(THREE, ROWS)));
  print('two', document(pipeTable(TWO, TWO_COLUMNS)));
  print('last', document(pipeTable(TWO, LAST_PAGE)));
  print('alike', `# Producer settings\n\n${pipeTable(TWO, ALIKE)}\n\nRead at start.\n`);
}, 240_000);
afterAll(() => ops.close());

describe('read: a table row Chrome’s print cuts at the page break', () => {
  it('joins the row’s two parts when its default ended above the break and its name and description go on', async () => {
    const [first, second] = pages('three.pdf');
    // The long row starts on page 1 and goes on, in its name and description only, under the repeated header on page 2.
    expect(first).toMatch(/^batch size limit for\s+4194304\s+The largest body/m);
    expect(first).not.toContain('producer sends');
    expect(second).toMatch(/^\s*Option\s+Default\s+Description\s*\n\s*producer sends to\s+refused by the broker/);
    const text = (await ops.ok('read', { input: 'three.pdf' })).text ?? '';
    expect(text).toContain(`# Producer settings\n\n${readTable(THREE, ROWS)}\n\n<!-- page 2 -->\n\nThe broker reads them`);
  });

  it('joins the row’s two parts when its description is cut mid-sentence', async () => {
    const [first, second] = pages('two.pdf');
    expect(first).toMatch(/a batch larger than this is refused by the broker, which\s*$/);
    expect(second).toMatch(/^\s*Option\s+Description\s*\n\s*producer sends to the\s+answers with an error code/);
    const text = (await ops.ok('read', { input: 'two.pdf' })).text ?? '';
    expect(text).toContain(`# Producer settings\n\n${readTable(TWO, TWO_COLUMNS)}\n\n<!-- page 2 -->\n\nThe broker reads them`);
  });

  it('reads the last page’s part as the table’s: the cut row’s description lines and a row whose description wraps, under the repeated header', async () => {
    const [, second] = pages('last.pdf');
    // Most of the page's table lines are a description's full lines, nothing in the first column.
    expect(second).toMatch(/^\s*Option\s+Description\s*\n\s*refused by the broker, which answers with an error code/);
    expect(second).toMatch(/^\s*timeout1\s*$/m);
    const text = (await ops.ok('read', { input: 'last.pdf' })).text ?? '';
    expect(text).toContain(`# Producer settings\n\n${readTable(TWO, LAST_PAGE)}\n\n<!-- page 2 -->\n\nThe broker reads them`);
  });

  it('reads rows whose cells all wrap alike by their spacing: a cell’s lines at the line height, the rows a padding further apart', async () => {
    const [first] = pages('alike.pdf');
    expect(first).toMatch(/^\s*retry1 when a\s+How many times a message is sent again when the broker does not\s*\n\s*send failed\s+answer, at most 1\.\s*$/m);
    const text = (await ops.ok('read', { input: 'alike.pdf' })).text ?? '';
    expect(text).toContain(readTable(TWO, ALIKE.slice(0, 13)));
  });

  it('leaves the line after the table out of it where the last page holds the repeated header and one row', async () => {
    const last =
      pages('alike.pdf')
        .filter((page) => page.trim())
        .at(-1) ?? '';
    expect(last).toMatch(/^\s*Option\s+Description\s*\n\s+The largest body[^\n]*\n\s*batch\s+[^\n]*\n\s+[^\n]*broker\.\s*\n\s*\nRead at start\.\s*$/);
    const text = (await ops.ok('read', { input: 'alike.pdf' })).text ?? '';
    expect(text).toMatch(/\| batch \| The largest body[^|\n]*broker\. \|\n\n(<!-- page \d+ -->\n\n)*Read at start\./);
  });
});
