// `tsx test/bench/detection-bands.ts IMAGE [ROUNDS]`: detects IMAGE's text with each detection
// model of PADDLE_DET_MODEL=MODEL[,MODEL…] (`shipped`, the float model, or a file: an int8 one
// written by quantize-det.ts) at each band size of PADDLE_BAND_PIXELS=N[,N…]
// (DetectionOptions.maxBandPixels), one thread, ROUNDS rounds (default 5) after a warm-up round,
// the variants interleaved within a round so that other load falls on all of them alike, and
// prints each variant's median process CPU and its box count. The peak memory of a variant needs
// a process of its own: paddle-memory.ts.

import path from 'node:path';
import { median } from '../../core/median.js';
import { DETECTION_DEFAULTS, detectText } from '../../wasm/ocr/paddle/detection.js';
import { loadModels } from '../../wasm/ocr/paddle/models.js';
import { greyRaster } from '../helpers/ocr-page-set.js';

const [image, roundArg = '5'] = process.argv.slice(2);
if (!image) throw new Error('usage: detection-bands.ts IMAGE [ROUNDS]');
const raster = await greyRaster(image);
const variants: { name: string; run: () => Promise<number> }[] = [];
for (const model of (process.env.PADDLE_DET_MODEL ?? 'shipped').split(',')) {
  const { detection: session } = await loadModels({ threads: 1, detectionModel: model === 'shipped' ? undefined : model });
  for (const maxBandPixels of (process.env.PADDLE_BAND_PIXELS ?? String(DETECTION_DEFAULTS.maxBandPixels)).split(',').map(Number)) {
    const options = { ...DETECTION_DEFAULTS, maxBandPixels };
    variants.push({ name: `${path.basename(model)} bands ${maxBandPixels}`, run: async () => (await detectText(session, raster, options)).length });
  }
}
const samples = new Map<string, number[]>();
const boxes = new Map<string, number>();
for (let round = -1; round < Number(roundArg); round++) {
  for (const { name, run } of variants) {
    const cpu = process.cpuUsage();
    boxes.set(name, await run());
    const { user, system } = process.cpuUsage(cpu);
    if (round >= 0) samples.set(name, [...(samples.get(name) ?? []), Math.round((user + system) / 1000)]);
  }
}
for (const [name, ms] of samples) process.stdout.write(`${name} | median CPU ${median(ms)} ms (${ms.join(', ')}) | ${boxes.get(name)} boxes\n`);
