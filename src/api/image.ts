// Image capability: /api/image/convert, /api/image/compress, /api/image/resize on the jSquash
// codecs in the image worker pool. Requests are validated here; the pixels never leave the worker.

import { z } from 'zod';
import type { Capability, ServiceDeps } from '../capability.js';
import { resolveInputPath, resolveOutputPath, type PathPolicy } from '../files/paths.js';
import { postRoute } from '../http/route.js';
import { createEnginePool } from '../jobs/engine-pool.js';
import { packageVersion } from '../version.js';
import { outputFormatOf, type OutputFormat } from '../shared/image-formats.js';
import type { CompressResult, ConvertResult, ResizeResult, ResizeTask } from '../../wasm/image/worker.js';
import { filePath, quality } from './schemas.js';

const outputPath = filePath.describe('target file; its extension (.jpg .jpeg .png .webp .avif) picks the format');

const convertBody = z.object({
  input: filePath,
  output: outputPath,
  quality: quality.default(85).describe('1–100 for JPEG, WebP and AVIF output'),
});

const compressBody = z.object({
  input: filePath,
  output: outputPath,
  quality: quality.default(70).describe('1–100 for JPEG, WebP and AVIF; PNG is optimised losslessly'),
});

const side = z.number().int().min(1).max(65_535);

const resizeBody = z
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
  });

interface Job {
  input: string;
  output: string;
  format: OutputFormat;
}

/** What a task needs beyond input, output, format and the pixel limit. */
type TaskFields = Pick<ResizeTask, 'quality'> & Partial<Pick<ResizeTask, 'width' | 'height' | 'scale' | 'fit'>>;

export function createImageCapability({ config, paths }: ServiceDeps): Capability {
  const pool = createEnginePool(config, 'image', { maxOldGenerationSizeMb: 2048 });
  const version = `jsquash (jpeg ${packageVersion('@jsquash/jpeg')}, png ${packageVersion('@jsquash/png')}, webp ${packageVersion('@jsquash/webp')}, avif ${packageVersion('@jsquash/avif')})`;

  /** Validates paths and the output format before any work, then runs the task on a staged output. */
  const run = async <R>(task: string, raw: { input: string; output: string }, fields: TaskFields): Promise<{ result: R; outputPath: string }> => {
    const job = await prepare(paths, raw);
    const result = await pool.runToOutputs<ResizeTask | TaskFields, R>(task, [job.output], ([temp]) => ({
      ...fields,
      input: job.input,
      output: temp as string,
      format: job.format,
      maxPixels: config.maxPixels,
    }));
    return { result, outputPath: job.output };
  };

  return {
    name: 'image',
    health: () => ({ available: true, engine: 'jsquash', version, formats: { input: ['jpeg', 'png', 'webp', 'avif', 'bmp', 'gif', 'tiff'], output: ['jpeg', 'png', 'webp', 'avif'] } }),
    close: () => pool.close(),
    routes: [
      postRoute({
        path: '/api/image/convert',
        summary: 'Convert an image to the format of the output extension',
        body: convertBody,
        handle: async (body) => {
          const { result, outputPath } = await run<ConvertResult>('convert', body, { quality: body.quality });
          return { message: `Converted to ${result.format.toUpperCase()} (${result.width}×${result.height})`, outputPath, data: { ...result } };
        },
      }),
      postRoute({
        path: '/api/image/compress',
        summary: 'Re-encode an image smaller (PNG losslessly); never larger than the original',
        body: compressBody,
        handle: async (body) => {
          const { result, outputPath } = await run<CompressResult>('compress', body, { quality: body.quality });
          const saved = result.inputBytes > 0 ? Math.round((1 - result.outputBytes / result.inputBytes) * 1000) / 10 : 0;
          const message = result.keptOriginal
            ? 'Re-encoding did not make the image smaller; the original bytes were kept'
            : `Compressed ${result.inputBytes} → ${result.outputBytes} bytes (${saved}% smaller)`;
          return { message, outputPath, data: { ...result, savedPercent: saved } };
        },
      }),
      postRoute({
        path: '/api/image/resize',
        summary: 'Resize an image (lanczos3) by width, height or scale',
        body: resizeBody,
        handle: async (body) => {
          const { input, output, ...fields } = body;
          const { result, outputPath } = await run<ResizeResult>('resize', { input, output }, fields);
          return { message: `Resized to ${result.width}×${result.height}`, outputPath, data: { ...result } };
        },
      }),
    ],
  };
}

async function prepare(paths: PathPolicy, raw: { input: string; output: string }): Promise<Job> {
  const input = await resolveInputPath(paths, raw.input);
  const output = await resolveOutputPath(paths, raw.output);
  return { input, output, format: outputFormatOf(output) };
}
