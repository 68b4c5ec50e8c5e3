// `tsx test/bench/paddle-threads.ts IMAGE THREADS [SQUEEZE]`: reads IMAGE with PP-OCR in this
// process, onnxruntime-web on THREADS WebAssembly threads (lines squeezed to SQUEEZE, else the default), twice (the first warms up), and prints the
// second read's wall and CPU time and the stage times. Run by paddle.bench.ts.

import { loadModels } from '../../wasm/ocr/paddle/models.js';
import { readPage, SYSTEM_DEFAULTS } from '../../wasm/ocr/paddle/system.js';
import { greyRaster } from '../helpers/ocr-page-set.js';

const [image, threadArg, squeezeArg] = process.argv.slice(2);
if (!image || !threadArg) throw new Error('usage: paddle-threads.ts IMAGE THREADS');
const models = await loadModels({ threads: Number(threadArg) });
const raster = await greyRaster(image);
const options = { ...SYSTEM_DEFAULTS, ...(squeezeArg !== undefined && { squeeze: Number(squeezeArg) }) };
await readPage(models, raster, options);
const cpu = process.cpuUsage();
const started = performance.now();
const { timings } = await readPage(models, raster, options);
const used = process.cpuUsage(cpu);
process.stdout.write(
  `wall ${Math.round(performance.now() - started)} ms, process CPU ${Math.round((used.user + used.system) / 1000)} ms, detect ${timings.detectMs} crop ${timings.cropMs} ms, classify ${timings.classifyMs} ms, recognise ${timings.recognizeMs} ms\n`,
);
