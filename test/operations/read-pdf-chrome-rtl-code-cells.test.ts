// Reading Chrome's prints (issue 45): code in a table on a right-to-left page (react.dev's Persian
// "Importing and Exporting Components"). Chrome sets each cell as a right-to-left paragraph, so a
// code cell's brackets at its end are drawn at its left (`}{ )(export function Button`). A row's
// cells of one line and of two make one block of text whose lines end at different places, so no
// block set flush right tells the cell's direction there: the closing bracket at its left does.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printWithChrome } from './chrome-print.js';
import { inProcess, type InProcess } from './in-process.js';

let ops: InProcess;

const PAGE = `# اکسپورت و ایمپورت

دو روش اصلی برای اکسپورت کردن مقادیر در جاوااسکریپت وجود دارد: اکسپورت پیش‌فرض و اکسپورت نام‌گذاری شده. هر فایل می‌تواند بیش از یک اکسپورت نام‌گذاری شده داشته باشد اما تنها یک اکسپورت پیش‌فرض دارد.

نحوه اکسپورت کردن کامپوننت، نحوه ایمپورت کردن آن را نیز مشخص می‌کند:

| Syntax | Export statement | Import statement |
| - | - | - |
| Default | \`export default function Button() {}\` | \`import Button from './Button.js';\` |
| Named | \`export function Button() {}\` | \`import { Button } from './Button.js';\` |

وقتی یک ایمپورت پیش‌فرض می‌نویسید، می‌توانید هر نامی که می‌خواهید بعد از ایمپورت قرار دهید.
`;

beforeAll(async () => {
  ops = await inProcess({ workers: '1' });
  ops.put('imports.md', PAGE);
  // DejaVu Serif by name: the machine's default serif changes where the cells wrap.
  const metadata = ['--metadata', 'pagetitle=imports', '--variable', 'mainfont=DejaVu Serif', '--metadata', 'lang=fa', '--metadata', 'dir=rtl'];
  execFileSync('pandoc', ['imports.md', '-f', 'gfm', '-s', ...metadata, '-o', 'imports.html'], { cwd: ops.dir, stdio: 'ignore' });
  printWithChrome(ops, fs.readFileSync(ops.at('imports.html'), 'utf8'), 'imports.pdf');
}, 240_000);
afterAll(() => ops.close());

describe('read: code cells of a table on a right-to-left page (Chrome’s print)', () => {
  it('reads a code cell whose brackets Chrome drew at its left in logical order', async () => {
    // What Chrome drew, read apart from the reader (poppler, its bidi marks dropped): the call's brackets left of the code.
    const layout = execFileSync('pdftotext', ['-layout', ops.at('imports.pdf'), '-'], { encoding: 'utf8' }).replace(/[\u200e\u200f\u202a-\u202e]/g, '');
    expect(layout).toMatch(/\}\{ \)\(export function Button\s+Named/);
    const text = (await ops.ok('read', { input: 'imports.pdf' })).text ?? '';
    expect(text).toContain('| Named | `export function Button() {}` |');
    expect(text).toContain('| Default | `export default function Button() {}` |');
  });
});
