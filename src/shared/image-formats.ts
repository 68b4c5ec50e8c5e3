// Output formats, chosen by the output file's extension (case-insensitive). Shared by the API
// (to refuse an unsupported extension before any work) and the worker.

import path from 'node:path';
import { ApiError } from '../errors.js';

export type OutputFormat = 'jpeg' | 'png' | 'webp' | 'avif';

const BY_EXTENSION: Record<string, OutputFormat> = {
  '.jpg': 'jpeg',
  '.jpeg': 'jpeg',
  '.png': 'png',
  '.webp': 'webp',
  '.avif': 'avif',
};

export const OUTPUT_EXTENSIONS = Object.keys(BY_EXTENSION);

export function outputFormatOf(outputPath: string): OutputFormat {
  const extension = path.extname(outputPath).toLowerCase();
  const format = BY_EXTENSION[extension];
  if (!format) {
    const shown = extension || '(no extension)';
    throw new ApiError('UNSUPPORTED_FORMAT', `Cannot write ${shown} images; use one of ${OUTPUT_EXTENSIONS.join(' ')}`);
  }
  return format;
}

/** Largest side each encoder can store. */
export const MAX_SIDE: Record<OutputFormat, number> = { jpeg: 65_535, png: 2_147_483_647, webp: 16_383, avif: 65_536 };

/** UNSUPPORTED_CONVERSION when `format` cannot store an image of these dimensions. */
export function checkOutputSide({ width, height }: { width: number; height: number }, format: OutputFormat): void {
  if (Math.max(width, height) > MAX_SIDE[format]) {
    throw new ApiError('UNSUPPORTED_CONVERSION', `${format.toUpperCase()} cannot store a ${width}×${height} image (largest side ${MAX_SIDE[format]} px)`);
  }
}
