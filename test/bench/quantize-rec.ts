// `tsx test/bench/quantize-rec.ts DIR [ROUNDS]`: derives int8 versions of PP-OCRv4's recognition
// model (test/bench/int8-model.ts) into DIR — 1×1 convolutions + MatMuls, every group-1
// convolution + MatMuls, 1×1 convolutions alone, MatMuls alone — and times one recognition batch
// (8 × 3 × 48 × W, W = 320 and 640, random pixels: the work does not depend on them) with each and
// with the float model on onnxruntime-web's WASM backend, one thread, ROUNDS rounds after a
// warm-up, the variants interleaved within a round so that other load on the machine falls on
// all of them alike. Prints the median process CPU per variant and width. Accuracy is measured
// by reading the page set with a derived model (paddle-pages.ts with PADDLE_REC_MODEL=DIR/….onnx).

import fs from 'node:fs';
import path from 'node:path';
import * as ort from 'onnxruntime-web';
import { configureRuntime, MODEL_DIR, MODEL_FILES } from '../../wasm/ocr/paddle/models.js';
import { quantizeModel, RECOGNITION_INT8, type QuantizeOptions } from '../../wasm/ocr/paddle/int8.js';

const [dir, roundArg = '5'] = process.argv.slice(2);
if (!dir) throw new Error('usage: quantize-rec.ts DIR [ROUNDS]');
fs.mkdirSync(dir, { recursive: true });
configureRuntime({ threads: 1 });

const VARIANTS: Record<string, QuantizeOptions | undefined> = {
  fp32: undefined,
  'pointwise+matmul per-tensor': { convs: 'pointwise', matmuls: true, perChannel: false },
  'dense+matmul per-tensor': { convs: 'dense', matmuls: true, perChannel: false },
  'pointwise per-tensor': { convs: 'pointwise', matmuls: false, perChannel: false },
  'pointwise+matmul per-channel': { convs: 'pointwise', matmuls: true, perChannel: true },
  'pointwise per-channel': { convs: 'pointwise', matmuls: false, perChannel: true },
  'matmul per-channel': { convs: 'none', matmuls: true, perChannel: true },
  'pointwise ≥240 per-channel (built)': RECOGNITION_INT8,
};
const WIDTHS = [320, 640];
const BATCH = 8;

const source = fs.readFileSync(path.join(MODEL_DIR, MODEL_FILES.recognition));
const sessions = new Map<string, ort.InferenceSession>();
for (const [name, options] of Object.entries(VARIANTS)) {
  let bytes: Uint8Array = source;
  if (options) {
    const quantized = quantizeModel(source, options);
    bytes = quantized.bytes;
    fs.writeFileSync(path.join(dir, `rec-${name.replace(/[ ()]/g, '-')}.onnx`), bytes);
    process.stdout.write(`${name}: ${quantized.report.convs} convolutions, ${quantized.report.matmuls} MatMuls, ${bytes.length} bytes\n`);
  }
  sessions.set(name, await ort.InferenceSession.create(bytes, { executionProviders: ['wasm'], graphOptimizationLevel: 'all' }));
}

/** Process CPU (ms) of one run of `session` on a random batch `width` wide. */
async function timeBatch(session: ort.InferenceSession, width: number): Promise<number> {
  const data = new Float32Array(BATCH * 3 * 48 * width);
  for (let i = 0; i < data.length; i++) data[i] = Math.random() * 2 - 1;
  const input = new ort.Tensor('float32', data, [BATCH, 3, 48, width]);
  const cpu = process.cpuUsage();
  await session.run({ [session.inputNames[0] as string]: input });
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / 1000;
}

const samples = new Map<string, number[]>();
for (let round = -1; round < Number(roundArg); round++) {
  for (const width of WIDTHS) {
    for (const [name, session] of sessions) {
      const ms = await timeBatch(session, width);
      if (round >= 0) samples.set(`${name} ${width}`, [...(samples.get(`${name} ${width}`) ?? []), ms]);
    }
  }
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
process.stdout.write(`load ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}\n`);
for (const width of WIDTHS) {
  const base = median(samples.get(`fp32 ${width}`) as number[]);
  for (const name of Object.keys(VARIANTS)) {
    const values = samples.get(`${name} ${width}`) as number[];
    const m = median(values);
    process.stdout.write(`${BATCH}×3×48×${width} | ${name} | median CPU ${Math.round(m)} ms (${Math.round((100 * (m - base)) / base)} % vs fp32) | runs ${values.map(Math.round).join(' ')}\n`);
  }
}
