// PDF worker: loads the configured PdfEngine once (kept warm by the pool) and runs merge,
// split and encrypt, reading inputs and writing the staged temp outputs itself.

import { workerData } from 'node:worker_threads';
import { defineTask } from '../shared/task.js';
import { readInputFile, writeOutputFile } from '../shared/io.js';
import type { EncryptOptions, PdfEngine } from './engine.js';
import type { PageRange } from './page-ranges.js';

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

export const merge = defineTask(({ inputs, output }: MergeTask) => engine.merge(inputs.map(readInputFile), writeTo([output])));

export const split = defineTask(({ input, ranges, outputs }: SplitTask) => {
  engine.split(readInputFile(input), ranges, writeTo(outputs));
  return { files: outputs.length };
});

export const encrypt = defineTask(({ input, output, ...options }: EncryptTask) => {
  engine.encrypt(readInputFile(input), options, writeTo([output]));
  return {};
});
