// `tsx test/bench/auto-sample.ts DIR DIVISOR…` (e.g. `2 3`): what `auto`'s sample (sample.ts)
// sees at each detection scale divisor, on every page of the page set
// (test/helpers/ocr-page-set.ts) and the three pages of the OCR bench (ocr.bench.ts), rendered
// into DIR when missing: per page and divisor, the sample detection's CPU time, the boxes it
// finds, the sample's recognition CPU and the Latin share `auto` decides by (paddle-reader.ts:
// ≥ 0.9 goes to tesseract). onnxruntime-web on one thread, in this process; CPU times are of
// one read after a warm-up read of the same page.

import fs from 'node:fs';
import path from 'node:path';
import { CHINESE_PAGES, ENGLISH_PAGES, greyRaster, MIXED_PAGES, renderTestPage } from '../helpers/ocr-page-set.js';
import { CHINESE_TEXT, ENGLISH_TEXT, MIXED_TEXT, renderPage } from '../helpers/ocr-images.js';
import { cropLine, isVertical } from '../../wasm/ocr/paddle/crop.js';
import { detectText } from '../../wasm/ocr/paddle/detection.js';
import { loadModels, type PaddleModels } from '../../wasm/ocr/paddle/models.js';
import type { Raster } from '../../wasm/ocr/paddle/raster.js';
import { recognizeLines } from '../../wasm/ocr/paddle/recognition.js';
import { sampleDetection, sampleLines } from '../../wasm/ocr/paddle/sample.js';
import { SYSTEM_DEFAULTS } from '../../wasm/ocr/paddle/system.js';
import { latinShare } from '../../wasm/ocr/paddle-reader.js';

const [dir, ...divisorArgs] = process.argv.slice(2);
if (!dir || divisorArgs.length === 0) throw new Error('usage: auto-sample.ts DIR DIVISOR…');
fs.mkdirSync(dir, { recursive: true });

const PAGES: readonly (readonly [string, () => Promise<Buffer>])[] = [
  ...[...CHINESE_PAGES, ...ENGLISH_PAGES, ...MIXED_PAGES].map((spec) => [spec.name, () => renderTestPage(spec)] as const),
  ['ocr bench A4 Chinese page', () => renderPage(Array<string>(9).fill(CHINESE_TEXT + CHINESE_TEXT), 'cjk')],
  ['ocr bench A4 English page', () => renderPage(Array<string>(9).fill(ENGLISH_TEXT), 'latin')],
  ['ocr bench A4 mixed page', () => renderPage(Array<string>(6).fill(`${MIXED_TEXT} ${ENGLISH_TEXT} ${CHINESE_TEXT}`), 'cjk')],
];

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

async function raster(name: string, render: () => Promise<Buffer>): Promise<Raster> {
  const file = path.join(dir as string, `${name.replace(/\W+/g, '-')}.png`);
  if (!fs.existsSync(file)) fs.writeFileSync(file, await render());
  return greyRaster(file);
}

/** The sample as readPage (system.ts) takes it — the same calls in turn, timed apart — at `divisor` times less than the page's detection scale. */
async function sample(models: PaddleModels, image: Raster, divisor: number): Promise<string> {
  let started = cpuMs();
  const rough = await detectText(models.detection, image, sampleDetection(SYSTEM_DEFAULTS.detection, divisor));
  const detectMs = cpuMs() - started;
  started = cpuMs();
  const lines = sampleLines(rough.map(({ quad }) => ({ quad, vertical: isVertical(quad), flipped: false }))).map((placement) => cropLine(image, placement));
  const read = await recognizeLines(models.recognition, models.characters, lines, {
    batchSize: SYSTEM_DEFAULTS.batchSize,
    latinSession: models.latinRecognition,
    rereadLatin: false,
  });
  const share = latinShare(read.map((line) => line.text).join(''));
  return `1/${divisor}: detection ${detectMs.toFixed(0)} ms, ${rough.length} boxes, recognition ${(cpuMs() - started).toFixed(0)} ms, Latin share ${share.toFixed(2)}`;
}

const models = await loadModels();
const divisors = divisorArgs.map(Number);
for (const [name, render] of PAGES) {
  const image = await raster(name, render);
  const cells: string[] = [];
  for (const divisor of divisors) {
    await sample(models, image, divisor);
    cells.push(await sample(models, image, divisor));
  }
  process.stdout.write(`${name}: ${cells.join(' | ')}\n`);
}
