// OCR rows: an English, a Chinese and a mixed A4 page at 300 dpi through HTTP, against the
// tesseract CLI (one thread, LSTM). The default chi_sim+eng and plain eng read with the same
// best_int data the service uses (unpacked into a temp dir); the English page also against the
// CLI with Debian's own eng data (tessdata_fast), and with the service pointed at that data too
// (`--tessdata`, a second service). Character error rates are printed while preparing.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { characterErrorRate } from '../helpers/ocr-accuracy.js';
import { CHINESE_TEXT, ENGLISH_TEXT, MIXED_TEXT, renderPage } from '../helpers/ocr-images.js';
import { ROOT, startService, tempDir, type RunningService } from '../helpers/service.js';
import { postOk, runCommand, type BenchCase, type BenchContext, type BenchSuite } from './harness.js';

const DEBIAN_TESSDATA = '/usr/share/tesseract-ocr/5/tessdata';

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
  /** The service to read with, when not the shared one. */
  service?: RunningService;
  label?: string;
}

/** The same best_int data the service uses, unpacked where the CLI can read it. */
function packagedTessdata(): string {
  const dir = tempDir('docwasm-bench-tessdata-');
  process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  for (const code of ['eng', 'chi_sim']) {
    const packed = fs.readFileSync(path.join(ROOT, `node_modules/@tesseract.js-data/${code}/4.0.0_best_int/${code}.traineddata.gz`));
    fs.writeFileSync(path.join(dir, `${code}.traineddata`), gunzipSync(packed));
  }
  return dir;
}

/** A service reading with Debian's eng data, when it is installed. */
async function debianService({ onFinish }: BenchContext): Promise<RunningService | undefined> {
  if (!fs.existsSync(path.join(DEBIAN_TESSDATA, 'eng.traineddata'))) return undefined;
  const service = await startService(['--timeout', '600', '--tessdata', DEBIAN_TESSDATA]);
  onFinish(async () => {
    await service.stop();
    fs.rmSync(service.dir, { recursive: true, force: true });
  });
  return service;
}

async function benchRow(row: Row, shared: RunningService, work: string): Promise<BenchCase> {
  const service = row.service ?? shared;
  const image = path.join(work, `${row.page.name.replace(/\W+/g, '-')}.png`);
  if (!fs.existsSync(image)) fs.writeFileSync(image, await renderPage(row.page.paragraphs, row.page.font));
  // The second service has a base dir of its own: name the image absolutely.
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
    ...(row.service && { servicePid: row.service.child.pid as number }),
  };
}

const suite: BenchSuite = async (ctx) => {
  const packaged = { dir: packagedTessdata(), label: 'same best_int data' };
  const rows: Row[] = [
    { page: ENGLISH, language: 'eng', nativeData: packaged },
    { page: ENGLISH, language: 'chi_sim+eng', nativeData: packaged },
    { page: CHINESE, language: 'chi_sim+eng', nativeData: packaged },
    { page: MIXED, language: 'chi_sim+eng', nativeData: packaged },
  ];
  const debian = await debianService(ctx);
  if (debian) {
    const debianData = { dir: DEBIAN_TESSDATA, label: "Debian's eng" };
    rows.push(
      { page: ENGLISH, language: 'eng', nativeData: debianData, label: ' (ours: best_int)' },
      { page: ENGLISH, language: 'eng', nativeData: debianData, service: debian, label: " (ours: --tessdata Debian's)" },
    );
  }
  const cases: BenchCase[] = [];
  for (const row of rows) cases.push(await benchRow(row, ctx.service, ctx.work));
  return cases;
};

export default suite;
