// `tsx test/bench/paddle-memory.ts IMAGE [arena|noarena] [pattern|nopattern]`: loads PP-OCR
// with those onnxruntime session options and reads IMAGE twice, printing the process's resident
// memory after loading and its peak (getrusage maxrss) after each read. PADDLE_DET_MODEL=FILE
// detects with that model file as it is (an int8 one written by quantize-det.ts).

import sharp from 'sharp';
import { loadModels } from '../../wasm/ocr/paddle/models.js';
import { readPage } from '../../wasm/ocr/paddle/system.js';

const [image, arena = 'arena', pattern = 'pattern'] = process.argv.slice(2);
if (!image) throw new Error('usage: paddle-memory.ts IMAGE [arena|noarena] [pattern|nopattern]');
const mb = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MB`;
const peak = () => mb(process.resourceUsage().maxRSS * 1024);
const { data, info } = await sharp(image).greyscale().raw().toBuffer({ resolveWithObject: true });
const raster = { width: info.width, height: info.height, channels: 1 as const, data };
const before = process.memoryUsage().rss;
const models = await loadModels({ memArena: arena === 'arena', memPattern: pattern === 'pattern', detectionModel: process.env.PADDLE_DET_MODEL });
process.stdout.write(`${arena} ${pattern}: rest ${mb(before)}, loaded ${mb(process.memoryUsage().rss)} (peak ${peak()})`);
for (let read = 1; read <= 2; read++) {
  const started = performance.now();
  await readPage(models, raster);
  process.stdout.write(`, read ${read}: rss ${mb(process.memoryUsage().rss)} peak ${peak()} (${Math.round(performance.now() - started)} ms)`);
}
process.stdout.write('\n');
