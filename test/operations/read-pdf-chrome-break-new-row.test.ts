// Reading a table whose page break falls between two rows in Chrome's print (issue 45), where the
// next page's first row, under the repeated header, leaves its Default empty (an option with no
// default) in a column every other row fills. That looked like a row the break cut, its short
// cell ended above the break (pdf-cut-rows.ts), and the two rows were read as one. Its name and
// the name above the break are each one word, well shorter than the column's longest: no break
// fell inside either, so they are two rows.

import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printMarkdownWithChrome } from './chrome-print.js';
import { inProcess, type InProcess } from './in-process.js';

let ops: InProcess;

const range = (n: number) => Array.from({ length: n }, (_, k) => k + 1);
/** Fourteen rows fill a Letter page in Liberation Serif under the heading; the row with no default starts the next. */
const ROWS = [
  ...range(14).map((k) => [`retry${k}`, `${k * 100}`, `How many times a message is sent again when the broker does not answer, at most ${k}.`]),
  ['compression', '', 'Whether message bodies are compressed before they are sent.'],
  ...range(3).map((k) => [`sendTimeoutMillis${k}`, `${k * 1000}`, "How long to wait for the broker's answer, in milliseconds."]),
];
const HEADER = ['Option', 'Default', 'Description'];

const markdown = `# Producer settings\n\n| ${HEADER.join(' | ')} |\n|---|---|---|\n${ROWS.map((r) => `| ${r.join(' | ')} |`).join('\n')}\n\nThe broker reads them when it starts.\n`;

beforeAll(async () => {
  ops = await inProcess({ workers: '1' });
  // Liberation Serif by name (scripts/test-tools.txt): where the break falls is measured in it.
  printMarkdownWithChrome(ops, 'settings', markdown);
}, 240_000);
afterAll(() => ops.close());

describe('read: a Chrome-printed table whose next page starts with a row of empty cells', () => {
  it('reads the row above the break and the next page’s first row as two rows', async () => {
    const [first, second] = execFileSync('pdftotext', ['-layout', ops.at('settings.pdf'), '-'], { encoding: 'utf8' }).split('\f');
    expect(first).toMatch(/^retry14\s+1400\s*\n[^\n]*at most 14\.\s*$/m);
    expect(second).toMatch(/^\s*Option\s+Default\s+Description\s*\n[^\n]*compressed before they\s*\n\s*compression\s*\n/);
    const read = (await ops.ok('read', { input: 'settings.pdf' })).text ?? '';
    expect(read).toContain(
      '| retry14 | 1400 | How many times a message is sent again when the broker does not answer, at most 14. |\n| compression | | Whether message bodies are compressed before they are sent. |\n| sendTimeoutMillis1 | 1000 |',
    );
  });
});
