// OCR rows: an English, a Chinese and a mixed A4 page at 300 dpi read with the default
// chi_sim+eng through HTTP, against the tesseract CLI (one thread) on the same traineddata,
// unpacked into a temp dir. Character error rates of both are printed while preparing.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { characterErrorRate } from '../helpers/ocr-accuracy.js';
import { CHINESE_TEXT, ENGLISH_TEXT, MIXED_TEXT, renderPage } from '../helpers/ocr-images.js';
import { ROOT, tempDir } from '../helpers/service.js';
import { postOk, runCommand, type BenchCase, type BenchSuite } from './harness.js';

const LANGUAGE = 'chi_sim+eng';

const PAGES = [
  { name: 'A4 English page', font: 'latin', paragraphs: Array<string>(9).fill(ENGLISH_TEXT) },
  { name: 'A4 Chinese page', font: 'cjk', paragraphs: Array<string>(9).fill(CHINESE_TEXT + CHINESE_TEXT) },
  { name: 'A4 mixed page', font: 'cjk', paragraphs: Array<string>(6).fill(`${MIXED_TEXT} ${ENGLISH_TEXT} ${CHINESE_TEXT}`) },
] as const;

/** The same best_int data the service uses, unpacked where the CLI can read it. */
function nativeTessdata(): string {
  const dir = tempDir('docwasm-bench-tessdata-');
  process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  for (const code of ['eng', 'chi_sim']) {
    const packed = fs.readFileSync(path.join(ROOT, `node_modules/@tesseract.js-data/${code}/4.0.0_best_int/${code}.traineddata.gz`));
    fs.writeFileSync(path.join(dir, `${code}.traineddata`), gunzipSync(packed));
  }
  return dir;
}

const suite: BenchSuite = async ({ service, work }) => {
  const tessdata = nativeTessdata();
  const cases: BenchCase[] = [];
  for (const page of PAGES) {
    const image = path.join(work, `${page.name.replace(/\W+/g, '-')}.png`);
    fs.writeFileSync(image, await renderPage(page.paragraphs, page.font));
    const nativeArgs = ['OMP_THREAD_LIMIT=1', 'tesseract', image, '-', '--tessdata-dir', tessdata, '-l', LANGUAGE];
    const expected = page.paragraphs.join('\n');
    const ours = await service.post('/api/ocr', { input: image });
    const native = execFileSync('env', nativeArgs, { stdio: ['ignore', 'pipe', 'ignore'] }).toString();
    const cer = (text: string) => (characterErrorRate(expected, text) * 100).toFixed(2);
    process.stderr.write(`bench: ocr ${page.name}: CER ours ${cer(String(ours.body.text))} %, tesseract CLI ${cer(native)} %\n`);
    cases.push({
      group: 'ocr',
      name: `${page.name}, ${LANGUAGE}`,
      iterations: 3,
      ours: () => postOk(service, '/api/ocr', { input: image }),
      native: { tool: 'tesseract (1 thread)', run: () => runCommand('env', nativeArgs) },
    });
  }
  return cases;
};

export default suite;
