// `tsx test/bench/paddle-pages.ts DIR THREADS SQUEEZE[,SQUEEZE…] [PAGE…]`: reads the whole page
// set (test/helpers/ocr-page-set.ts, rendered into DIR when missing) with PP-OCR in this process,
// onnxruntime-web on THREADS WebAssembly threads, once per line squeeze factor, and prints per
// page the CER (as paddle.bench.ts counts it), process CPU and wall time, and the stage times.
// The first page is read once before measuring (warm-up). PAGE selects pages by index.

import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { characterErrorRate } from '../helpers/ocr-accuracy.js';
import { CHINESE_PAGES, ENGLISH_PAGES, expectedText, renderTestPage } from '../helpers/ocr-page-set.js';
import { loadModels } from '../../wasm/ocr/paddle/models.js';
import { pageText, readingOrder } from '../../wasm/ocr/paddle/page-text.js';
import type { Raster } from '../../wasm/ocr/paddle/raster.js';
import { readPage, SYSTEM_DEFAULTS } from '../../wasm/ocr/paddle/system.js';

const [dir, threadArg, squeezeArg, ...pageArgs] = process.argv.slice(2);
if (!dir || !threadArg || !squeezeArg) throw new Error('usage: paddle-pages.ts DIR THREADS SQUEEZE[,SQUEEZE…] [PAGE…]');
const specs = [...CHINESE_PAGES, ...ENGLISH_PAGES];
const chosen = pageArgs.length > 0 ? pageArgs.map(Number) : specs.map((_, i) => i);
fs.mkdirSync(dir, { recursive: true });

async function raster(i: number): Promise<Raster> {
  const file = path.join(dir as string, `page${i}.png`);
  if (!fs.existsSync(file)) fs.writeFileSync(file, await renderTestPage(specs[i] as (typeof specs)[number]));
  const { data, info } = await sharp(file).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, channels: 1, data };
}

const models = await loadModels({ threads: Number(threadArg) });
const images = new Map<number, Raster>();
for (const i of chosen) images.set(i, await raster(i));
await readPage(models, images.get(chosen[0] as number) as Raster);
for (const squeeze of (squeezeArg as string).split(',').map(Number)) {
  let totalCpu = 0;
  for (const i of chosen) {
    const spec = specs[i] as (typeof specs)[number];
    const cpu = process.cpuUsage();
    const started = performance.now();
    const { lines, timings } = await readPage(models, images.get(i) as Raster, { ...SYSTEM_DEFAULTS, squeeze });
    const used = process.cpuUsage(cpu);
    const cpuMs = Math.round((used.user + used.system) / 1000);
    totalCpu += cpuMs;
    const text = pageText(readingOrder(lines));
    fs.writeFileSync(path.join(dir as string, `read-${squeeze}-${i}.txt`), text);
    const cer = characterErrorRate(expectedText(spec), text);
    process.stdout.write(
      `squeeze ${squeeze} | ${spec.name} | CER ${(cer * 100).toFixed(2)} % | CPU ${cpuMs} ms | wall ${Math.round(performance.now() - started)} ms | detect+crop ${timings.detectMs} classify ${timings.classifyMs} recognise ${timings.recognizeMs} ms\n`,
    );
  }
  process.stdout.write(`squeeze ${squeeze} | total CPU ${totalCpu} ms\n`);
}
