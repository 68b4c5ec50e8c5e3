// A borderless table whose row the page break cuts, as LibreOffice prints pandoc's tables of a
// manual's settings (DataX's neo4jwriter): the header repeated at the next page's top and under
// it the rest of the cut row, its first column empty. The rows on that page are still told by
// their pitch, the first column's names wrapped onto lines of their own; and the cut Chinese
// cell goes on without a space. Made by pandoc (gfm → docx) and LibreOffice; the layout is
// checked with pdftotext -bbox before the reading is.

import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSoffice, SOFFICE } from '../helpers/soffice.js';
import { inProcess, type InProcess } from './in-process.js';
import { pageWords, type PdfWord as Word } from '../helpers/pdf-words.js';

let ops: InProcess;

const FILLER =
  '本节说明写入插件的全部配置项。每个配置项都有默认值，一般情况下不需要修改；只有在目标库的负载较高或者网络不稳定时，才需要调整这些配置，调整之后请先在测试环境中验证。';

/** A page of prose, then the table; `paragraphs` sets where the page break falls. */
const manual = (paragraphs: number, heading: string, table: readonly string[]) =>
  `# 写入插件配置\n\n${Array.from({ length: paragraphs }, () => FILLER).join('\n\n')}\n\n## ${heading}\n\n${table.join('\n')}\n\n配置修改后需要重新启动任务。\n`;

/** Five columns, the names in the first wrapped inside the word; the break cuts the uri row's example. */
const NAMES = [
  'database',
  'uri',
  'username',
  'password',
  'bearerToken',
  'kerberosTicket',
  'cypher',
  'batchDataVariableName',
  'properties',
  'batchSize',
  'maxTransactionRetryTimeSeconds',
  'maxConnectionTimeoutSeconds',
  'retryTimes',
  'retrySleepMills',
];
const WRAPPED_NAMES = [
  '| 配置                           | 说明                            | 是否必须 | 默认值 | 示例                                                 |',
  '|:-------------------------------|---------------------------------|----------|--------|------------------------------------------------------|',
  '| database | 数据库名字 | 是 | - | neo4j |',
  '| uri | 数据库访问链接 | 是 | - | bolt://localhost:7687 |',
  '| username | 访问用户名 | 是 | - | neo4j |',
  '| password | 访问密码 | 是 | - | neo4j |',
  '| bearerToken | 权限相关 | 否 | - | - |',
  '| kerberosTicket | 权限相关 | 否 | - | - |',
  '| cypher | 同步语句 | 是 | - | unwind $batch as row create(p) set p.name = row.name |',
  '| batchDataVariableName | unwind 携带的数据变量名 |  |  | batch |',
  '| properties | 定义目标库中数据的属性名字和类型 | 是 | - | 见后续案例 |',
  '| batchSize | 一批写入数据量 | 否 | 1000 |  |',
  '| maxTransactionRetryTimeSeconds | 事务运行最长时间 | 否 | 30秒 | 30 |',
  '| maxConnectionTimeoutSeconds | 驱动最长链接时间 | 否 | 30秒 | 30 |',
  '| retryTimes | 发生错误的重试次数 | 否 | 3次 | 3 |',
  '| retrySleepMills | 重试失败后的等待时间 | 否 | 3秒 | 3 |',
];

/** Three columns; the break cuts the session row's Chinese description after "一". */
const CUT_DESCRIPTION = '会话使用的时区，默认与运行任务的机器一致；读取和写入两端的时区不同时，日期和时间类型的数据会按照这个时区转换后再写入';
const CUT_CELL = [
  '| 名称 | 默认值 | 说明 |',
  '| ---------- | ------ | -------------------- |',
  '| connect timeout seconds | 30 | 驱动建立连接的最长等待时间，超过后报错并重试 |',
  '| retry sleep millis | 3000 | 重试失败后的等待时间，单位为毫秒 |',
  '| max transaction retry | 3 | 事务运行失败后最多重试的次数，超过后任务失败 |',
  '| batch size rows | 1000 | 一批写入目标库的数据条数，过大会占用较多内存 |',
  '| fetch size rows | 500 | 每次从源库读取的数据条数，影响读取的速度和内存 |',
  `| session time zone | UTC | ${CUT_DESCRIPTION} |`,
  '| write mode of the target table | insert | 写入模式，可选插入、更新或者覆盖已有的数据 |',
  '| pre sql statement to run first | none | 写入数据前执行的语句，例如清空目标表中的旧数据 |',
  '| post sql statement to run last | none | 写入数据后执行的语句，例如更新统计信息或者索引 |',
  '| column name list of the table | all | 需要写入的列名列表，顺序与读取端的列保持一致 |',
  '| split primary key | id | 用于切分任务的主键列，只支持整数类型的列 |',
  '| channel count | 4 | 并发通道的数量，受限于目标库能够承受的连接数 |',
];

