// PDF worker: loads the configured PdfEngine once (kept warm by the pool) and runs its tasks,
// reading inputs and writing the staged outputs itself.

import { workerData } from 'node:worker_threads';
import { RECYCLE_AFTER } from '../../src/shared/recycle.js';
import type { PageRange } from '../../src/shared/page-ranges.js';
import { ApiError, defineTask, serveTasks } from '../shared/task.js';
import { readInputFile, writeOutputFile } from '../shared/io.js';
import type { EncryptOptions, PdfEngine } from './engine.js';
import * as scan from './scan-tasks.js';

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

/** Reads the inputs, remembering whether they were large enough to grow the WASM heap for good. */
let bytesRead = 0;
function read(file: string): Uint8Array {
  const bytes = readInputFile(file);
  bytesRead += bytes.length;
  return bytes;
}

/**
 * mupdf opens damaged files lazily and reports what it cannot repair (page-tree cycles, broken
 * objects) later, while grafting or saving, as a plain Error from WASM: that is a damaged input,
 * not an engine fault. Programming errors (TypeError, RangeError, …) stay INTERNAL_ERROR.
 */
const damagedInput = (err: unknown) =>
  err instanceof Error && err.constructor === Error ? new ApiError('INVALID_INPUT', `The PDF is damaged beyond repair (${err.message})`) : undefined;

function pdfTask<I, O>(run: (input: I) => O) {
  return defineTask(
    (input: I) => {
      bytesRead = 0;
      return run(input);
    },
    { describeUnexpected: damagedInput, shouldRecycle: () => bytesRead > RECYCLE_AFTER.pdfInputBytes },
  );
}

const tasks = {
  merge: pdfTask(({ inputs, output }: MergeTask) => engine.merge(inputs.map(read), writeTo([output]))),
  split: pdfTask(({ input, ranges, outputs }: SplitTask) => {
    engine.split(read(input), ranges, writeTo(outputs));
    return { files: outputs.length };
  }),
  encrypt: pdfTask(({ input, output, ...options }: EncryptTask) => {
    engine.encrypt(read(input), options, writeTo([output]));
    return {};
  }),
  selectPages: pdfTask((task: scan.SelectPagesTask) => scan.selectPages(task, read)),
  renderForOcr: pdfTask((task: scan.RenderForOcrTask) => scan.renderForOcr(task, read)),
  renderToFile: pdfTask((task: scan.RenderToFileTask) => scan.renderToFile(task, read)),
  addTextLayers: pdfTask((task: scan.TextLayerTask) => scan.addTextLayers(task, read)),
};

export type PdfTasks = typeof tasks;
export default serveTasks(tasks);
