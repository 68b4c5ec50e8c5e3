// Reading Chrome's prints (issue 45): two tables of one width with a heading between them, as
// pandoc's HTML of RocketMQ's client configuration page prints. Each table is ruled at its top,
// under its header and at its bottom, all rules of one extent, so the five rules chain into one
// run; the heading between the first table's bottom rule and the second's top rule is no row.

import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printMarkdownWithChrome } from './chrome-print.js';
import { inProcess, type InProcess } from './in-process.js';

let ops: InProcess;

const COMMON_ROWS = [
  ['namesrvAddr', '', 'Name Server address list (separated by semicolons)'],
  ['clientIP', 'Local IP', "Client's local IP address (useful if automatic detection fails)"],
  ['instanceName', 'DEFAULT', 'Unique name for the client instance'],
  ['pollNameServerInterval', '30000', 'Interval (ms) to poll Name Server'],
  ['heartbeatBrokerInterval', '30000', 'Interval (ms) for sending heartbeats to Broker'],
];
const PRODUCER_ROWS = [
  ['producerGroup', 'DEFAULT_PRODUCER', 'Producer group name'],
  ['sendMsgTimeout', '3000', 'Timeout (ms) for sending messages'],
  ['retryTimesWhenSendFailed', '2', 'Max retries for failed messages'],
];
const HEADER = ['Parameter Name', 'Default Value', 'Description'];

/** A Markdown row as the reader writes it: an empty cell is one space between its bars. */
const markdownRow = (cells: readonly string[]) => `|${cells.map((c) => (c ? ` ${c} ` : ' ')).join('|')}|`;
const markdownTable = (rows: readonly (readonly string[])[]) => [markdownRow(HEADER), '| - | - | - |', ...rows.map(markdownRow)].join('\n');

const PAGE = `# Client Configuration

Producers and consumers are clients; this section lists the configuration they share and each one's own.

#### 2.1 Client Common Configuration

${markdownTable(COMMON_ROWS)}

#### 2.2 Producer Configuration

${markdownTable(PRODUCER_ROWS)}

Consumers are configured the same way.
`;

beforeAll(async () => {
  ops = await inProcess({ workers: '1' });
  // Liberation Serif by name (scripts/test-tools.txt): the wraps and the page's one page are measured in it.
  printMarkdownWithChrome(ops, 'client', PAGE);
}, 240_000);
afterAll(() => ops.close());

describe('read: two ruled tables of one width with a heading between them (Chrome’s print of pandoc’s HTML)', () => {
  it('reads each table with its own columns, and the heading between them as a heading', async () => {
    // What Chrome drew, read apart from the reader: one page, the first table's header wrapped, the
    // heading between the tables, the two tables' columns at different places.
    expect(execFileSync('pdfinfo', [ops.at('client.pdf')], { encoding: 'utf8' })).toMatch(/Pages:\s+1\n/);
    const layout = execFileSync('pdftotext', ['-layout', ops.at('client.pdf'), '-'], { encoding: 'utf8' });
    expect(layout).toMatch(/Default\n.*Parameter Name.*Description\n.*Value\n/);
    expect(layout).toMatch(/heartbeatBrokerInterval[^]*2\.2 Producer Configuration[^]*producerGroup/);
    const column = (line: string, word: string) => (layout.split('\n').find((l) => l.includes(line)) ?? '').indexOf(word);
    expect(column('clientIP', 'Local IP')).not.toBe(column('sendMsgTimeout', '3000'));
    const text = (await ops.ok('read', { input: 'client.pdf' })).text ?? '';
    expect(text).toContain(markdownTable(COMMON_ROWS));
    expect(text).toContain(`# 2.2 Producer Configuration\n\n${markdownTable(PRODUCER_ROWS)}\n\nConsumers`);
  });
});
