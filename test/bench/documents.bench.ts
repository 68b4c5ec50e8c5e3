// Document rows: the warm LibreOffice backend through HTTP against plain `soffice
// --convert-to` per file (what a script without docwasm would run): one small docx → pdf, a
// batch of 20, and 8 concurrent single requests against the same 8 files one by one.

import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { documentFixtures, SOFFICE } from '../helpers/documents.js';
import { postOk, runCommand, type BenchCase, type BenchSuite } from './harness.js';

const suite: BenchSuite = async ({ service, work }) => {
  const fx = await documentFixtures();
  const dir = path.join(work, 'documents');
  const inputs = Array.from({ length: 20 }, (_, i) => path.join(dir, 'in', `doc-${i}.docx`));
  fs.mkdirSync(path.join(dir, 'in'), { recursive: true });
  for (const input of inputs) fs.copyFileSync(fx.text[0] as string, input);
  const out = (name: string) => path.join(dir, 'out', name);
  // Plain soffice with a profile of its own, so it never forwards to one of our offices.
  const profile = pathToFileURL(path.join(dir, 'native-profile')).href;
  const nativeConvert = (files: readonly string[]) =>
    runCommand(SOFFICE, [`-env:UserInstallation=${profile}`, '--headless', '--convert-to', 'pdf', '--outdir', out('native'), ...files]);
  const nativeOneByOne = async (files: readonly string[]) => {
    for (const file of files) await nativeConvert([file]);
  };
  const single = inputs[0] as string;
  const eight = inputs.slice(0, 8);

  const cases: BenchCase[] = [
    {
      group: 'documents',
      name: 'small docx → pdf (warm office)',
      ours: () => postOk(service, '/api/convert', { input: single, output: out('single.pdf'), format: 'pdf' }),
      native: { tool: 'soffice --convert-to', run: () => nativeConvert([single]) },
      iterations: 5,
    },
    {
      group: 'documents',
      name: 'batch of 20 docx → pdf',
      ours: () => postOk(service, '/api/convert/batch', { files: inputs, format: 'pdf', outputDir: out('batch') }),
      native: { tool: 'soffice per file ×20', run: () => nativeOneByOne(inputs) },
      iterations: 2,
    },
    {
      group: 'documents',
      name: '8 concurrent single requests',
      ours: async () => {
        await Promise.all(eight.map((file, i) => postOk(service, '/api/convert', { input: file, output: out(`concurrent-${i}.pdf`), format: 'pdf' })));
      },
      native: { tool: 'soffice per file ×8, one by one', run: () => nativeOneByOne(eight) },
      iterations: 2,
    },
  ];
  return cases;
};

export default suite;
