// `/api/pipeline`: operations run one after another, each step's output the next one's input.
// It is an operation like the others (so HTTP, OpenAPI, CLI, MCP and async jobs get it), built
// over the list of the operations it may run. The whole chain is checked by the schema itself
// (src/pipeline/plan.ts), so every door refuses a bad chain before any work.

import { z } from 'zod';
import { planPipeline } from '../pipeline/plan.js';
import { runPipeline } from '../pipeline/run.js';
import { FILE_FLOWS } from './file-kinds.js';
import { filePath, filePaths } from './fields.js';
import { defineOperation, type Operation } from './operation.js';

/** More steps than anyone chains by hand; a bound on the work one request can describe. */
const MAX_STEPS = 50;

const step = z
  .object({
    operation: z
      .string()
      .min(1)
      .describe(`the operation, as its API path without /api/: ${Object.keys(FILE_FLOWS).join(', ')}`),
    format: z
      .string()
      .min(1)
      .optional()
      .describe(
        "ocr, image/convert and convert: the kind of file the step writes (ocr: txt or pdf; image/convert: png, jpg, webp, avif; convert: its formats); the last step may take it from output's extension",
      ),
  })
  .catchall(z.unknown())
  .describe('one operation and its own fields, as in its endpoint, without its input and output paths');

export function pipelineOperation(operations: readonly Operation[]): Operation {
  const input = z
    .object({
      input: filePath.optional().describe('the file the first step reads'),
      files: filePaths('file').optional().describe('the files the first step reads: all at once for pdf/merge and pdf/from-images, else one after another'),
      steps: z
        .array(step)
        .min(1)
        .max(MAX_STEPS)
        .describe('the steps, run in order, each reading what the one before wrote: [{operation, ...its own fields}] (CLI: a JSON file)'),
      output: filePath.optional().describe('where the last step writes its one file'),
      outputDir: filePath.optional().describe('where the last step writes its files, each under its own name'),
    })
    .superRefine((body) => {
      // Throws VALIDATION_ERROR naming the step: the message says what is wrong better than an issue path would.
      planPipeline(body, operations);
    });
  return defineOperation({
    id: 'pipeline',
    summary: "Run operations one after another, each step's output the next one's input",
    input,
    // The steps may use any engine.
    engines: ['pdf', 'image', 'ocr', 'documents'],
    writes: 'files',
    idempotent: false,
    run: (body, context) => runPipeline(planPipeline(body, operations), context),
    warnings: (body) => planPipeline(body, operations).warnings,
  });
}
