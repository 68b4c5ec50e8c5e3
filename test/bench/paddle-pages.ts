// `tsx test/bench/paddle-pages.ts DIR THREADS SQUEEZE[,SQUEEZE…] [PAGE…]`: reads the whole page
// set (test/helpers/ocr-page-set.ts, rendered into DIR when missing) with PP-OCR in this process,
// onnxruntime-web on THREADS WebAssembly threads, at each line squeeze factor in turn, then the
// tesseract CLI (one thread, Debian's chi_sim+eng) on the same page, and prints per page the CER
// (as paddle.bench.ts counts it), process CPU and wall time, and the stage times (the text read
// goes to DIR/read-SQUEEZE-PAGE.txt). The first page is read once before measuring (warm-up).
// PAGE selects pages by index. PADDLE_REC_MODEL=MODEL[,MODEL…] reads each page with each of these
// recognition models in turn (interleaved like the squeezes): `int8`, the one derived at load
// (the default), or a file run as it is (the shipped float model, or a variant written by
// quantize-rec.ts). PADDLE_DET_MODEL=MODEL[,MODEL…] likewise for the detection model
// (`shipped`, the default, or a file: an int8 variant written by quantize-det.ts), and
// PADDLE_BAND_PIXELS=N[,N…] for the detection's band size (DetectionOptions.maxBandPixels).
// PADDLE_CLI=0 leaves the tesseract CLI out.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { characterErrorRate } from '../helpers/ocr-accuracy.js';
import { CHINESE_PAGES, ENGLISH_PAGES, expectedText, greyRaster, renderTestPage } from '../helpers/ocr-page-set.js';
import { loadModels } from '../../wasm/ocr/paddle/models.js';
import { pageText, readingOrder } from '../../wasm/ocr/paddle/page-text.js';
import { DETECTION_DEFAULTS } from '../../wasm/ocr/paddle/detection.js';
import type { Raster } from '../../wasm/ocr/paddle/raster.js';
import { readPage, SYSTEM_DEFAULTS } from '../../wasm/ocr/paddle/system.js';
import { DEBIAN_TESSDATA } from '../helpers/tools.js';

const [dir, threadArg, squeezeArg, ...pageArgs] = process.argv.slice(2);
if (!dir || !threadArg || !squeezeArg) throw new Error('usage: paddle-pages.ts DIR THREADS SQUEEZE[,SQUEEZE…] [PAGE…]');
const specs = [...CHINESE_PAGES, ...ENGLISH_PAGES];
const chosen = pageArgs.length > 0 ? pageArgs.map(Number) : specs.map((_, i) => i);
const squeezes = squeezeArg.split(',').map(Number);
const bandSizes = (process.env.PADDLE_BAND_PIXELS ?? String(DETECTION_DEFAULTS.maxBandPixels)).split(',').map(Number);
fs.mkdirSync(dir, { recursive: true });

function pageFile(i: number): string {
  return path.join(dir as string, `page${i}.png`);
}

async function raster(i: number): Promise<Raster> {
  if (!fs.existsSync(pageFile(i))) fs.writeFileSync(pageFile(i), await renderTestPage(specs[i] as (typeof specs)[number]));
  return greyRaster(pageFile(i));
}

/** The CLI's wall time and the user + system CPU time GNU time reports for it. */
function cliRow(i: number, expected: string): string {
  const out = path.join(dir as string, 'cli-time.txt');
  const started = performance.now();
  const args = [
    '-f',
    '%U %S',
    '-o',
    out,
    'env',
    'OMP_THREAD_LIMIT=1',
    'tesseract',
    pageFile(i),
    '-',
    '--oem',
    '1',
    '--tessdata-dir',
    DEBIAN_TESSDATA,
    '-l',
    'chi_sim+eng',
  ];
  const text = execFileSync('/usr/bin/time', args, { stdio: ['ignore', 'pipe', 'ignore'] }).toString();
  const wall = Math.round(performance.now() - started);
  const [user = 0, system = 0] = fs.readFileSync(out, 'utf8').trim().split(/\s+/).map(Number);
  return `CLI | CER ${(characterErrorRate(expected, text) * 100).toFixed(2)} % | CPU ${Math.round((user + system) * 1000)} ms | wall ${wall} ms`;
}

const base = await loadModels({ threads: Number(threadArg) });
const readers: { name: string; models: typeof base }[] = [];
for (const detName of (process.env.PADDLE_DET_MODEL ?? 'shipped').split(',')) {
  const detection = detName === 'shipped' ? base.detection : (await loadModels({ threads: Number(threadArg), detectionModel: detName })).detection;
  for (const name of (process.env.PADDLE_REC_MODEL ?? 'int8').split(',')) {
    const recognition = name === 'int8' ? base.recognition : (await loadModels({ threads: Number(threadArg), recognitionModel: name })).recognition;
    readers.push({ name: `det ${path.basename(detName)} rec ${path.basename(name)}`, models: { ...base, detection, recognition } });
    await readPage(readers.at(-1)?.models ?? base, await raster(chosen[0] as number));
  }
}
const totals = new Map<string, number>();
for (const i of chosen) {
  const spec = specs[i] as (typeof specs)[number];
  const image = await raster(i);
  process.stdout.write(`load ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}\n`);
  for (const reader of readers)
    for (const maxBandPixels of bandSizes)
      for (const squeeze of squeezes) {
        const { models } = reader;
        const name = `${reader.name} bands ${maxBandPixels}`;
        const cpu = process.cpuUsage();
        const started = performance.now();
        const { lines, timings } = await readPage(models, image, { ...SYSTEM_DEFAULTS, detection: { ...DETECTION_DEFAULTS, maxBandPixels }, squeeze });
        const used = process.cpuUsage(cpu);
        const cpuMs = Math.round((used.user + used.system) / 1000);
        totals.set(`${name} squeeze ${squeeze}`, (totals.get(`${name} squeeze ${squeeze}`) ?? 0) + cpuMs);
        const text = pageText(readingOrder(lines));
        fs.writeFileSync(path.join(dir, `read-${name.replace(/ /g, '_')}-${squeeze}-${i}.txt`), text);
        const cer = characterErrorRate(expectedText(spec), text);
        process.stdout.write(
          `${spec.name} | ${name} | squeeze ${squeeze} | CER ${(cer * 100).toFixed(2)} % | CPU ${cpuMs} ms | wall ${Math.round(performance.now() - started)} ms | detect ${timings.detectMs} crop ${timings.cropMs} classify ${timings.classifyMs} recognise ${timings.recognizeMs} ms\n`,
        );
      }
  if (process.env.PADDLE_CLI !== '0') process.stdout.write(`${spec.name} | ${cliRow(i, expectedText(spec))}\n`);
}
for (const [reader, total] of totals) process.stdout.write(`${reader} | total CPU ${total} ms\n`);
