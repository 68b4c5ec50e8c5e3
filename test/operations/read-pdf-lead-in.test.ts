// LibreOffice's space between Han and Latin words (a third of an em) around borderless tables,
// as DataX's plugin manuals show it: a Chinese line that names the table under it ("下面列出
// MysqlWriter 针对 Mysql 类型转换列表:") read as a paragraph over the table, not as its first
// row; a header cell "DataX 速度 (Rec/s)" over numbers read as one cell, not as two columns; and
// a heading a paragraph's spacing under a table, another table under it, kept out of both.
// Made by pandoc (gfm → docx) and LibreOffice, whose table is borderless but for the rule under
// its header; the layout is checked with pdftotext -bbox before the reading is.

import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSoffice, SOFFICE } from '../helpers/soffice.js';
import { inProcess, type InProcess } from './in-process.js';
import { pdfWords as wordsOf, type PdfWord as Word } from '../helpers/pdf-words.js';

let ops: InProcess;

const LEAD_IN = '下面列出 ArchiveWriter 针对 PostgreSQL 类型转换列表:';

const MANUAL_MD = `# ArchiveWriter 插件文档

## 类型转换

目前 ArchiveWriter 支持大部分 PostgreSQL 类型，但也存在部分个别类型没有支持的情况，请注意检查你的类型。

${LEAD_IN}

| DataX 内部类型 | PostgreSQL 数据类型 |
| -------- | -----  |
| Long     | bigint, bigserial, integer, smallint, serial |
| Double   | double precision, money, numeric, real |
| String   | varchar, char, text, bit |
| Date     | date, time, timestamp |
| Boolean  | bool |

写入前请确认目标表已经建好。

## 测试报告

| 通道数 | DataX 速度 (Rec/s) | DataX 流量 (MB/s) |
| ------ | ------------------ | ----------------- |
| 1      | 129753             | 15.45             |
| 2      | 284953             | 33.70             |
| 3      | 385868             | 45.71             |

## 约束限制
`;

const TYPES_TABLE = [
  '| 类型分类 | Stream 数据类型 |',
  '| - | - |',
  '| 整数类 | INTEGER |',
  '| 浮点类 | DOUBLE |',
  '| 字符串类 | STRING |',
  '| 布尔类 | BOOLEAN |',
  '| 二进制类 | BINARY |',
];

/** Two tables with a heading between them (DataX's otsstreamreader). */
const TWO_TABLES_MD = `# StreamReader 插件文档

## 类型转换

${TYPES_TABLE.join('\n')}

### 参数说明

| 参数 | 描述 | 是否必选 | 默认值 |
|------|------|----------|--------|
| endpoint | 服务的地址 | 是 | 无 |
| instanceName | 实例的名称 | 是 | 无 |
| dataTable | 导出增量数据的表的名称 | 是 | 无 |
| startTime | 增量数据的时间范围的开始时间 | 否 | 无 |
`;

beforeAll(async () => {
  ops = await inProcess({ soffice: SOFFICE, workers: '1' });
  ops.put('manual.md', MANUAL_MD);
  ops.put('two-tables.md', TWO_TABLES_MD);
  for (const name of ['manual', 'two-tables']) execFileSync('pandoc', ['-f', 'gfm', `${name}.md`, '-o', `${name}.docx`], { cwd: ops.dir });
  runSoffice(ops.at('profile'), ['--convert-to', 'pdf', 'manual.docx', 'two-tables.docx'], ops.dir);
}, 180_000);
afterAll(() => ops.close());

describe('read: Han and Latin words spaced apart around a borderless table', () => {
  it('reads a Chinese line cut into pieces by its Latin words, a paragraph’s spacing over the table, as a paragraph before the table (pandoc → docx → LibreOffice)', async () => {
    const words = wordsOf(ops.at('manual.pdf'));
    const start = words.find((w) => w.text === '下面列出') as Word;
    const lead = words.filter((w) => Math.abs(w.top - start.top) < 1);
    const header = words.filter((w) => ['DataX', '内部类型', 'PostgreSQL', '数据类型'].includes(w.text) && w.top > start.bottom && w.top < start.bottom + 30);
    const size = (lead[0] as Word).bottom - (lead[0] as Word).top;
    // The layout: the lead-in's words a fifth of an em apart or more (wider than a Latin space), the
    // header's cells a few ems apart, and the header under the lead-in by more than 0.4 em.
    expect(lead).toHaveLength(5);
    const gaps = lead.slice(1).map((w, k) => w.x - (lead[k] as Word).right);
    expect(Math.min(...gaps)).toBeGreaterThan(size * 0.2);
    expect(header).toHaveLength(4);
    expect((header[0] as Word).top - (lead[0] as Word).bottom).toBeGreaterThan(size * 0.4);

    const text = (await ops.ok('read', { input: 'manual.pdf' })).text ?? '';
    expect(text).toContain(
      [
        LEAD_IN,
        '',
        '| DataX 内部类型 | PostgreSQL 数据类型 |',
        '| - | - |',
        '| Long | bigint, bigserial, integer, smallint, serial |',
        '| Double | double precision, money, numeric, real |',
        '| String | varchar, char, text, bit |',
        '| Date | date, time, timestamp |',
        '| Boolean | bool |',
      ].join('\n'),
    );
  });

  it('reads a header cell whose Han and Latin words stand a space apart, over a column of numbers, as one cell (pandoc → docx → LibreOffice)', async () => {
    // The layout (12-pt text): "速度" and "(Rec/s)" stand more than 0.3 em apart (a cut between
    // pieces) and at most 0.4 em (a space); the numbers under them end left of the space.
    const words = wordsOf(ops.at('manual.pdf'));
    const [speed, unit] = [words.find((w) => w.text === '速度') as Word, words.find((w) => w.text === '(Rec/s)') as Word];
    expect(unit.x - speed.right).toBeGreaterThan(12 * 0.3);
    expect(unit.x - speed.right).toBeLessThan(12 * 0.4);
    expect((words.find((w) => w.text === '129753') as Word).right).toBeLessThan(speed.right);

    const text = (await ops.ok('read', { input: 'manual.pdf' })).text ?? '';
    expect(text).toContain(
      [
        '| 通道数 | DataX 速度 (Rec/s) | DataX 流量 (MB/s) |',
        '| - | - | - |',
        '| 1 | 129753 | 15.45 |',
        '| 2 | 284953 | 33.70 |',
        '| 3 | 385868 | 45.71 |',
      ].join('\n'),
    );
  });

  it('keeps a heading a paragraph’s spacing under a table out of it, and the table under the heading apart (pandoc → docx → LibreOffice)', async () => {
    // The layout: the heading stands further under the table's last row than the rows stand apart.
    const words = wordsOf(ops.at('two-tables.pdf'));
    const [last, lastButOne, heading] = ['二进制类', '布尔类', '参数说明'].map((t) => words.find((w) => w.text === t) as Word) as [Word, Word, Word];
    expect(heading.top - last.bottom).toBeGreaterThan(12 * 0.4);
    expect(heading.top - last.bottom).toBeGreaterThan(2 * (last.top - lastButOne.bottom));

    const text = (await ops.ok('read', { input: 'two-tables.pdf' })).text ?? '';
    expect(text).toContain(
      `${TYPES_TABLE.join('\n')}\n\n### 参数说明\n\n| 参数 | 描述 | 是否必选 | 默认值 |\n| - | - | - | - |\n| endpoint | 服务的地址 | 是 | 无 |`,
    );
  });
});
