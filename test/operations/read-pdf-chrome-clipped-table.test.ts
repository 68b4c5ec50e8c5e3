// Reading a table Chrome's print clips at the page's edge (issue 45): pandoc's stylesheet sets a
// table as a block that scrolls sideways, so a table wider than the page (a long unbroken name in
// a description) is cut at the page's right edge, and Chrome leaves the glyphs beyond it out of the
// PDF. Its last column's header, squeezed narrow, wraps over four lines there: the header row is
// four lines tall, and what is left of it — its other cells, on one line centred in the row —
// stands well off the rules above and under it, as a heading between two tables does. It is read as
// the table's header all the same; the clipped column is lost with its glyphs.

import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printMarkdownWithChrome } from './chrome-print.js';
import { inProcess, type InProcess } from './in-process.js';

let ops: InProcess;

const LONG = "The broker's host name, as in broker.example.internal.host_name_of_the_primary_server_in_the_first_data_centre_of_the_cluster";
const MARKDOWN = `# Writer settings

| name | default | description | 是否必须 |
|---|---|---|---|
| host | | ${LONG} | 是 |
| port | 9876 | The port the broker listens on. | 否 |
| timeout | 60000 | How long to wait for an answer, in milliseconds. | 否 |

Read at start.
`;

beforeAll(async () => {
  ops = await inProcess({ workers: '1' });
  // Liberation Serif by name (scripts/test-tools.txt): where the page's edge cuts the table is measured in it.
  printMarkdownWithChrome(ops, 'clipped', MARKDOWN);
}, 240_000);
afterAll(() => ops.close());

describe('read: a table Chrome’s print clips at the page’s edge', () => {
  it('reads the header left of the edge, centred in a row the clipped header made tall, as the table’s header', async () => {
    const text = execFileSync('pdftotext', ['-layout', ops.at('clipped.pdf'), '-'], { encoding: 'utf8' });
    // The last column and the long name's end are cut away; the header stands lines above the first row.
    expect(text).not.toMatch(/是|否|cluster/);
    expect(text).toMatch(/^\s*name\s+default\s+description\s*\n\s*\n\s*\n/m);
    const read = (await ops.ok('read', { input: 'clipped.pdf' })).text ?? '';
    expect(read).toMatch(
      /# Writer settings\n\n\| name \| default \| description \|\n\| - \| - \| - \|\n\| host \| \| The broker's host name, as in broker\.example\.internal\.host_name_of_the_primary_server_in_the_f\S* \|\n/,
    );
    expect(read).toContain(
      '| port | 9876 | The port the broker listens on. |\n| timeout | 60000 | How long to wait for an answer, in milliseconds. |\n\nRead at start.',
    );
  });
});
