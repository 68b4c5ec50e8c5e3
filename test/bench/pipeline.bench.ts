// Pipeline row: a 3-step chain (pdf/compress → pdf/watermark → pdf/rotate) on a 30-page PDF as
// one /api/pipeline request, against the same three operations sent one after another by a
// client (the glue a pipeline replaces). The contract's target: at most 5 % more.

import fs from 'node:fs';
import path from 'node:path';
import { makePdf } from '../helpers/make-pdf.js';
import { postOk, type BenchSuite } from './harness.js';

const suite: BenchSuite = async ({ service, work }) => {
  const input = path.join(work, 'chain-in.pdf');
  fs.writeFileSync(input, makePdf({ pages: Array.from({ length: 30 }, (_, i) => `Chain page ${i + 1}`) }));
  const out = (name: string) => path.join(work, name);
  return [
    {
      group: 'pipeline',
      name: '3-step chain, 30-page PDF (vs 3 client calls)',
      iterations: 15,
      ours: () =>
        postOk(service, '/api/pipeline', {
          input,
          steps: [{ operation: 'pdf/compress' }, { operation: 'pdf/watermark', text: 'DRAFT' }, { operation: 'pdf/rotate', degrees: 90 }],
          output: out('chain-ours.pdf'),
        }),
      native: {
        tool: '3 API calls',
        run: async () => {
          await postOk(service, '/api/pdf/compress', { input, output: out('chain-1.pdf') });
          await postOk(service, '/api/pdf/watermark', { input: out('chain-1.pdf'), output: out('chain-2.pdf'), text: 'DRAFT' });
          await postOk(service, '/api/pdf/rotate', { input: out('chain-2.pdf'), output: out('chain-client.pdf'), degrees: 90 });
        },
      },
    },
  ];
};

export default suite;
