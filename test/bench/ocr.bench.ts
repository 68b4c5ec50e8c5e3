// OCR rows: an English, a Chinese and a mixed A4 page at 300 dpi through HTTP, against the
// tesseract CLI as a user runs it: Debian's tesseract-ocr with the data its packages install
// (tesseract-ocr-eng, tesseract-ocr-chi-sim: tessdata_fast; docwasm's English is that very
// file, its Chinese best_int), one thread. Character error rates are printed while preparing.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { characterErrorRate } from '../helpers/ocr-accuracy.js';
import { CHINESE_TEXT, ENGLISH_TEXT, MIXED_TEXT, renderPage } from '../helpers/ocr-images.js';
import type { RunningService } from '../helpers/service.js';
import { postOk, runCommand, type BenchCase, type BenchSuite } from './harness.js';

interface Page {
  name: string;
  font: 'latin' | 'cjk';
  paragraphs: readonly string[];
}

const ENGLISH: Page = { name: 'A4 English page', font: 'latin', paragraphs: Array<string>(9).fill(ENGLISH_TEXT) };
const CHINESE: Page = { name: 'A4 Chinese page', font: 'cjk', paragraphs: Array<string>(9).fill(CHINESE_TEXT + CHINESE_TEXT) };
const MIXED: Page = { name: 'A4 mixed page', font: 'cjk', paragraphs: Array<string>(6).fill(`${MIXED_TEXT} ${ENGLISH_TEXT} ${CHINESE_TEXT}`) };

interface Row {
  page: Page;
  language: string;
}

async function benchRow(row: Row, service: RunningService, work: string): Promise<BenchCase> {
  const image = path.join(work, `${row.page.name.replace(/\W+/g, '-')}.png`);
  if (!fs.existsSync(image)) fs.writeFileSync(image, await renderPage(row.page.paragraphs, row.page.font));
  const body = { input: image, language: row.language };
  const nativeArgs = ['OMP_THREAD_LIMIT=1', 'tesseract', image, '-', '-l', row.language];
  const expected = row.page.paragraphs.join('\n');
  const ours = await service.post('/api/ocr', body);
  const native = execFileSync('env', nativeArgs, { stdio: ['ignore', 'pipe', 'ignore'] }).toString();
  const cer = (text: string) => (characterErrorRate(expected, text) * 100).toFixed(2);
  const name = `${row.page.name}, ${row.language}`;
  process.stderr.write(`bench: ocr ${name}: CER ours ${cer(String(ours.body.text))} %, tesseract CLI ${cer(native)} %\n`);
  return {
    group: 'ocr',
    name,
    iterations: 3,
    ours: () => postOk(service, '/api/ocr', body),
    native: { tool: "tesseract CLI, 1 thread, Debian's data", run: () => runCommand('env', nativeArgs) },
  };
}

const suite: BenchSuite = async (ctx) => {
  const rows: Row[] = [
    { page: ENGLISH, language: 'eng' },
    { page: ENGLISH, language: 'chi_sim+eng' },
    { page: CHINESE, language: 'chi_sim+eng' },
    { page: MIXED, language: 'chi_sim+eng' },
  ];
  const cases: BenchCase[] = [];
  for (const row of rows) cases.push(await benchRow(row, ctx.service, ctx.work));
  return cases;
};

export default suite;
