// OCR rows: an English, a Chinese and a mixed A4 page at 300 dpi through HTTP, against the
// tesseract CLI (one thread, LSTM). The default chi_sim+eng and plain eng read with the same
// data the service uses (its tessdata_fast eng — the very file Debian installs as
// tesseract-ocr-eng — and best_int chi_sim; unpacked into a temp dir). Character error rates are
// printed while preparing.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { characterErrorRate } from '../helpers/ocr-accuracy.js';
import { CHINESE_TEXT, ENGLISH_TEXT, MIXED_TEXT, renderPage } from '../helpers/ocr-images.js';
import { ROOT, tempDir, type RunningService } from '../helpers/service.js';
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
  /** Where the CLI's data comes from, and how the row names it. */
  nativeData: { dir: string; label: string };
  label?: string;
}

/** The same data the service uses (src/ocr/languages.ts), unpacked where the CLI can read it. */
function packagedTessdata(): string {
  const dir = tempDir('docwasm-bench-tessdata-');
  process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  const sources = { eng: 'tessdata/eng.traineddata.gz', chi_sim: 'node_modules/@tesseract.js-data/chi_sim/4.0.0_best_int/chi_sim.traineddata.gz' };
  for (const [code, source] of Object.entries(sources)) fs.writeFileSync(path.join(dir, `${code}.traineddata`), gunzipSync(fs.readFileSync(path.join(ROOT, source))));
  return dir;
}

async function benchRow(row: Row, service: RunningService, work: string): Promise<BenchCase> {
  const image = path.join(work, `${row.page.name.replace(/\W+/g, '-')}.png`);
  if (!fs.existsSync(image)) fs.writeFileSync(image, await renderPage(row.page.paragraphs, row.page.font));
  const body = { input: image, language: row.language };
  const nativeArgs = ['OMP_THREAD_LIMIT=1', 'tesseract', image, '-', '--oem', '1', '--tessdata-dir', row.nativeData.dir, '-l', row.language];
  const expected = row.page.paragraphs.join('\n');
  const ours = await service.post('/api/ocr', body);
  const native = execFileSync('env', nativeArgs, { stdio: ['ignore', 'pipe', 'ignore'] }).toString();
  const cer = (text: string) => (characterErrorRate(expected, text) * 100).toFixed(2);
  const name = `${row.page.name}, ${row.language}${row.label ?? ''}`;
  process.stderr.write(`bench: ocr ${name}: CER ours ${cer(String(ours.body.text))} %, tesseract CLI ${cer(native)} %\n`);
  return {
    group: 'ocr',
    name,
    iterations: 3,
    ours: () => postOk(service, '/api/ocr', body),
    native: { tool: `tesseract (1 thread, ${row.nativeData.label})`, run: () => runCommand('env', nativeArgs) },
  };
}

const suite: BenchSuite = async (ctx) => {
  const packaged = { dir: packagedTessdata(), label: 'same data' };
  const rows: Row[] = [
    { page: ENGLISH, language: 'eng', nativeData: packaged },
    { page: ENGLISH, language: 'chi_sim+eng', nativeData: packaged },
    { page: CHINESE, language: 'chi_sim+eng', nativeData: packaged },
    { page: MIXED, language: 'chi_sim+eng', nativeData: packaged },
  ];
  const cases: BenchCase[] = [];
  for (const row of rows) cases.push(await benchRow(row, ctx.service, ctx.work));
  return cases;
};

export default suite;
