// `tsx test/bench/quantize-det.ts DIR [ROUNDS]`: derives int8 versions of PP-OCRv4's detection
// model (wasm/ocr/paddle/int8.ts, per output channel) into DIR — every group-1 convolution,
// the 1×1 ones alone, and the wide ones alone — and times one detection of a 300 dpi A4 page at
// the detection's scale (1 × 3 × 1632 × 1152, random pixels: the work does not depend on them)
// with each and with the float model (the OCR engine detects with the float one) on onnxruntime-web's WASM backend, one thread, ROUNDS
// rounds after a warm-up, variants interleaved within a round. Prints the median process CPU.
// Accuracy: paddle-pages.ts with PADDLE_DET_MODEL=DIR/det-….onnx.

import fs from 'node:fs';
import path from 'node:path';
import * as ort from 'onnxruntime-web';
import { configureRuntime, MODEL_DIR, MODEL_FILES } from '../../wasm/ocr/paddle/models.js';
import { DETECTION_INT8, quantizeModel, type QuantizeOptions } from '../../wasm/ocr/paddle/int8.js';

const [dir, roundArg = '5'] = process.argv.slice(2);
if (!dir) throw new Error('usage: quantize-det.ts DIR [ROUNDS]');
fs.mkdirSync(dir, { recursive: true });
configureRuntime({ threads: 1 });

const VARIANTS: Record<string, QuantizeOptions | undefined> = {
  fp32: undefined,
  'dense per-channel': { convs: 'dense', matmuls: false, perChannel: true },
  'pointwise per-channel': { convs: 'pointwise', matmuls: false, perChannel: true },
  'pointwise ≥96 per-channel': { convs: 'pointwise', matmuls: false, perChannel: true, minChannels: 96 },
  'dense ≥24 per-channel': DETECTION_INT8,
};
const DIMS = [1, 3, 1632, 1152];

const source = fs.readFileSync(path.join(MODEL_DIR, MODEL_FILES.detection));
const sessions = new Map<string, ort.InferenceSession>();
for (const [name, options] of Object.entries(VARIANTS)) {
  let bytes: Uint8Array = source;
  if (options) {
    const quantized = quantizeModel(source, options);
    bytes = quantized.bytes;
    fs.writeFileSync(path.join(dir, `det-${name.replace(/[ ()≥]/g, '-')}.onnx`), bytes);
    process.stdout.write(`${name}: ${quantized.report.convs} convolutions, ${bytes.length} bytes\n`);
  }
  sessions.set(name, await ort.InferenceSession.create(bytes, { executionProviders: ['wasm'], graphOptimizationLevel: 'all' }));
}

const data = new Float32Array(DIMS.reduce((a, b) => a * b, 1));
for (let i = 0; i < data.length; i++) data[i] = Math.random() * 2 - 1;

/** Process CPU (ms) of one detection run of `session`. */
async function timeRun(session: ort.InferenceSession): Promise<number> {
  const input = new ort.Tensor('float32', data, DIMS);
  const cpu = process.cpuUsage();
  await session.run({ [session.inputNames[0] as string]: input });
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / 1000;
}

const samples = new Map<string, number[]>();
for (let round = -1; round < Number(roundArg); round++) {
  for (const [name, session] of sessions) {
    const ms = await timeRun(session);
    if (round >= 0) samples.set(name, [...(samples.get(name) ?? []), ms]);
  }
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
process.stdout.write(`load ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}\n`);
const base = median(samples.get('fp32') as number[]);
for (const name of Object.keys(VARIANTS)) {
  const values = samples.get(name) as number[];
  const m = median(values);
  process.stdout.write(`${DIMS.join('×')} | ${name} | median CPU ${Math.round(m)} ms (${Math.round((100 * (m - base)) / base)} % vs fp32) | runs ${values.map(Math.round).join(' ')}\n`);
}
