// Output formats, chosen by the output file's extension (case-insensitive). Shared by the API
// (to refuse an unsupported extension before any work) and the worker.

import path from 'node:path';
import { ApiError } from './errors.js';

export type OutputFormat = 'jpeg' | 'png' | 'webp' | 'avif';

const BY_EXTENSION: Record<string, OutputFormat> = {
  '.jpg': 'jpeg',
  '.jpeg': 'jpeg',
  '.png': 'png',
  '.webp': 'webp',
  '.avif': 'avif',
};

export const OUTPUT_EXTENSIONS = Object.keys(BY_EXTENSION);
/** The image formats docwasm writes, each once: the one list health, the pipeline's file kinds and the encoders follow. */
export const IMAGE_OUTPUT_FORMATS: readonly OutputFormat[] = [...new Set(Object.values(BY_EXTENSION))];

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

/**
 * Most pixels an encoder can hold in its WASM memory. The AVIF encoder's heap stops at 2 GiB:
 * measured on photo-like and gradient content, 8,700² (75.7 MP) encodes, 8,850² (78.3 MP)
 * fails after seconds of work ("Encoding error"), at speed 10 and 8 alike; 8,192² and
 * 32,768 × 2,048 encode. The others encode 100 MP (the default --max-pixels) and more.
 */
export const MAX_ENCODE_PIXELS: Partial<Record<OutputFormat, number>> = { avif: 8_192 * 8_192 };

/**
 * Refuses, before any work, an image `format` cannot be written at: a side over the format's
 * own limit is UNSUPPORTED_CONVERSION; more pixels than the encoder's memory holds is
 * TOO_LARGE (an engine's memory ceiling, in the contract's words).
 */
export function checkEncodable({ width, height }: { width: number; height: number }, format: OutputFormat): void {
  if (Math.max(width, height) > MAX_SIDE[format]) {
    throw new ApiError('UNSUPPORTED_CONVERSION', `${format.toUpperCase()} cannot store a ${width}×${height} image (largest side ${MAX_SIDE[format]} px)`);
  }
  const maxPixels = MAX_ENCODE_PIXELS[format];
  if (maxPixels !== undefined && width * height > maxPixels) {
    throw new ApiError('TOO_LARGE', `A ${width}×${height} image is too large to encode as ${format.toUpperCase()} (at most ${maxPixels} pixels)`);
  }
}
