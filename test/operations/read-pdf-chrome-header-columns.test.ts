// Reading a Chrome-printed table whose body leaves columns empty (issue 45): a test report's
// results table, eight narrow columns whose header cells wrap over several lines centred on each
// other, its body the channel counts in the first column alone (the figures still to be
// measured), and an options table whose Default column is empty in every row. The header's cells
// over no body text are columns all the same: the first table was read as header paragraphs and
// a line of numbers, the second with its Default header joined to Option.

import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printMarkdownWithChrome } from './chrome-print.js';
import { inProcess, type InProcess } from './in-process.js';

let ops: InProcess;

const RESULTS = [
  'Channels',
  'DataX speed (Rec/s)',
  'DataX traffic (MB/s)',
  'DataX machine NIC outbound traffic (MB/s)',
  'DataX machine load',
  'DB NIC inbound traffic (MB/s)',
  'DB load',
  'DB TPS',
];
const CHANNELS = ['1', '4', '8', '16'];
const OPTIONS = ['Option', 'Default', 'Required', 'Description'];
const SETTINGS = [
  ['host', '', 'yes', "The broker's host name."],
  ['port', '', 'no', 'The port the broker listens on.'],
  ['timeout', '', 'no', 'How long to wait for an answer.'],
];

const pipeTable = (header: readonly string[], rows: readonly (readonly string[])[]) =>
  [`| ${header.join(' | ')} |`, `|${header.map(() => '---|').join('')}`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
/** The table as the reader writes it, an empty cell as `| |`. */
const readTable = (header: readonly string[], rows: readonly (readonly string[])[]) =>
  [`| ${header.join(' | ')} |`, `|${header.map(() => ' - |').join('')}`, ...rows.map((r) => `| ${r.join(' | ')} |`.replace(/ {2,}/g, ' '))].join('\n');

const layout = (pdf: string) => execFileSync('pdftotext', ['-layout', ops.at(pdf), '-'], { encoding: 'utf8' });

const RESULT_ROWS = CHANNELS.map((n) => [n, ...RESULTS.slice(1).map(() => '')]);

beforeAll(async () => {
  ops = await inProcess({ workers: '1' });
  printMarkdownWithChrome(ops, 'results', `# Test report\n\n${pipeTable(RESULTS, RESULT_ROWS)}\n\nThe figures follow.\n`);
  printMarkdownWithChrome(ops, 'options', `# Options\n\n${pipeTable(OPTIONS, SETTINGS)}\n\nRead at start.\n`);
}, 240_000);
afterAll(() => ops.close());

describe('read: a Chrome-printed table whose body leaves columns empty', () => {
  it('reads a results table whose wrapped header shows eight columns over a body of the first column alone', async () => {
    const text = layout('results.pdf');
    // The header's cells wrap over several lines; each body line holds its channel count alone.
    expect(text).toMatch(/^\s*Channels\s+speed\s+traffic\s/m);
    expect(text).toMatch(/^\s*1\s*\n\s*4\s*\n\s*8\s*\n\s*16\s*$/m);
    const read = (await ops.ok('read', { input: 'results.pdf' })).text ?? '';
    expect(read).toContain(`# Test report\n\n${readTable(RESULTS, RESULT_ROWS)}\n\nThe figures follow.`);
  });

  it('keeps a column the body leaves empty in every row apart from its neighbours', async () => {
    expect(layout('options.pdf')).toMatch(/^\s*Option\s+Default\s+Required\s+Description\s*\n\s*host\s+yes\s+The broker's host name\.$/m);
    const read = (await ops.ok('read', { input: 'options.pdf' })).text ?? '';
    expect(read).toContain(`# Options\n\n${readTable(OPTIONS, SETTINGS)}\n\nRead at start.`);
  });
});
