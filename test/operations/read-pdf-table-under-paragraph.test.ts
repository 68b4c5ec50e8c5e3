// A borderless table right under a Chinese paragraph and over a heading at body size (DataX's
// TSDB writer manual: its tags table under "前四个 tagkv 全排列…", "value" under it). LibreOffice
// sets the paragraph's Han and Latin words a third of an em apart, so its last line reads as two
// pieces over the table's two columns; it stands as far over the table as the heading under it
// stands below, and the heading's spacing hid the paragraph's (wasm/read/pdf-lead-in.ts
// tableGaps): the table was read from that line, its rows joined into one. Made by pandoc (gfm →
// docx) and LibreOffice; the layout is checked with pdftotext -bbox before the reading is.

import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSoffice, SOFFICE } from '../helpers/soffice.js';
import { inProcess, type InProcess } from './in-process.js';
import { pdfWords as wordsOf, type PdfWord as Word } from '../helpers/pdf-words.js';

let ops: InProcess;

const TABLE = [
  '| tag_k | tag_v |',
  '| - | - |',
  '| zone | z1\\~z10 |',
  '| cluster | c1\\~c20 |',
  '| group | g1\\~100 |',
  '| app | a1\\~a100 |',
  '| ip | ip1\\~ip2000000 |',
];

const TAGS_MD = [
  '# 数据特征',
  '',
  '##### tagkv',
  '',
  '前四个 tagkv 全排列，形成 `10 * 20 * 100 * 100 = 2000000` 条时间线，最后 IP 对应 2000000 条时间线从 1 开始自增。',
  '',
  '| **tag_k** | **tag_v**     |',
  '| --------- | ------------- |',
  '| zone      | z1~z10        |',
  '| cluster   | c1~c20        |',
  '| group     | g1~100        |',
  '| app       | a1~a100       |',
  '| ip        | ip1~ip2000000 |',
  '',
  '##### value',
  '',
  '度量值为 [1, 100] 区间内的随机值',
  '',
].join('\n');

beforeAll(async () => {
  ops = await inProcess({ soffice: SOFFICE, workers: '1' });
  ops.put('tags.md', TAGS_MD);
  execFileSync('pandoc', ['-f', 'gfm', 'tags.md', '-o', 'tags.docx'], { cwd: ops.dir });
  runSoffice(ops.at('profile'), ['--convert-to', 'pdf', 'tags.docx'], ops.dir);
}, 180_000);
afterAll(() => ops.close());

describe('read: a borderless table between a paragraph and a heading', () => {
  it('starts the table under the paragraph’s last line and ends it over the heading (pandoc → docx → LibreOffice)', async () => {
    // The layout: the paragraph's last line wraps to start with 应, and stands as far over the
    // header as the heading stands under the last row — both further than the rows stand apart.
    const words = wordsOf(ops.at('tags.pdf'));
    const find = (text: string) => words.find((w) => w.text === text) as Word;
    const [last, header, zone, ip, heading] = [find('应'), find('tag_k'), find('zone'), find('ip'), find('value')];
    expect(last.x).toBeLessThan(header.x + 1);
    const [over, between, under] = [header.top - last.bottom, zone.top - header.bottom, heading.top - ip.bottom];
    expect(over).toBeGreaterThan(between * 2);
    expect(under).toBeGreaterThan(over);

    const text = (await ops.ok('read', { input: 'tags.pdf' })).text ?? '';
    expect(text).toContain(TABLE.join('\n'));
    expect(text).toMatch(/\| ip \| ip1\\~ip2000000 \|\n\n.*value/);
  });
});
