// Reading Chrome's prints (issue 45): a table in English on a page in English set right to left
// (react.dev's Arabic and Persian pages left untranslated), after a numbered list. Chrome sets the
// table from the right, its first column rightmost. No right-to-left letter tells the page's
// direction, and its list items, indented from the right, keep most of its lines off the right
// edge; the paragraphs' and items' last lines, short and standing at the right, tell it.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printWithChrome } from './chrome-print.js';
import { inProcess, type InProcess } from './in-process.js';

let ops: InProcess;

const ITEMS = [
  'React queues this function to be processed after all the other code in the event handler has run.',
  'During the next render, React goes through the queue and gives you the final updated state.',
  'React adds the updater function to its queue and calls it with the pending state.',
  'The return value of each updater function is passed to the next one as its argument.',
];
const TABLE = [
  '| queued update | `n` | returns |',
  '| - | - | - |',
  '| `n => n + 1` | `0` | `0 + 1 = 1` |',
  '| `n => n + 1` | `1` | `1 + 1 = 2` |',
  '| `n => n + 1` | `2` | `2 + 1 = 3` |',
];
const PAGE = [
  '# Queueing updates',
  'When you call the setter during the next render, React goes through the queue of updates in the order they were added and works out the final state:',
  ITEMS.map((item, k) => `${k + 1}. ${item}`).join('\n'),
  TABLE.join('\n'),
  'React stores the final result and returns it from the hook.',
].join('\n\n');

beforeAll(async () => {
  ops = await inProcess({ workers: '1' });
  ops.put('queue.md', `${PAGE}\n`);
  // DejaVu Serif by name: the machine's default serif changes where lines wrap.
  const metadata = ['--metadata', 'pagetitle=queue', '--variable', 'mainfont=DejaVu Serif', '--metadata', 'lang=ar', '--metadata', 'dir=rtl'];
  execFileSync('pandoc', ['queue.md', '-f', 'gfm', '-s', ...metadata, '-o', 'queue.html'], { cwd: ops.dir, stdio: 'ignore' });
  printWithChrome(ops, fs.readFileSync(ops.at('queue.html'), 'utf8'), 'queue.pdf');
}, 240_000);
afterAll(() => ops.close());

describe('read: an English table after a list on a page set right to left (Chrome’s print)', () => {
  it('reads the table’s columns from the right, as Chrome set them', async () => {
    // What Chrome drew, read apart from the reader: the items' full stops at the left of their
    // last lines, which stand at the right, and the table's first column rightmost.
    const layout = execFileSync('pdftotext', ['-layout', ops.at('queue.pdf'), '-'], { encoding: 'utf8' });
    expect(layout.match(/^\s{20,}\.\S.*\S$/gm)?.length).toBeGreaterThanOrEqual(ITEMS.length);
    expect(layout).toMatch(/returns\s+n\s+queued update\n/);
    expect(layout).toMatch(/1 = 1 \+ 0\s+0\s+n => n \+ 1\n/);
    const text = (await ops.ok('read', { input: 'queue.pdf' })).text ?? '';
    expect(text).toContain(TABLE.join('\n'));
  });
});
