// `tsx test/bench/paddle-profile.ts DIR [REPEATS]`: where a page's time goes, per stage, in
// CPU time of this process (process.cpuUsage: onnxruntime-web on 1 thread runs in this thread,
// tesseract.js in a nested thread of this process; nothing else runs here meanwhile), medians
// of REPEATS reads (default 3) after a warm-up read. Pages: test/helpers/ocr-page-set.ts's A4
// Ming 12 pt 300 dpi Chinese page and the 2556 × 954 Ming 12 pt block (`auto`, chi_sim+eng: the
// sample, then PP-OCR; PROFILE_RULE_SCALE=1 detects at the size rule's scale, as before issue 46) and Serif 11 pt
// English page (`eng`: tesseract.js alone; and `auto`, chi_sim+eng: the sample, then
// tesseract.js), as PNG files decoded as the OCR worker decodes them; and a 10-page 300 dpi
// English scan (that page as a grey JPEG per page, test/helpers/scanned-pdf.ts) rendered by
// mupdf as the PDF worker does, the grey pixels copied twice as structured clone copies them,
// and read by tesseract.js. Prints one line per stage (CPU ms) and per page the CER.

import fs from 'node:fs';
import path from 'node:path';
import * as mupdf from 'mupdf';
import type { InferenceSession } from 'onnxruntime-web';
import { characterErrorRate } from '../helpers/ocr-accuracy.js';
import { CHINESE_BLOCK, CHINESE_PAGES, ENGLISH_PAGES, expectedText, renderTestPage } from '../helpers/ocr-page-set.js';
import { makeScannedPdf } from '../helpers/scanned-pdf.js';
import { decodeImage } from '../../wasm/image/decode.js';
import { loadModels, type PaddleModels } from '../../wasm/ocr/paddle/models.js';
import { pageText, readingOrder } from '../../wasm/ocr/paddle/page-text.js';
import type { Raster } from '../../wasm/ocr/paddle/raster.js';
import { readPage, SYSTEM_DEFAULTS, type PageTimings } from '../../wasm/ocr/paddle/system.js';
import { latinShare } from '../../wasm/ocr/paddle-reader.js';
import { greyOf, greyToPnm, toPnm } from '../../wasm/ocr/pnm.js';
import { WarmWorkers } from '../../wasm/ocr/warm-workers.js';
import { renderGrey } from '../../wasm/pdf/render.js';
import { inflateTraineddata, withoutSubLanguages } from '../../src/ocr/traineddata.js';

const [dir, repeatArg = '3'] = process.argv.slice(2);
if (!dir) throw new Error('usage: paddle-profile.ts DIR [REPEATS]');
const repeats = Number(repeatArg);
fs.mkdirSync(dir, { recursive: true });

const cpuNow = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const deadline = { at: Date.now() + 3_600_000, limitMs: 3_600_000, engine: 'ocr' as const };

/** Model calls' CPU, counted per session (the rest of a stage is JavaScript around them). */
const modelMs = new Map<string, number>();
function counted(name: string, session: InferenceSession): InferenceSession {
  return new Proxy(session, {
    get(target, key) {
      if (key !== 'run') return Reflect.get(target, key, target) as unknown;
      return async (...args: Parameters<InferenceSession['run']>) => {
        const from = cpuNow();
        try {
          return await target.run(...args);
        } finally {
          modelMs.set(name, (modelMs.get(name) ?? 0) + cpuNow() - from);
        }
      };
    },
  });
}

async function langDir(): Promise<string> {
  const langs = path.join(dir as string, 'tessdata');
  fs.mkdirSync(langs, { recursive: true });
  for (const code of ['eng', 'chi_sim']) {
    const file = path.join(langs, `${code}.traineddata`);
    const source = path.join('node_modules/@tesseract.js-data', code, '4.0.0_best_int', `${code}.traineddata.gz`);
    if (fs.existsSync(file)) continue;
    // As the service stages it (src/ocr/language-store.ts): best_int chi_sim names a garbled sub-language.
    const data = await inflateTraineddata(fs.readFileSync(source));
    fs.writeFileSync(file, withoutSubLanguages(data) ?? data);
  }
  return langs;
}

async function pngPage(spec: (typeof CHINESE_PAGES)[number], name: string): Promise<Uint8Array> {
  const file = path.join(dir as string, `${name}.png`);
  if (!fs.existsSync(file)) fs.writeFileSync(file, await renderTestPage(spec));
  return fs.readFileSync(file);
}

