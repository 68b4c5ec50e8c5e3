// Reading PDFs from other producers than LibreOffice (issue 45): console output in a code block
// that groff (pandoc's ms) indents, its columns lined up.

import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcess, type InProcess } from './in-process.js';

let ops: InProcess;

/** A page with console output whose columns line up, as a manual shows it. */
const CONSOLE_MD = `# memory

Shows the memory of the JVM.

## Usage

\`\`\`bash
$ memory
Memory                    used      total      max        usage
heap                      32M       256M       4096M      0.79%
g1_eden_space             11M       68M        -1         16.18%
g1_old_gen                17M       184M       4096M      0.43%
nonheap                   35M       39M        -1         89.55%
\`\`\`

The heap is the memory the objects take.
`;

beforeAll(async () => {
  ops = await inProcess({ workers: '1' });
  ops.put('console.md', CONSOLE_MD);
  const ms = execFileSync('pandoc', ['console.md', '-f', 'gfm', '-s', '-t', 'ms'], { cwd: ops.dir });
  ops.put('console.pdf', execFileSync('groff', ['-ms', '-t', '-k', '-Tpdf'], { input: ms }));
}, 60_000);
afterAll(() => ops.close());

describe('read: code from groff (pandoc → ms → groff)', () => {
  it('reads console output whose columns line up as a code block, not as a table', async () => {
    const text = (await ops.ok('read', { input: 'console.pdf' })).text ?? '';
    expect(text).not.toContain('|');
    const code = /```\n([\s\S]*?)\n```/.exec(text)?.[1] ?? '';
    expect(code.split('\n').map((l) => l.split(/\s+/)[0])).toEqual(['$', 'Memory', 'heap', 'g1_eden_space', 'g1_old_gen', 'nonheap']);
    expect(text).toMatch(/^The heap is the memory the objects take\.$/m);
  });
});
