// LibreOffice in WebAssembly (a service of its own, --document-backend wasm) against an installed
// `soffice --convert-to` on the same files, interleaved by the harness (issue 30's rows): cold start
// to ready, a warm docx → pdf, a batch of 20, a ~270-page docx, xlsx → pdf, pptx → pdf; the peak
// RSS column is the WebAssembly service's process tree (service and office). `npm run bench --
// wasm-documents` runs these rows alone.

import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { documentFixtures, SOFFICE } from '../helpers/documents.js';
import { startService, stopAndRemove, type RunningService } from '../helpers/service.js';
import { waitForOfficeReady } from '../helpers/wasm-office.js';
import { postOk, runCommand, type BenchCase, type BenchSuite } from './harness.js';

/** Issue 30's targets on 2 cores. */
const READY_TARGET_MS = 20_000;
const WARM_DOCX_TARGET_MS = 1_000;

async function startWasmService(): Promise<RunningService> {
  const service = await startService(['--document-backend', 'wasm', '--timeout', '600']);
  await waitForOfficeReady(service);
  return service;
}

const suite: BenchSuite = async ({ work, onFinish }) => {
  const fx = await documentFixtures();
  const dir = path.join(work, 'wasm-documents');
  fs.mkdirSync(path.join(dir, 'in'), { recursive: true });
  const copy = (from: string, name: string) => {
    const to = path.join(dir, 'in', name);
    fs.copyFileSync(from, to);
    return to;
  };
  const docx = copy(fx.text[0] as string, 'letter.docx');
  const big = copy(fx.big, 'big.docx');
  const xlsx = copy(fx.spreadsheet[0] as string, 'sheet.xlsx');
  const pptx = copy(fx.presentation[0] as string, 'slides.pptx');
  const batch = Array.from({ length: 20 }, (_, i) => copy(fx.text[0] as string, `doc-${i}.docx`));
  const out = (name: string) => path.join(dir, 'out', name);

  const wasm = await startWasmService();
  onFinish(() => stopAndRemove(wasm));
  // Plain soffice with a profile of its own (warm on disk after its first run), as a script would run it.
  const profile = pathToFileURL(path.join(dir, 'native-profile')).href;
  const soffice = (files: readonly string[], profileUrl = profile) =>
    runCommand(SOFFICE, [`-env:UserInstallation=${profileUrl}`, '--headless', '--convert-to', 'pdf', '--outdir', out('native'), ...files]);
  let coldProfiles = 0;
  const convert = (input: string, name: string) => () => postOk(wasm, '/api/convert', { input, output: out(name), format: 'pdf' });
  const pid = wasm.child.pid as number;

  const cases: BenchCase[] = [
    {
      group: 'wasm-documents',
      name: 'cold start to ready (WebAssembly office) vs soffice on a fresh profile, one docx',
      ours: async () => stopAndRemove(await startWasmService()),
      native: { tool: 'soffice --convert-to, new profile', run: () => soffice([docx], pathToFileURL(path.join(dir, `cold-profile-${++coldProfiles}`)).href) },
      iterations: 1,
      targetMs: READY_TARGET_MS,
    },
    {
      group: 'wasm-documents',
      name: 'warm docx → pdf',
      ours: convert(docx, 'warm.pdf'),
      native: { tool: 'soffice --convert-to', run: () => soffice([docx]) },
      iterations: 5,
      targetMs: WARM_DOCX_TARGET_MS,
      servicePid: pid,
    },
    {
      group: 'wasm-documents',
      name: 'batch of 20 docx → pdf',
      ours: () => postOk(wasm, '/api/convert/batch', { files: batch, format: 'pdf', outputDir: out('batch') }),
      native: {
        tool: 'soffice per file ×20',
        run: async () => {
          for (const file of batch) await soffice([file]);
        },
      },
      iterations: 2,
      servicePid: pid,
    },
    {
      group: 'wasm-documents',
      name: '~270-page docx → pdf',
      ours: convert(big, 'big.pdf'),
      native: { tool: 'soffice --convert-to', run: () => soffice([big]) },
      iterations: 2,
      servicePid: pid,
    },
    {
      group: 'wasm-documents',
      name: 'xlsx → pdf',
      ours: convert(xlsx, 'sheet.pdf'),
      native: { tool: 'soffice --convert-to', run: () => soffice([xlsx]) },
      iterations: 3,
      servicePid: pid,
    },
    {
      group: 'wasm-documents',
      name: 'pptx → pdf',
      ours: convert(pptx, 'slides.pdf'),
      native: { tool: 'soffice --convert-to', run: () => soffice([pptx]) },
      iterations: 3,
      servicePid: pid,
    },
  ];
  return cases;
};

export default suite;
