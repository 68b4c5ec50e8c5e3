// Encoding by output format, then proof that the result is a whole image (verify.ts).
//
// Encoder settings, measured on a 1600×1200 photo (q85, one thread; sizes relative):
//   MozJPEG defaults (progressive + trellis) 570–800 ms, 347 KB; baseline + optimised Huffman
//   + trellis 180–280 ms, 370 KB (+7 %); trellis_loops:0 is unsafe (22-byte output, or a crash).
//   Its builds cannot turn trellis off. libjpeg-turbo baseline (turbo.ts), on another photo of
//   that size: 60 ms, 270 KB against MozJPEG's fast column 210–330 ms, 250 KB; SSIM 0.960 vs
//   0.955 (progressive: 120 ms, 248 KB).
//   WebP method 4: 250 ms, 265 KB; method 2: 114 ms, 272 KB (+3 %).
//   AVIF speed 6: 3.2 s; speed 10: 0.28 s.  PNG: plain 86 ms; oxipng level 1: 0.6–1.7 s,
//   level 2: twice that for 0.1–0.7 % less; level 0 is 20 % bigger on flat graphics.
// convert/resize take the fast column; compress, whose point is size, takes the small one.

import { ApiError } from '../../core/errors.js';
import { codecs, noteCodecFailure } from './codecs.js';
import { arrayBufferOf } from './decode.js';
import type { OutputFormat } from '../../core/image-formats.js';
import { flattenOntoWhite } from './pixels.js';
import type { RgbaImage } from './rgba.js';
import { encodeJpegBaseline } from './turbo.js';
import { verifyEncoded } from './verify.js';
import { logEvent } from '../../core/log.js';

export type EncodeGoal = 'speed' | 'size';

export interface EncodeOptions {
  quality: number;
  goal: EncodeGoal;
}

const JPEG_SETTINGS = {
  speed: { progressive: false, optimize_coding: true, trellis_loops: 1 },
  size: { progressive: true, optimize_coding: true, trellis_loops: 1 },
};
const WEBP_METHOD = { speed: 2, size: 4 };
const AVIF_SPEED = { speed: 10, size: 8 };
const OXIPNG_LEVEL = 1;

type Encoder = (image: RgbaImage, options: EncodeOptions) => Promise<ArrayBuffer>;

const ENCODERS: Record<OutputFormat, Encoder> = {
  // JPEG has no alpha: composite onto white, as a viewer would show it.
  jpeg: (image, options) => encodeJpeg(flattenOntoWhite(image), options),
  png: (image, { goal }) => (goal === 'size' ? codecs.optimisePng(image, OXIPNG_LEVEL) : codecs.encodePng(image)),
  webp: (image, { quality, goal }) => codecs.encodeWebp(image, { quality, method: WEBP_METHOD[goal] }),
  avif: (image, { quality, goal }) => codecs.encodeAvif(image, { quality, speed: AVIF_SPEED[goal] }),
};

/** For speed libjpeg-turbo, or MozJPEG when it fails; for size MozJPEG. */
async function encodeJpeg(image: RgbaImage, { quality, goal }: EncodeOptions): Promise<ArrayBuffer> {
  const fast = goal === 'speed' ? await encodeJpegBaseline(image, quality) : undefined;
  return fast ?? codecs.encodeJpeg(image, { quality, ...JPEG_SETTINGS[goal] });
}

export async function encodeImage(image: RgbaImage, format: OutputFormat, options: EncodeOptions): Promise<Uint8Array> {
  const { width, height } = image;
  let encoded: ArrayBuffer;
  try {
    encoded = await ENCODERS[format](image, options);
  } catch (err) {
    noteCodecFailure(err);
    logEvent(`docwasm image worker: the ${format} encoder failed: ${String(err)}`);
    throw new ApiError('INTERNAL_ERROR', `The ${format.toUpperCase()} encoder failed`);
  }
  const bytes = new Uint8Array(encoded);
  verifyEncoded(bytes, format, width, height);
  return bytes;
}

/** Lossless PNG optimisation of an existing PNG file's bytes (keeps bit depth and palette). */
export async function optimisePngFile(png: Uint8Array): Promise<Uint8Array> {
  let optimised: ArrayBuffer;
  try {
    optimised = await codecs.optimisePngBytes(arrayBufferOf(png), OXIPNG_LEVEL);
  } catch (err) {
    noteCodecFailure(err);
    throw new ApiError('INVALID_INPUT', 'The PNG image cannot be optimised (corrupt or truncated)');
  }
  return new Uint8Array(optimised);
}