const base = await loadModels({ threads: 1 });
const models: PaddleModels = {
  ...base,
  detection: counted('detection', base.detection),
  recognition: counted('recognition', base.recognition),
  latinRecognition: async () => counted('recognition', await base.latinRecognition()),
  classification: counted('classification', base.classification),
};
const workers = new WarmWorkers();
const langs = await langDir();

type Stages = Record<string, number>;
const rows = new Map<string, Stages[]>();
function record(page: string, stages: Stages): void {
  rows.set(page, [...(rows.get(page) ?? []), stages]);
}

async function paddleStages(image: Raster, auto: boolean): Promise<{ stages: Stages; text: string; abandoned: boolean }> {
  modelMs.clear();
  // The sample's own model calls are in its stage: the counts restart once it is read.
  const abandonAfterSample = (sample: readonly { text: string }[]) => {
    modelMs.clear();
    return latinShare(sample.map((l) => l.text).join('')) >= 0.9;
  };
  const { lines, timings, abandoned } = await readPage(models, image, {
    ...SYSTEM_DEFAULTS,
    clock: cpuNow,
    sampleRereadsLatin: process.env.PROFILE_SAMPLE_REREAD === '1',
    ...(auto && { abandonAfterSample }),
    scaleFromText: process.env.PROFILE_RULE_SCALE !== '1',
  });
  const t: PageTimings = timings;
  const layoutFrom = cpuNow();
  const text = abandoned ? '' : pageText(readingOrder(lines));
  const stages = {
    'auto sample (third-scale detection + line heights + 1 batch)': t.sampleMs,
    'detection: model': 0,
    'detection: resize/normalise + boxes': 0,
    'line crops': t.cropMs,
    'recognition: model': 0,
    'recognition: batching, CTC': 0,
    'direction classifier (+ re-reads)': t.classifyMs,
    'post-processing (spaces, stops, cells, reading order)': t.postMs + cpuNow() - layoutFrom,
  };
  if (!abandoned) {
    const detectionModel = modelMs.get('detection') ?? 0;
    stages['detection: model'] = detectionModel;
    stages['detection: resize/normalise + boxes'] = t.detectMs - detectionModel;
    // Includes the re-reads of lines the classifier turned (none on these pages).
    const recognitionModel = modelMs.get('recognition') ?? 0;
    stages['recognition: model'] = recognitionModel;
    stages['recognition: batching, CTC'] = t.recognizeMs - recognitionModel;
  }
  return { stages, text, abandoned };
}

async function tesseractStage(pnm: Uint8Array, pixels: number, codes: string[]): Promise<{ ms: number; text: string }> {
  const from = cpuNow();
  const { text } = await workers.recognize(codes, langs, pnm, pixels, deadline);
  return { ms: cpuNow() - from, text };
}

const chinese = CHINESE_PAGES[0] as (typeof CHINESE_PAGES)[number];
const english = ENGLISH_PAGES[0] as (typeof ENGLISH_PAGES)[number];
const zhPng = await pngPage(chinese, 'zh-ming-12');
const enPng = await pngPage(english, 'en-serif-11');
const blockPng = await pngPage(CHINESE_BLOCK, 'zh-ming-12-block');
const scan = path.join(dir, 'scan-10.pdf');
if (!fs.existsSync(scan)) fs.writeFileSync(scan, await makeScannedPdf(Array.from({ length: 10 }, () => ({ image: Buffer.from(enPng), dpi: 300 }))));

async function decoded(png: Uint8Array): Promise<{ image: Raster; pnm: () => Uint8Array; ms: number }> {
  const from = cpuNow();
  const rgba = await decodeImage(png, { maxPixels: 100_000_000 });
  // As the OCR worker does (wasm/ocr/worker.ts): a grey image goes on at one byte per pixel.
  const grey = process.env.PROFILE_RGBA === '1' ? undefined : greyOf(rgba);
  const ms = cpuNow() - from;
  if (grey) return { image: { width: grey.width, height: grey.height, channels: 1, data: grey.pixels }, pnm: () => greyToPnm(grey), ms };
  return { image: { width: rgba.width, height: rgba.height, channels: 4, data: rgba.data }, pnm: () => toPnm(rgba), ms };
}

