// Key/value pairs set side by side in a table without rules, the left pairs fewer than the
// right: a line under a short key whose left pair is empty ("Color" under "VIN") is a row of its
// own, not the wrap of the row above (wasm/read/pdf-table-wraps.ts roomAbove). pandoc (gfm →
// odt) and LibreOffice set such tables borderless, rows and wrapped lines at one pitch.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSoffice, SOFFICE } from '../helpers/soffice.js';
import { inProcess, type InProcess } from './in-process.js';

let ops: InProcess;

const PAIRS_EN = `# Estimate

| Owner | | Vehicle | |
|---|---|---|---|
| Name | Gabriel Diaz | Year | 2022 |
| Email | gd@contoso.com | VIN | JT2AE92 |
| | | Color | White |
| | | Odometer | 9,800 miles |
| Order | RO-20221108 | Estimator | Ellis Turner |

The estimate covers the visible damage only.
`;

const PAIRS_ZH = `# 估价单

| 车主 | | 车辆 | |
|---|---|---|---|
| 姓名 | 王小明 | 年份 | 2022 |
| 电话 | 010-12345678 | 车架号 | JT2AE92 |
| | | 颜色 | 白色 |
| | | 里程 | 九千八百公里 |
| 工单 | RO-20221108 | 估价员 | 李华 |

估价只包括可见的损坏。
`;

/** The source's table as the reader writes it: the same rows, the delimiter row as `| - |`. */
const tableOf = (markdown: string) =>
  markdown
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .map((line) => (line.startsWith('|---') ? '| - | - | - | - |' : line.replace(/\| \|/g, '| |').replace(/\|\s+\|/g, '| |')))
    .join('\n');

beforeAll(async () => {
  ops = await inProcess({ soffice: SOFFICE, workers: '1' });
  for (const [name, markdown] of [
    ['pairs-en', PAIRS_EN],
    ['pairs-zh', PAIRS_ZH],
  ] as const) {
    ops.put(`${name}.md`, markdown);
    execFileSync('pandoc', ['-f', 'gfm', `${name}.md`, '-o', `${name}.odt`], { cwd: ops.dir });
    runSoffice(ops.at('profile'), ['--convert-to', 'pdf', `${name}.odt`], ops.dir);
    fs.rmSync(ops.at('profile'), { recursive: true, force: true });
  }
}, 180_000);
afterAll(() => ops.close());

describe('read: PDF tables of key/value pairs side by side', () => {
  it('reads a pair under a short key beside an empty left pair as a row of its own (pandoc → odt → LibreOffice)', async () => {
    const text = (await ops.ok('read', { input: 'pairs-en.pdf' })).text ?? '';
    expect(text).toContain(tableOf(PAIRS_EN).replace('gd@', 'gd\\@'));
  });

  it('reads the same in Chinese, whose lines may break before any character (pandoc → odt → LibreOffice)', async () => {
    const text = (await ops.ok('read', { input: 'pairs-zh.pdf' })).text ?? '';
    expect(text).toContain(tableOf(PAIRS_ZH));
  });
});
