// Reading Chrome's prints of tables as wide as the page (issue 45): pandoc's tables as RocketMQ's
// configuration pages write them, one under each section's heading, their descriptions wrapping,
// so that their top, header and bottom rules make one run of rules of one extent down the page.
// Between two of them, a heading and a short line leading into the second table: each table is
// read alone, its header's wrapped "Default Value" one cell, the heading and the line in neither.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printWithChrome } from './chrome-print.js';
import { inProcess, type InProcess } from './in-process.js';

let ops: InProcess;

const COMMON = [
  ['namesrvAddr', '', 'Name Server address list, separated by semicolons'],
  ['clientIP', 'Local IP', "The client's local address, useful where detection fails"],
  ['instanceName', 'DEFAULT', 'Unique name for the client instance'],
  ['pollNameServerInterval', '30000', 'Interval (ms) to poll the Name Server for routes'],
];
const PRODUCER = [
  ['producerGroup', 'DEFAULT_PRODUCER', 'Producer group name'],
  ['sendMsgTimeout', '3000', 'Timeout (ms) for sending messages to the broker'],
  ['retryTimesWhenSendFailed', '2', 'Max retries for messages whose sending failed'],
];
const HEADER = '| Parameter Name | Default Value | Description |';
const pipeTable = (rows: readonly string[][]) => `${HEADER}\n|---|---|---|\n${rows.map((r) => `| ${r.join(' | ')} |`).join('\n')}\n`;
/** The table as the reader writes it: an empty cell is `| |`. */
const readTable = (rows: readonly string[][]) => `${HEADER}\n| - | - | - |\n${rows.map((r) => `|${r.map((c) => (c ? ` ${c} ` : ' ')).join('|')}|`).join('\n')}`;

const CONFIGURATION = `# Client configuration\n\nEvery client reads the settings below when it starts.\n\n### 2.1 Common configuration\n\n${pipeTable(COMMON)}\n### 2.2 Producer configuration\n\nIts settings:\n\n${pipeTable(PRODUCER)}\nThe broker keeps each message for three days.\n`;

beforeAll(async () => {
  ops = await inProcess({ workers: '1' });
  ops.put('configuration.md', CONFIGURATION);
  // Liberation Serif by name (scripts/test-tools.txt): the wraps below are measured in it.
  execFileSync(
    'pandoc',
    ['configuration.md', '-f', 'gfm', '-s', '--metadata', 'pagetitle=configuration', '--variable', 'mainfont=Liberation Serif', '-o', 'configuration.html'],
    { cwd: ops.dir, stdio: 'ignore' },
  );
  printWithChrome(ops, fs.readFileSync(ops.at('configuration.html'), 'utf8'), 'configuration.pdf');
}, 240_000);
afterAll(() => ops.close());

describe('read: two tables of one width, a heading and a lead-in line between them (Chrome’s print)', () => {
  it('reads each table alone, the heading and the line in neither, each wrapped cell one cell', async () => {
    // What Chrome drew, read apart from the reader: one page, the first header's "Default" over "Value", a description wrapped.
    const layout = execFileSync('pdftotext', ['-layout', ops.at('configuration.pdf'), '-'], { encoding: 'utf8' });
    expect(layout.split('\f').filter((page) => page.trim())).toHaveLength(1);
    expect(layout).toMatch(/^\s+Default\s*\n\s+Parameter Name\s+Description\s*\n\s+Value\s*$/m);
    expect(layout).toMatch(/Name Server address list, separated by\s*\n\s*namesrvAddr\s*\n\s*semicolons/);
    expect(layout).toMatch(/2\.2 Producer configuration\s*\n\s*Its settings:\s*\n\s*Parameter Name\s+Default Value\s+Description/);
    const text = (await ops.ok('read', { input: 'configuration.pdf' })).text ?? '';
    // The headings' levels are another matter (pdf-headings.ts): each table stands between the blocks around it.
    expect(text).toContain(`2.1 Common configuration\n\n${readTable(COMMON)}\n\n#`);
    expect(text).toContain(`Its settings:\n\n${readTable(PRODUCER)}\n\nThe broker keeps`);
  });
});
