// A borderless table of nine narrow columns (DataX's MySQL writer manual, its performance
// figures), made by pandoc (gfm → docx) and LibreOffice. Its numbers are too long for their
// columns: LibreOffice breaks them inside the cell with no hyphen ("1428" / "5"), so every row
// stands on two lines, further apart (their padding added) than a cell's two lines are
// (wasm/read/pdf-borderless.ts repeatsCells). Its header names, wrapped onto two lines to eight and
// set at the cells' bottom, are not read as its header yet: each cell is a block of mupdf's that
// starts at its own height, and joining such blocks' lines into rows (tried: pdf-rows.ts) read
// other tables' cells into lines of prose. The layout is checked with pdftotext -bbox before the
// reading is.

import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSoffice, SOFFICE } from '../helpers/soffice.js';
import { inProcess, type InProcess } from './in-process.js';
import { pdfWords as wordsOf, type PdfWord as Word } from '../helpers/pdf-words.js';

let ops: InProcess;

const HEADER =
  '| 通道数 | 批量提交行数 | DataX速度(Rec/s) | DataX流量(MB/s) | DataX机器网卡流出流量(MB/s) | DataX机器运行负载 | DB网卡进入流量(MB/s) | DB运行负载 | DB TPS |';
const ROWS = [
  '| 1 | 128 | 5319 | 0.260 | 0.580 | 0.05 | 0.620 | 0.5 | 50 |',
  '| 1 | 512 | 14285 | 0.697 | 1.6 | 0.12 | 1.6 | 0.6 | 28 |',
  '| 1 | 1024 | 17241 | 0.842 | 1.9 | 0.20 | 1.9 | 0.6 | 16 |',
  '| 4 | 128 | 11764 | 0.574 | 1.5 | 0.21 | 1.6 | 0.8 | 112 |',
  '| 4 | 512 | 30769 | 1.47 | 3.5 | 0.3 | 3.6 | 0.9 | 88 |',
  '| 8 | 128 | 17777 | 0.868 | 2.9 | 0.28 | 2.9 | 0.8 | 200 |',
];
const PERF_MD = ['#### 单表测试报告', '', HEADER, `|${'---|'.repeat(9)}`, ...ROWS, '', '说明：这里的单表，主键类型为 bigint(20)，自增。', ''].join('\n');

/** The table the reading found, its rows as Markdown lines. */
const tableLines = (text: string) => text.split('\n').filter((l) => l.startsWith('|'));

beforeAll(async () => {
  ops = await inProcess({ soffice: SOFFICE, workers: '1' });
  ops.put('perf.md', PERF_MD);
  execFileSync('pandoc', ['-f', 'gfm', 'perf.md', '-o', 'perf.docx'], { cwd: ops.dir });
  runSoffice(ops.at('profile'), ['--convert-to', 'pdf', 'perf.docx'], ops.dir);
}, 180_000);
afterAll(() => ops.close());

describe('read: a table of narrow columns, its numbers wrapped in their cells', () => {
  it('reads each row whose numbers wrap onto a second line as one row, the broken numbers whole (pandoc → docx → LibreOffice)', async () => {
    // The layout: "14285" broken as "1428" over "5", the row's second line closer under its first
    // than the next row stands.
    const words = wordsOf(ops.at('perf.pdf'));
    const find = (text: string) => words.filter((w) => w.text === text);
    const [broken] = find('1428');
    const rest = words.find((w) => w.text === '5' && broken && Math.abs(w.x - broken.x) < 1 && w.top > broken.top) as Word;
    const next = find('1024').find((w) => broken && w.top > broken.top) as Word;
    expect(broken && rest && next).toBeTruthy();
    expect(next.top - rest.bottom).toBeGreaterThan((rest.top - (broken as Word).bottom) * 2);

    const text = (await ops.ok('read', { input: 'perf.pdf' })).text ?? '';
    // Each row one line of the table, its broken numbers whole (the header's reading aside).
    for (const row of ROWS) expect(tableLines(text)).toContain(row);
  });
});
