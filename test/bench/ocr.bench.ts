// OCR rows: an English, a Chinese and a mixed A4 page at 300 dpi through HTTP, against the
// tesseract CLI as a user runs it: Debian's tesseract-ocr with the data its packages install
// (tesseract-ocr-eng, tesseract-ocr-chi-sim: tessdata_fast; docwasm's English is that very
// file, its Chinese best_int), one thread. Issue 46's rows beside them: a screenshot-sized
// Chinese block (2556 × 954, Ming 12 pt), a dense A4 Chinese page (Ming 10.5 pt, ~2,500
// characters), and one-shot `docwasm ocr` of each (its own process's peak resident memory,
// GNU time's maximum, in the peak column). Character error rates are printed while preparing.
// The table goes into docs/ocr-engines.md (run.ts).

import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { characterErrorRate } from '../helpers/ocr-accuracy.js';
import { CHINESE_TEXT, ENGLISH_TEXT, MIXED_TEXT, renderPage } from '../helpers/ocr-images.js';
import { CHINESE_BLOCK, CHINESE_DENSE, expectedText, renderTestPage, type PageSpec } from '../helpers/ocr-page-set.js';
import { CLI, type RunningService } from '../helpers/service.js';
import { postOk, runCommand, type BenchCase, type BenchSuite } from './harness.js';

interface Page {
  name: string;
  render: () => Promise<Buffer>;
  expected: string;
}

function fromParagraphs(name: string, font: 'latin' | 'cjk', paragraphs: readonly string[]): Page {
  return { name, render: () => renderPage(paragraphs, font), expected: paragraphs.join('\n') };
}

function fromSpec(name: string, spec: PageSpec): Page {
  return { name, render: () => renderTestPage(spec), expected: expectedText(spec) };
}

const ENGLISH = fromParagraphs('A4 English page', 'latin', Array<string>(9).fill(ENGLISH_TEXT));
const CHINESE = fromParagraphs('A4 Chinese page', 'cjk', Array<string>(9).fill(CHINESE_TEXT + CHINESE_TEXT));
const MIXED = fromParagraphs('A4 mixed page', 'cjk', Array<string>(6).fill(`${MIXED_TEXT} ${ENGLISH_TEXT} ${CHINESE_TEXT}`));
const BLOCK = fromSpec('Chinese block 2556×954 (Ming 12 pt)', CHINESE_BLOCK);
const DENSE = fromSpec('dense A4 Chinese page (Ming 10.5 pt)', CHINESE_DENSE);

interface Row {
  page: Page;
  language: string;
  /** One-shot `docwasm ocr` in a process of its own instead of a request to the service. */
  oneShot?: boolean;
}

async function imageOf(page: Page, work: string): Promise<string> {
  const image = path.join(work, `${page.name.replace(/\W+/g, '-')}.png`);
  if (!fs.existsSync(image)) fs.writeFileSync(image, await page.render());
  return image;
}

async function benchRow(row: Row, service: RunningService, work: string): Promise<BenchCase> {
  const image = await imageOf(row.page, work);
  const body = { input: image, language: row.language };
  const nativeArgs = ['OMP_THREAD_LIMIT=1', 'tesseract', image, '-', '-l', row.language];
  const ours = await service.post('/api/ocr', body);
  const native = execFileSync('env', nativeArgs, { stdio: ['ignore', 'pipe', 'ignore'] }).toString();
  const cer = (text: string) => (characterErrorRate(row.page.expected, text) * 100).toFixed(2);
  const name = `${row.oneShot ? 'one-shot `docwasm ocr`, ' : ''}${row.page.name}, ${row.language}`;
  process.stderr.write(`bench: ocr ${name}: CER ours ${cer(String(ours.body.text))} %, tesseract CLI ${cer(native)} %\n`);
  const oneShot = row.oneShot ? oneShotRun(image, row.language, work) : undefined;
  return {
    group: 'ocr',
    name,
    iterations: row.oneShot || row.page === DENSE ? 2 : 3,
    ours: oneShot?.run ?? (() => postOk(service, '/api/ocr', body)),
    ...(oneShot && { ownPeakKb: oneShot.peakKb, warmups: 0 }),
    native: { tool: "tesseract CLI, 1 thread, Debian's data", run: () => runCommand('env', nativeArgs) },
  };
}

/** `docwasm ocr IMAGE` under GNU time, which says the process's maximum resident set; the highest over the runs. */
function oneShotRun(image: string, language: string, work: string): { run: () => Promise<void>; peakKb: () => number } {
  const report = path.join(work, 'one-shot-time.txt');
  let peakKb = 0;
  return {
    run: async () => {
      // Not runCommand: it would count this process in the native tool's peak.
      await promisify(execFile)('/usr/bin/time', ['-f', '%M', '-o', report, process.execPath, CLI, 'ocr', image, '--language', language]);
      peakKb = Math.max(peakKb, Number(fs.readFileSync(report, 'utf8').trim().split('\n').at(-1)));
    },
    peakKb: () => peakKb,
  };
}

const suite: BenchSuite = async (ctx) => {
  const rows: Row[] = [
    { page: ENGLISH, language: 'eng' },
    { page: ENGLISH, language: 'chi_sim+eng' },
    { page: CHINESE, language: 'chi_sim+eng' },
    { page: MIXED, language: 'chi_sim+eng' },
    { page: BLOCK, language: 'chi_sim+eng' },
    { page: DENSE, language: 'chi_sim+eng' },
    { page: BLOCK, language: 'chi_sim+eng', oneShot: true },
    { page: DENSE, language: 'chi_sim+eng', oneShot: true },
  ];
  const cases: BenchCase[] = [];
  for (const row of rows) cases.push(await benchRow(row, ctx.service, ctx.work));
  return cases;
};

export default suite;
