// `tsx test/bench/paddle-memory.ts IMAGE [arena|noarena] [pattern|nopattern]`: loads PP-OCR
// with those onnxruntime session options, detects IMAGE's text twice, then reads IMAGE twice,
// printing the process's resident memory after loading, its peak (getrusage maxrss) after each
// detection and each read, and each detection's process CPU (onnxruntime on one thread; the
// first pays for warming up). PADDLE_READS=N reads N times (default 2).
// PADDLE_DET_MODEL=FILE detects with that model file as it is, `float` with the shipped float
// model (default: what the OCR engine runs); PADDLE_BAND_PIXELS=N detects in bands of at most N
// pixels (DetectionOptions.maxBandPixels; default the engine's). Each figure also gives
// onnxruntime's WebAssembly memory (seen by wrapping the WebAssembly.Memory constructor before
// onnxruntime makes its one; it only grows, so its size is the high-water mark).

import { DETECTION_DEFAULTS, detectText } from '../../wasm/ocr/paddle/detection.js';
import { loadModels } from '../../wasm/ocr/paddle/models.js';
import { readPage, SYSTEM_DEFAULTS } from '../../wasm/ocr/paddle/system.js';
import { greyRaster } from '../helpers/ocr-page-set.js';

const [image, arena = 'arena', pattern = 'pattern'] = process.argv.slice(2);
if (!image) throw new Error('usage: paddle-memory.ts IMAGE [arena|noarena] [pattern|nopattern]');
const mb = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MB`;
const peak = () => mb(process.resourceUsage().maxRSS * 1024);
const cpuMs = (since: NodeJS.CpuUsage) => {
  const { user, system } = process.cpuUsage(since);
  return Math.round((user + system) / 1000);
};
interface Memory {
  buffer: ArrayBuffer;
}
const memories: Memory[] = [];
const webAssembly = (globalThis as unknown as { WebAssembly: { Memory: new (descriptor: unknown) => Memory } }).WebAssembly;
const WasmMemory = webAssembly.Memory;
Object.assign(webAssembly, {
  Memory: function (descriptor: unknown) {
    const memory = new WasmMemory(descriptor);
    memories.push(memory);
    return memory;
  },
});
const heap = () => `heap ${memories.map((memory) => mb(memory.buffer.byteLength)).join(' + ') || 'none'}`;
const detection = { ...DETECTION_DEFAULTS, maxBandPixels: Number(process.env.PADDLE_BAND_PIXELS ?? DETECTION_DEFAULTS.maxBandPixels) };
const raster = await greyRaster(image);
const before = process.memoryUsage().rss;
const models = await loadModels({ memArena: arena === 'arena', memPattern: pattern === 'pattern', detectionModel: process.env.PADDLE_DET_MODEL || undefined });
process.stdout.write(
  `${arena} ${pattern} bands ${detection.maxBandPixels}: rest ${mb(before)}, loaded ${mb(process.memoryUsage().rss)} (peak ${peak()}, ${heap()})`,
);
for (let detect = 1; detect <= 2; detect++) {
  const cpu = process.cpuUsage();
  await detectText(models.detection, raster, detection);
  process.stdout.write(`, detection ${detect}: peak ${peak()}, ${heap()} (CPU ${cpuMs(cpu)} ms)`);
}
for (let read = 1; read <= Number(process.env.PADDLE_READS ?? 2); read++) {
  const started = performance.now();
  await readPage(models, raster, { ...SYSTEM_DEFAULTS, detection });
  process.stdout.write(`, read ${read}: rss ${mb(process.memoryUsage().rss)} peak ${peak()}, ${heap()} (${Math.round(performance.now() - started)} ms)`);
}
process.stdout.write('\n');