async function chinesePage(png = zhPng, name = 'zh Ming 12pt 300dpi'): Promise<string> {
  const { image, ms } = await decoded(png);
  const { stages, text } = await paddleStages(image, true);
  record(`${name}, auto chi_sim+eng`, { 'decode PNG': ms, ...stages });
  return text;
}

async function englishPage(auto: boolean): Promise<string> {
  const { image, pnm, ms } = await decoded(enPng);
  const stages: Stages = { 'decode PNG': ms };
  if (auto)
    Object.assign(stages, {
      'auto sample (third-scale detection + line heights + 1 batch)':
        (await paddleStages(image, true)).stages['auto sample (third-scale detection + line heights + 1 batch)'] ?? 0,
    });
  const pnmFrom = cpuNow();
  const bytes = pnm();
  stages['PNM for tesseract'] = cpuNow() - pnmFrom;
  const { ms: tessMs, text } = await tesseractStage(bytes, image.width * image.height, auto ? ['chi_sim', 'eng'] : ['eng']);
  stages['tesseract.js recognise'] = tessMs;
  record(`en Serif 11pt 300dpi, ${auto ? 'auto chi_sim+eng' : 'eng'}`, stages);
  return text;
}

async function scanPages(): Promise<string> {
  const doc = mupdf.Document.openDocument(fs.readFileSync(scan), 'application/pdf').asPDF() as mupdf.PDFDocument;
  const stages: Stages = { 'render page (mupdf, grey)': 0, 'two structured-clone copies': 0, 'PNM for tesseract': 0, 'tesseract.js recognise': 0 };
  let text = '';
  try {
    for (let page = 1; page <= doc.countPages(); page++) {
      let from = cpuNow();
      const grey = renderGrey(doc, page, 300);
      stages['render page (mupdf, grey)'] = (stages['render page (mupdf, grey)'] ?? 0) + cpuNow() - from;
      from = cpuNow();
      const copied = structuredClone(structuredClone(grey));
      stages['two structured-clone copies'] = (stages['two structured-clone copies'] ?? 0) + cpuNow() - from;
      from = cpuNow();
      const pnm = greyToPnm(copied);
      stages['PNM for tesseract'] = (stages['PNM for tesseract'] ?? 0) + cpuNow() - from;
      const read = await tesseractStage(pnm, grey.width * grey.height, ['eng']);
      stages['tesseract.js recognise'] = (stages['tesseract.js recognise'] ?? 0) + read.ms;
      if (page === 1) text = read.text;
    }
  } finally {
    doc.destroy();
  }
  record('10-page English scan → text, eng (all pages, one thread)', stages);
  return text;
}

// Warm-up: models, tesseract workers, the decoders.
await chinesePage();
await chinesePage(blockPng, CHINESE_BLOCK.name);
await englishPage(false);
await englishPage(true);
rows.clear();
const cer: Record<string, number> = {};
for (let round = 0; round < repeats; round++) {
  process.stderr.write(`round ${round + 1}, load ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}\n`);
  cer['zh Ming 12pt 300dpi'] = characterErrorRate(expectedText(chinese), await chinesePage());
  cer[CHINESE_BLOCK.name] = characterErrorRate(expectedText(CHINESE_BLOCK), await chinesePage(blockPng, CHINESE_BLOCK.name));
  cer['en Serif 11pt 300dpi, eng'] = characterErrorRate(expectedText(english), await englishPage(false));
  cer['en Serif 11pt 300dpi, auto'] = characterErrorRate(expectedText(english), await englishPage(true));
  if (round === 0) cer['scan page 1'] = characterErrorRate(expectedText(english), await scanPages());
}
await workers.closeAll();
for (const [page, runs] of rows) {
  const names = Object.keys(runs[0] as Stages);
  const medians = names.map((name) => [name, median(runs.map((run) => run[name] ?? 0))] as const);
  const total = medians.reduce((sum, [, ms]) => sum + ms, 0);
  process.stdout.write(`\n${page}: total ${Math.round(total)} ms CPU (median of ${runs.length})\n`);
  for (const [name, ms] of medians) if (ms > 0) process.stdout.write(`| ${name} | ${Math.round((100 * ms) / total)} % | ${Math.round(ms)} |\n`);
}
process.stdout.write(
  `\nCER: ${Object.entries(cer)
    .map(([page, rate]) => `${page} ${(rate * 100).toFixed(2)} %`)
    .join('; ')}\n`,
);
