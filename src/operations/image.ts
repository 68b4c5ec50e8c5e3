// Image operations on the jSquash codecs in the image worker pool. The output format comes
// from the output's extension and is checked here; the pixels never leave the worker.

import { z } from 'zod';
import { resolveInputPath, resolveOutputPath } from '../files/paths.js';
import type { FileRef } from '../../core/file-ref.js';
import { OUTPUT_EXTENSIONS, outputFormatOf } from '../../core/image-formats.js';
import { defineOperation, type OperationContext } from './operation.js';
import { filePath, quality } from './fields.js';
import type { ImageTasks } from '../../wasm/image/worker.js';
import type { TaskClient } from '../jobs/engine-pool.js';

const outputPath = filePath.describe(`target file; its extension (${OUTPUT_EXTENSIONS.join(' ')}) picks the format`);

const side = z.number().int().min(1).max(65_535);

interface ImageJob {
  input: FileRef;
  output: FileRef;
  format: ReturnType<typeof outputFormatOf>;
  maxPixels: number;
}

/** Resolves the paths and the output format before any work, then runs one task on a staged output. */
async function runImageJob<R>(
  raw: { input: string; output: string },
  { engines, paths, config, ...control }: OperationContext,
  task: (tasks: TaskClient<ImageTasks>, job: ImageJob) => Promise<R>,
): Promise<{ result: R; outputPath: string }> {
  const input = await resolveInputPath(paths, raw.input);
  const outputPath = await resolveOutputPath(paths, raw.output);
  const format = outputFormatOf(outputPath);
  const result = await engines.image.jobWriting(control, paths, [outputPath], (tasks, [output]) =>
    task(tasks, { input, output, format, maxPixels: config.maxPixels }),
  );
  return { result, outputPath };
}

export const convert = defineOperation({
  id: 'image/convert',
  engines: ['image'],
  writes: 'files',
  idempotent: false,
  summary: 'Convert an image to the format of the output extension',
  input: z.object({ input: filePath, output: outputPath, quality: quality.default(85).describe('1–100 for JPEG, WebP and AVIF output') }),
  run: async (body, context) => {
    const { result, outputPath } = await runImageJob(body, context, (tasks, job) => tasks.convert({ ...job, quality: body.quality }));
    return { message: `Converted to ${result.format.toUpperCase()} (${result.width}×${result.height})`, outputPath, data: { ...result } };
  },
});

export const compress = defineOperation({
  id: 'image/compress',
  engines: ['image'],
  writes: 'files',
  idempotent: false,
  summary: 'Re-encode an image smaller (PNG losslessly); never larger than the original',
  input: z.object({ input: filePath, output: outputPath, quality: quality.default(70).describe('1–100 for JPEG, WebP and AVIF; PNG is optimised losslessly') }),
  run: async (body, context) => {
    const { result, outputPath } = await runImageJob(body, context, (tasks, job) => tasks.compress({ ...job, quality: body.quality }));
    const saved = result.inputBytes > 0 ? Math.round((1 - result.outputBytes / result.inputBytes) * 1000) / 10 : 0;
    const message = result.keptOriginal
      ? 'Re-encoding did not make the image smaller; the original bytes were kept'
      : `Compressed ${result.inputBytes} → ${result.outputBytes} bytes (${saved}% smaller)`;
    return { message, outputPath, data: { ...result, savedPercent: saved } };
  },
});

export const resize = defineOperation({
  id: 'image/resize',
  engines: ['image'],
  writes: 'files',
  idempotent: false,
  summary: 'Resize an image (lanczos3) by width, height or scale',
  input: z
    .object({
      input: filePath,
      output: outputPath,
      width: side.optional().describe('output width in px; alone, the height keeps the aspect ratio'),
      height: side.optional().describe('output height in px; alone, the width keeps the aspect ratio'),
      scale: z.number().positive().max(100).optional().describe('multiplies both sides (result at least 1 px); not with width/height'),
      fit: z.enum(['fill', 'inside', 'cover']).default('fill').describe('with both width and height: stretch to them, fit inside them, or cover them and crop'),
      quality: quality.default(85).describe('1–100 for JPEG, WebP and AVIF output'),
    })
    .superRefine((body, ctx) => {
      const hasSize = body.width !== undefined || body.height !== undefined;
      if (body.scale !== undefined && hasSize) ctx.addIssue({ code: 'custom', path: ['scale'], message: 'give either scale or width/height, not both' });
      if (body.scale === undefined && !hasSize) ctx.addIssue({ code: 'custom', path: ['width'], message: 'give width, height or scale' });
    }),
  run: async ({ input, output, ...fields }, context) => {
    const { result, outputPath } = await runImageJob({ input, output }, context, (tasks, job) => tasks.resize({ ...job, ...fields }));
    return { message: `Resized to ${result.width}×${result.height}`, outputPath, data: { ...result } };
  },
});

export const IMAGE_OPERATIONS = [convert, compress, resize];
