// The one timing harness of the int8 benches (quantize-rec.ts, quantize-det.ts): derives each
// variant of a PP-OCR model with wasm/ocr/paddle/int8.ts into DIR, then times one model run per
// input with each variant and with the float model on onnxruntime-web's WASM backend, one thread,
// ROUNDS rounds after a warm-up, the variants interleaved within a round so that other load on
// the machine falls on all of them alike. Prints the median process CPU per variant and input.

import fs from 'node:fs';
import path from 'node:path';
import * as ort from 'onnxruntime-web';
import { configureRuntime, MODEL_DIR } from '../../wasm/ocr/paddle/models.js';
import { quantizeModel, type QuantizeOptions } from '../../wasm/ocr/paddle/int8.js';

export interface VariantBench {
  /** The script's name, for its usage line. */
  script: string;
  /** The shipped model's file in MODEL_DIR. */
  model: string;
  /** Derived models are written to DIR/<prefix>-<variant>.onnx. */
  prefix: string;
  /** Each variant's quantisation; undefined: the float model (named `fp32`, the base of the comparison). */
  variants: Record<string, QuantizeOptions | undefined>;
  /** The inputs each variant runs on, by label (random pixels: the work does not depend on them). */
  inputs: Record<string, readonly number[]>;
}

export async function benchVariants({ script, model, prefix, variants, inputs }: VariantBench): Promise<void> {
  const [dir, roundArg = '5'] = process.argv.slice(2);
  if (!dir) throw new Error(`usage: ${script} DIR [ROUNDS]`);
  fs.mkdirSync(dir, { recursive: true });
  configureRuntime({ threads: 1 });
  const sessions = await variantSessions(fs.readFileSync(path.join(MODEL_DIR, model)), variants, dir, prefix);
  const tensors = Object.entries(inputs).map(([label, dims]) => ({ label, tensor: randomTensor(dims) }));
  const samples = new Map<string, number[]>();
  for (let round = -1; round < Number(roundArg); round++) {
    for (const { label, tensor } of tensors) {
      for (const [name, session] of sessions) {
        const ms = await cpuMsOfRun(session, tensor);
        if (round >= 0) samples.set(`${name} ${label}`, [...(samples.get(`${name} ${label}`) ?? []), ms]);
      }
    }
  }
  process.stdout.write(`load ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}\n`);
  for (const { label } of tensors) {
    const base = median(samples.get(`fp32 ${label}`) as number[]);
    for (const name of Object.keys(variants)) {
      const values = samples.get(`${name} ${label}`) as number[];
      const m = median(values);
      process.stdout.write(
        `${label} | ${name} | median CPU ${Math.round(m)} ms (${Math.round((100 * (m - base)) / base)} % vs fp32) | runs ${values.map(Math.round).join(' ')}\n`,
      );
    }
  }
}

/** A session per variant; each derived model is also written to `dir` (paddle-pages.ts reads it for accuracy). */
async function variantSessions(
  source: Uint8Array,
  variants: VariantBench['variants'],
  dir: string,
  prefix: string,
): Promise<Map<string, ort.InferenceSession>> {
  const sessions = new Map<string, ort.InferenceSession>();
  for (const [name, options] of Object.entries(variants)) {
    let bytes = source;
    if (options) {
      const quantized = quantizeModel(source, options);
      bytes = quantized.bytes;
      fs.writeFileSync(path.join(dir, `${prefix}-${name.replace(/[ ()≥]/g, '-')}.onnx`), bytes);
      process.stdout.write(`${name}: ${quantized.report.convs} convolutions, ${quantized.report.matmuls} MatMuls, ${bytes.length} bytes\n`);
    }
    sessions.set(name, await ort.InferenceSession.create(bytes, { executionProviders: ['wasm'], graphOptimizationLevel: 'all' }));
  }
  return sessions;
}

function randomTensor(dims: readonly number[]): ort.Tensor {
  const data = new Float32Array(dims.reduce((a, b) => a * b, 1));
  for (let i = 0; i < data.length; i++) data[i] = Math.random() * 2 - 1;
  return new ort.Tensor('float32', data, dims);
}

/** Process CPU (ms) of one run of `session` on `input`. */
async function cpuMsOfRun(session: ort.InferenceSession, input: ort.Tensor): Promise<number> {
  const cpu = process.cpuUsage();
  await session.run({ [session.inputNames[0] as string]: input });
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / 1000;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
