// Reading Chrome's prints (issue 45): two ruled tables of one width with an example, a code block,
// a heading and a paragraph between them, as pandoc's HTML of Arthas's cluster-management page
// prints. Each table is ruled at its top, under its header and at its bottom, all rules of one
// extent, so they chain into one run; the code block's wrapped lines run across the second table's
// columns, so what lies between the first table's bottom rule and the second's top rule filled its
// cells like a header row, and the second table was read under it.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printWithChrome } from './chrome-print.js';
import { inProcess, type InProcess } from './in-process.js';

let ops: InProcess;

const HEADER = ['Parameter', 'Required', 'Description'];
const AGENT_ROWS = [
  ['http-port', 'N', 'HTTP port the agent listens on for the management page, 2671 by default'],
  ['registration', 'Y', 'Registry type (etcd and zookeeper are implemented; etcd is recommended)'],
];
const PROXY_ROWS = [
  ['port', 'N', 'HTTP and WebSocket port the proxy listens on, 2233 by default'],
  ['ip', 'Y', "The proxy's IP address, which the agents and the management page connect to"],
];
const COMMAND =
  'java -jar native-agent.jar --ip 164.196.97.123 --http-port 2671 --ws-port 2672 --registration-type etcd --registration-address 164.196.97.123:2379';

/** A Markdown row as the reader writes it. */
const markdownRow = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
const markdownTable = (rows: readonly (readonly string[])[]) => [markdownRow(HEADER), '| - | - | - |', ...rows.map(markdownRow)].join('\n');

const PAGE = `# Native agent

## Start the agent

The agent runs on each server whose Java processes are to be attached. Its parameters:

${markdownTable(AGENT_ROWS)}

Example:

\`\`\`shell
${COMMAND}
\`\`\`

## Start the proxy

The proxy relays between the agents and the management page.

${markdownTable(PROXY_ROWS)}

The management page is started the same way.
`;

beforeAll(async () => {
  ops = await inProcess({ workers: '1' });
  ops.put('agent.md', PAGE);
  // Liberation Serif and Mono by name (scripts/test-tools.txt): the wraps and the page's one page are measured in them.
  const fonts = ['--variable', 'mainfont=Liberation Serif', '--variable', 'monofont=Liberation Mono'];
  execFileSync('pandoc', ['agent.md', '-f', 'gfm', '-s', '--metadata', 'pagetitle=agent', ...fonts, '-o', 'agent.html'], { cwd: ops.dir, stdio: 'ignore' });
  printWithChrome(ops, fs.readFileSync(ops.at('agent.html'), 'utf8'), 'agent.pdf');
}, 240_000);
afterAll(() => ops.close());

describe('read: two ruled tables of one width with a code block and a heading between them (Chrome’s print of pandoc’s HTML)', () => {
  it('reads each table alone, the code and the heading between them outside both', async () => {
    // What Chrome drew, read apart from the reader: one page, the code's one line wrapped over
    // lines as wide as the tables, between the first table's last row and the second heading.
    expect(execFileSync('pdfinfo', [ops.at('agent.pdf')], { encoding: 'utf8' })).toMatch(/Pages:\s+1\n/);
    const layout = execFileSync('pdftotext', ['-layout', ops.at('agent.pdf'), '-'], { encoding: 'utf8' });
    expect(layout).toMatch(/recommended\)[^]*Example:\s+java -jar native-agent\.jar .*\n\s*\S.*\n[^]*Start the proxy[^]*Parameter.*Required/);
    const text = (await ops.ok('read', { input: 'agent.pdf' })).text ?? '';
    expect(text).toContain(`${markdownTable(AGENT_ROWS)}\n\nExample:`);
    expect(text).toContain(`# Start the proxy\n\nThe proxy relays between the agents and the management page.\n\n${markdownTable(PROXY_ROWS)}\n\n`);
    expect(text).toMatch(/```[^|]*java -jar native-agent\.jar[^|]*```/);
  });
});
