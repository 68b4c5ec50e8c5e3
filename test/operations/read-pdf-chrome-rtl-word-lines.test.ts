// Reading Chrome's prints (issue 45): a table cell's last line that holds one Persian word in
// brackets, `(مثال)` ("example") after English (react.dev's Persian "Updating Arrays in State").
// Chrome draws a line from its left, each word's letters in logical order; with one word in the
// line no step from word to word shows that order, and read as it comes the line was `) مثال (`.
// Its first glyph standing left of its last shows it: the line is read by position.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printWithChrome } from './chrome-print.js';
import { inProcess, type InProcess } from './in-process.js';

let ops: InProcess;

const PAGE = `# به‌روزرسانی آرایه‌ها در state

در جدول زیر عملیات رایج آرایه به صورت مرجع آمده است. هنگام کار با آرایه‌ها در state از متدهای ستون چپ خودداری کنید و متدهای ستون راست را ترجیح دهید:

| | خودداری شود | ترجیح داده شود |
|---|---|---|
| اضافه کردن | \`push\`, \`unshift\` | \`concat\`, \`[...arr]\` spread syntax<br>(مثال) |
| حذف کردن | \`pop\`, \`shift\`, \`splice\` | \`filter\`, \`slice\`<br>(مثال) |
`;

beforeAll(async () => {
  ops = await inProcess({ workers: '1' });
  ops.put('arrays.md', PAGE);
  // DejaVu Serif by name: the machine's default serif changes where lines wrap.
  const metadata = ['--metadata', 'pagetitle=arrays', '--variable', 'mainfont=DejaVu Serif', '--metadata', 'lang=fa', '--metadata', 'dir=rtl'];
  execFileSync('pandoc', ['arrays.md', '-f', 'gfm', '-s', ...metadata, '-o', 'arrays.html'], { cwd: ops.dir, stdio: 'ignore' });
  printWithChrome(ops, fs.readFileSync(ops.at('arrays.html'), 'utf8'), 'arrays.pdf');
}, 240_000);
afterAll(() => ops.close());

describe('read: a table cell’s line of one right-to-left word in brackets (Chrome’s print)', () => {
  it('reads the word in its brackets, after the cell’s English', async () => {
    // What Chrome drew, read apart from the reader (poppler, its bidi marks dropped): each `(مثال)` on a line of its own.
    const layout = execFileSync('pdftotext', ['-layout', ops.at('arrays.pdf'), '-'], { encoding: 'utf8' }).replace(/[\u200e\u200f\u202a-\u202e]/g, '');
    expect(layout.match(/^\s+\(مثال\)$/gm)).toHaveLength(2);
    const text = (await ops.ok('read', { input: 'arrays.pdf' })).text ?? '';
    expect(text).toContain('| اضافه کردن | push, unshift | concat, \\[...arr] spread syntax (مثال) |');
    expect(text).toContain('| حذف کردن | pop, shift, splice | filter, slice (مثال) |');
  });
});
