// Reading a table Chrome's print cuts inside its first body row (issue 45): the page holds the
// header and that row's first two lines, the next page repeats the header and holds the row's
// last line, then the other rows. Two lines under the header show one spacing only, so they read
// as two rows (evenly spaced lines, each with text in the first column, as LaTeX sets rows); the
// next page's part shows the table's wrapped-line and row spacings, and by them the two lines
// are one row's (pdf-cut-spacing.ts), which the next page's last line then goes on.

import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printMarkdownWithChrome } from './chrome-print.js';
import { inProcess, type InProcess } from './in-process.js';

let ops: InProcess;

const PARAGRAPH = Array.from(
  { length: 3 },
  () => 'The settings below are read once when the client starts; a change takes effect at the next start, and the old values stay in force until then.',
).join(' ');
const FIRST = [
  'A ref keeps its value',
  'A state variable holds a value the component keeps between renders and shows on the screen, so that each change draws the component again with the new value',
];
const RULES = [1, 2, 3, 4].map((k) => [`Ref rule ${k}: never drawn`, `State rule ${k}: every change to it draws the component again with its new value`]);
/**
 * Ten paragraphs, eight short lines and 8px more fill a Letter page in Liberation Serif down to
 * the table's header and its first row's first two lines (Chrome keeps a row's first lines with
 * the header, or moves the table whole to the next page).
 */
const markdown = [
  '# Refs and state',
  ...Array.from({ length: 10 }, () => PARAGRAPH),
  ...Array.from({ length: 8 }, (_, k) => `One more line, number ${k}.`),
  '<div style="height:8px"></div>',
  ['| refs | state |', '|---|---|', ...[FIRST, ...RULES].map((r) => `| ${r.join(' | ')} |`)].join('\n'),
  'That is how they compare.',
].join('\n\n');

beforeAll(async () => {
  ops = await inProcess({ workers: '1' });
  // Liberation Serif by name (scripts/test-tools.txt): where the break falls is measured in it.
  printMarkdownWithChrome(ops, 'refs', `${markdown}\n`);
}, 240_000);
afterAll(() => ops.close());

describe('read: a Chrome-printed table cut inside its first body row', () => {
  it('reads the first row’s lines on both pages as one row', async () => {
    const pages = execFileSync('pdftotext', ['-layout', ops.at('refs.pdf'), '-'], { encoding: 'utf8' }).split('\f');
    // The header and the row's first two lines end page 2; page 3 repeats the header over the row's last line.
    expect(pages[1]).toMatch(/^\s*refs\s+state\s*\n\s*A ref keeps\s+A state variable holds[^\n]*\n\s*its value\s+and shows on the screen[^\n]*\n\s*$/m);
    expect(pages[2]).toMatch(/^\s*refs\s+state\s*\n\s*again with the new value\s*\n\s*Ref rule 1:/);
    const read = (await ops.ok('read', { input: 'refs.pdf' })).text ?? '';
    expect(read).toContain(['| refs | state |', '| - | - |', `| ${FIRST.join(' | ')} |`, ...RULES.map((r) => `| ${r.join(' | ')} |`)].join('\n'));
  });
});
