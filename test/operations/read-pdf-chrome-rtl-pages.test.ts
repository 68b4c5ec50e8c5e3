// Reading Chrome's prints (issue 45): a table in English on a right-to-left page (react.dev's
// Persian site) that the page break cuts. Chrome sets it from the right and repeats its header on
// the next page; the first page's Persian prose shows the table runs right to left, the next page,
// the table's end alone, shows nothing, so its part reads from the left. The repeated header,
// turned, tells the two parts are one table.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printWithChrome } from './chrome-print.js';
import { inProcess, type InProcess } from './in-process.js';

let ops: InProcess;

/** The direction marks pdftotext puts around a right-to-left page's words. */
const BIDI_MARKS = /[\u200e\u200f\u202a-\u202e]/g;

const PERSIAN_PROSE =
  'ری‌اکت به‌روزرسانی‌های وضعیت را در صف قرار می‌دهد و پس از اجرای همه کدهای کنترل‌کننده رویداد، آن‌ها را پردازش می‌کند. این جدول نشان می‌دهد که هر روش چه چیزی برمی‌گرداند.';
const HEADER = ['method', 'mutates', 'returns'];
const ROWS = Array.from({ length: 30 }, (_, k) => [`method${k + 1}`, k % 2 ? 'yes' : 'no', `value${k + 1}`]);
const markdownRow = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
const PAGE = `# صف به‌روزرسانی‌ها\n\n${Array(6).fill(PERSIAN_PROSE).join('\n\n')}\n\n${[HEADER, ['---', '---', '---'], ...ROWS].map(markdownRow).join('\n')}\n`;

beforeAll(async () => {
  ops = await inProcess({ workers: '1' });
  ops.put('methods.md', PAGE);
  execFileSync(
    'pandoc',
    [
      'methods.md',
      '-f',
      'gfm',
      '-s',
      '--metadata',
      'pagetitle=methods',
      '--variable',
      'mainfont=DejaVu Serif',
      '--metadata',
      'lang=fa',
      '--metadata',
      'dir=rtl',
      '-o',
      'methods.html',
    ],
    { cwd: ops.dir, stdio: 'ignore' },
  );
  printWithChrome(ops, fs.readFileSync(ops.at('methods.html'), 'utf8'), 'methods.pdf');
}, 240_000);
afterAll(() => ops.close());

describe('read: a table on a right-to-left page cut by the page break (Chrome’s print of pandoc’s HTML)', () => {
  it('reads both parts from the right as one table, the repeated header dropped', async () => {
    // What Chrome drew, read apart from the reader: two pages, each with the header set from the
    // right (its first column rightmost), the second page holding rows and nothing after them.
    const pages = [1, 2].map((p) =>
      execFileSync('pdftotext', ['-layout', '-f', `${p}`, '-l', `${p}`, ops.at('methods.pdf'), '-'], { encoding: 'utf8' }).replace(BIDI_MARKS, ''),
    );
    expect(execFileSync('pdfinfo', [ops.at('methods.pdf')], { encoding: 'utf8' })).toMatch(/Pages:\s+2\n/);
    for (const page of pages) expect(page).toMatch(/returns\s+mutates\s+method\n/);
    expect(pages[0]).toMatch(/value\d+\s+(yes|no)\s+method\d+/);
    expect(pages[1]?.trim()).toMatch(/value30\s+yes\s+method30$/);
    const text = (await ops.ok('read', { input: 'methods.pdf' })).text ?? '';
    expect(text).toContain([HEADER, ['-', '-', '-'], ...ROWS].map(markdownRow).join('\n'));
  });
});
