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

export const merge = defineTask(({ inputs, output }: MergeTask) => {
  const { pdf, pages } = engine.merge(inputs.map(readInputFile));
  writeOutputFile(output, pdf);
  return { pages };
});

export const split = defineTask(({ input, ranges, outputs }: SplitTask) => {
  const parts = engine.split(readInputFile(input), ranges);
  parts.forEach((part, i) => writeOutputFile(outputs[i] as string, part));
  return { files: parts.length };
});

export const encrypt = defineTask(({ input, output, ...options }: EncryptTask) => {
  writeOutputFile(output, engine.encrypt(readInputFile(input), options));
  return {};
});
