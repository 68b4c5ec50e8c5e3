// PDF worker: loads the configured PdfEngine once (kept warm by the pool) and runs merge,
// split and encrypt, reading inputs and writing the staged temp outputs itself.

import { workerData } from 'node:worker_threads';
import { ApiError, defineTask } from '../shared/task.js';
import { readInputFile, writeOutputFile } from '../shared/io.js';
import type { EncryptOptions, PdfEngine } from './engine.js';
import type { PageRange } from '../../src/shared/page-ranges.js';

const { engine: engineName } = workerData as { engine: 'mupdf' | 'cpdf' };
const engine: PdfEngine =
  engineName === 'cpdf' ? (await import('./cpdf-engine.js')).cpdfEngine : (await import('./mupdf-engine.js')).mupdfEngine;

export interface MergeTask {
  inputs: string[];
  output: string;
}

export interface SplitTask {
  input: string;
  ranges: PageRange[];
  outputs: string[];
}

export interface EncryptTask extends EncryptOptions {
  input: string;
  output: string;
}

const writeTo = (outputs: readonly string[]) => (pdf: Uint8Array, index: number) => writeOutputFile(outputs[index] as string, pdf);

/**
 * mupdf opens damaged files lazily and reports what it cannot repair (page-tree cycles, broken
 * objects) later, while grafting or saving, as a plain Error from WASM: that is a damaged input,
 * not an engine fault. Programming errors (TypeError, RangeError, …) stay INTERNAL_ERROR.
 */
const damagedInput = (err: unknown) =>
  err instanceof Error && err.constructor === Error ? new ApiError('INVALID_INPUT', `The PDF is damaged beyond repair (${err.message})`) : undefined;
const options = { describeUnexpected: damagedInput };

export const merge = defineTask(({ inputs, output }: MergeTask) => engine.merge(inputs.map(readInputFile), writeTo([output])), options);

export const split = defineTask(({ input, ranges, outputs }: SplitTask) => {
  engine.split(readInputFile(input), ranges, writeTo(outputs));
  return { files: outputs.length };
}, options);

export const encrypt = defineTask(({ input, output, ...options_ }: EncryptTask) => {
  engine.encrypt(readInputFile(input), options_, writeTo([output]));
  return {};
}, options);