/** The words of the first line under the header a page repeats (its first word '配置' or '名称'), and that line's header. */
function underRepeatedHeader(pdf: string, first: string): { header: Word; line: Word[] } {
  const page = pageWords(pdf)[1] as Word[];
  const header = page.find((w) => w.text === first) as Word;
  const next = Math.min(...page.filter((w) => w.top > header.top + 1).map((w) => w.top));
  return { header, line: page.filter((w) => Math.abs(w.top - next) < 1) };
}

/** The body rows of the Markdown table after `header`'s line in `text`, each row's cells. */
function tableRows(text: string, header: string): string[][] {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.startsWith(header));
  const rows: string[][] = [];
  for (let k = start + 2; k < lines.length && (lines[k] as string).startsWith('|'); k++) {
    rows.push((lines[k] as string).split(' | ').map((cell) => cell.replace(/^\|\s?|\s?\|$/g, '')));
  }
  return rows;
}

beforeAll(async () => {
  ops = await inProcess({ soffice: SOFFICE, workers: '1' });
  ops.put('wrapped-names.md', manual(10, '配置项介绍', WRAPPED_NAMES));
  ops.put('cut-cell.md', manual(6, '配置项', CUT_CELL));
  for (const name of ['wrapped-names', 'cut-cell']) execFileSync('pandoc', ['-f', 'gfm', `${name}.md`, '-o', `${name}.docx`], { cwd: ops.dir });
  runSoffice(ops.at('profile'), ['--convert-to', 'pdf', 'wrapped-names.docx', 'cut-cell.docx'], ops.dir);
}, 180_000);
afterAll(() => ops.close());

describe('read: a borderless table the page break cuts', () => {
  it('tells the rows on the next page by their pitch when the first line under the repeated header is a cut row’s rest, its names wrapped inside the word (pandoc → docx → LibreOffice)', async () => {
    // The layout: page 2 repeats the header, and the line under it holds only the rest of the cut
    // row's example (its first column empty); names wrap onto lines of their own.
    const { header, line } = underRepeatedHeader(ops.at('wrapped-names.pdf'), '配置');
    expect(line.length).toBeGreaterThan(0);
    expect(Math.min(...line.map((w) => w.x))).toBeGreaterThan(header.x + 100);
    const words = pageWords(ops.at('wrapped-names.pdf')).flat();
    expect(words.some((w) => w.text === 'maxTransactionRetryTimeSeconds')).toBe(false);

    const text = (await ops.ok('read', { input: 'wrapped-names.pdf' })).text ?? '';
    const names = tableRows(text, '| 配置 |')
      .map((row) => (row[0] as string).replaceAll(' ', ''))
      .filter(Boolean);
    expect(names).toEqual(NAMES);
  });

  it('joins a Chinese cell the break cut without a space (pandoc → docx → LibreOffice)', async () => {
    // The layout: the line under page 2's repeated header holds only the description's rest.
    const { line } = underRepeatedHeader(ops.at('cut-cell.pdf'), '名称');
    expect(line.map((w) => w.text).join('')).toMatch(/^致；/);

    const text = (await ops.ok('read', { input: 'cut-cell.pdf' })).text ?? '';
    expect(text).toContain(`| session time zone | UTC | ${CUT_DESCRIPTION} |`);
  });
});
