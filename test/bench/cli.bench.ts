// CLI row: a one-shot `docwasm pdf merge` of two small PDFs — node's start, one mupdf worker
// (the pool starts one and grows on demand, see src/jobs/engine-pool.ts), the merge and the
// shutdown — against qpdf's CLI doing the same merge. Issue 19's target: ≤ 0.5 s on a quiet machine.

import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { makePdf } from '../helpers/make-pdf.js';
import { CLI } from '../helpers/service.js';
import { runCommand, type BenchSuite } from './harness.js';

const run = promisify(execFile);

const suite: BenchSuite = async ({ work }) => {
  const a = path.join(work, 'cli-a.pdf');
  const b = path.join(work, 'cli-b.pdf');
  fs.writeFileSync(a, makePdf({ pages: ['A one', 'A two'] }));
  fs.writeFileSync(b, makePdf({ pages: ['B one'] }));
  return [
    {
      group: 'cli',
      name: 'one-shot `docwasm pdf merge` of 2 small PDFs (process start to exit)',
      ours: async () => void (await run(process.execPath, [CLI, 'pdf', 'merge', a, b, '-o', path.join(work, 'cli-merged.pdf')])),
      native: { tool: 'qpdf', run: () => runCommand('qpdf', ['--empty', '--pages', a, b, '--', path.join(work, 'cli-merged-qpdf.pdf')]) },
      iterations: 9,
      targetMs: 500,
    },
  ];
};

export default suite;
