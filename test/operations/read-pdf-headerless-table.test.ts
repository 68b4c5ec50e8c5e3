// A borderless table printed without a header row: pandoc's table whose header cells are empty
// (gfm `|  |  |`) goes to DOCX with no header row, so LibreOffice draws no rule and repeats no
// header on any of its pages. Its first line is then a row like the others, and its wrapped
// description goes on in the lines under it, their first column empty, at a cell's line pitch (a
// row stands further off). Made by pandoc (gfm → docx) and LibreOffice; the layout is checked with
// pdftotext -bbox before the reading is.

import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSoffice, SOFFICE } from '../helpers/soffice.js';
import { inProcess, type InProcess } from './in-process.js';
import { pageWords, type PdfWord as Word } from '../helpers/pdf-words.js';

let ops: InProcess;

const ENGLISH: readonly (readonly [string, string])[] = [
  ['batchSize', 'How many rows the writer sends to the target table in one request; a larger batch needs more memory on both sides.'],
  ['fetchSize', 'How many rows the reader takes from the source in one round trip.'],
  ['retryTimes', 'How many times a failed request is sent again before the job stops and reports the error to the scheduler that started it.'],
  ['splitPk', 'The integer column the reader splits the table by, so that each channel reads a range of its own.'],
  ['sessionZone', 'The time zone the session uses when it reads and writes dates.'],
  ['preSql', 'Statements run once before the first row is written, for example to empty the target table or to drop an index that would slow the load.'],
];

const CHINESE: readonly (readonly [string, string])[] = [
  ['batchSize', '一批写入目标库的数据条数，过大会占用较多内存，过小则写入速度较慢，一般保持默认值即可。'],
  ['fetchSize', '每次从源库读取的数据条数。'],
  ['retryTimes', '发生错误后重新发送请求的次数，超过这个次数后任务失败并把错误报告给启动任务的调度程序。'],
  ['splitPk', '用于切分任务的整数主键列，每个通道读取其中的一段。'],
  ['sessionZone', '会话读取和写入日期时使用的时区。'],
  ['preSql', '写入第一条数据之前执行一次的语句，例如清空目标表，或者删除会拖慢导入速度的索引。'],
];

const markdown = (title: string, lead: string, rows: readonly (readonly [string, string])[]) =>
  `# ${title}\n\n${lead}\n\n|  |  |\n|---|---|\n${rows.map(([name, text]) => `| ${name} | ${text} |`).join('\n')}\n\n${lead}\n`;

/** The tops of the lines from the first table row's down to the second row's, and where the description column starts. */
function firstRowLines(pdf: string, first: string, second: string): { tops: number[]; column: number } {
  const words = pageWords(pdf)[0] ?? [];
  const [a, b] = [words.find((w) => w.text === first) as Word, words.find((w) => w.text === second) as Word];
  const tops = [...new Set(words.filter((w) => w.top >= a.top - 1 && w.top <= b.top + 1).map((w) => Math.round(w.top * 10) / 10))].sort((x, y) => x - y);
  const column = Math.min(...words.filter((w) => Math.abs(w.top - a.top) < 1 && w.x > a.x + 1).map((w) => w.x));
  return { tops, column };
}

/** Every row of the first Markdown table in `text` (its first line too), each row's cells. */
function tableRows(text: string): string[][] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|\s*-/.test(line))
    .map((line) =>
      line
        .replace(/^\|\s?|\s?\|$/g, '')
        .split(' | ')
        .map((cell) => cell.trim()),
    );
}

beforeAll(async () => {
  ops = await inProcess({ soffice: SOFFICE, workers: '1' });
  ops.put('options-en.md', markdown('Writer options', 'Restart the job after changing an option.', ENGLISH));
  ops.put('options-zh.md', markdown('写入插件配置', '配置修改后需要重新启动任务。', CHINESE));
  for (const name of ['options-en', 'options-zh']) execFileSync('pandoc', ['-f', 'gfm', `${name}.md`, '-o', `${name}.docx`], { cwd: ops.dir });
  runSoffice(ops.at('profile'), ['--convert-to', 'pdf', 'options-en.docx', 'options-zh.docx'], ops.dir);
}, 180_000);
afterAll(() => ops.close());

describe('read: a borderless table without a header row (pandoc → docx → LibreOffice)', () => {
  it.each([
    ['options-en', ENGLISH],
    ['options-zh', CHINESE],
  ] as const)('keeps the first row’s wrapped description in its row (%s)', async (name, rows) => {
    // The layout: the first row's description wraps (three lines or more before the second row),
    // its lines nearer each other than the second row is to the first row's last line.
    const { tops } = firstRowLines(ops.at(`${name}.pdf`), 'batchSize', 'fetchSize');
    expect(tops.length).toBeGreaterThanOrEqual(3);
    const pitches = tops.slice(1).map((top, k) => top - (tops[k] as number));
    expect(pitches.at(-1) as number).toBeGreaterThan(Math.max(...pitches.slice(0, -1)) + 1);

    const text = (await ops.ok('read', { input: `${name}.pdf` })).text ?? '';
    expect(tableRows(text)).toEqual(rows.map(([option, description]) => [option, description]));
  });
});
