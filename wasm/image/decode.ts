// Decoding any supported input into RGBA: the format is judged by content (magic bytes), the
// header's pixel count is checked against the limit before any pixel is allocated (every GIF
// frame's too, and a JPEG's scans against their budget: core/image-budget.ts), and JPEG
// EXIF orientation is applied (tags 1–8). Works in any worker thread: codecs start lazily.
// JPEG goes through libjpeg-turbo (turbo.ts), which can also decode at 1/2, 1/4 or 1/8 size for
// a resize; MozJPEG decodes what libjpeg-turbo refuses or only warns about (a truncated file).

import { decode as decodeBmp } from 'bmp-ts';
import omggif from 'omggif';
import UTIF from 'utif2';
import { ApiError } from '../../core/errors.js';
import { checkImageBudget } from '../../core/image-budget.js';
import { sniffType, type SniffedType } from '../../core/sniff.js';
import { codecs, noteCodecFailure } from './codecs.js';
import { exifOrientation, orient, orientedSize } from './orientation.js';
import { checkPixelLimit, probeDimensions, type Dimensions } from './probe.js';
import type { RgbaImage } from './rgba.js';
import { decodeJpegShrunk } from './turbo.js';

export type { RgbaImage } from './rgba.js';

export type InputFormat = 'jpeg' | 'png' | 'webp' | 'avif' | 'bmp' | 'gif' | 'tiff';

type Decoder = (bytes: Uint8Array, dims: Dimensions, shrink: number) => Promise<RgbaImage> | RgbaImage;

const DECODERS: Record<InputFormat, Decoder> = {
  jpeg: decodeJpeg,
  png: (bytes) => codecs.decodePng(arrayBufferOf(bytes)),
  webp: (bytes) => codecs.decodeWebp(arrayBufferOf(bytes)),
  avif: (bytes) => codecs.decodeAvif(arrayBufferOf(bytes)),
  bmp: decodeBmpImage,
  gif: decodeGifFirstFrame,
  tiff: decodeTiffFirstPage,
};

export interface DecodeOptions {
  maxPixels: number;
  /** Refuses, from the header's dimensions and before any pixel is decoded, what cannot be written. */
  checkHeader?: (dims: Dimensions) => void;
  /**
   * A power of two (at most 8) the decoder may divide both sides by (rounding up) when that is
   * cheaper than decoding everything: JPEG does it, other formats return the full size.
   */
  shrink?: number;
}

/** Detects the input format by content; UNSUPPORTED_FORMAT when it is not an image we read. */
export function detectImageFormat(bytes: Uint8Array): InputFormat {
  const type = sniffType(bytes.subarray(0, 64));
  if (type !== undefined && isInputFormat(type)) return type;
  const what = type === 'heic' ? 'HEIC/HEIF images are' : type ? `${type.toUpperCase()} files are` : 'This file is';
  throw new ApiError('UNSUPPORTED_FORMAT', `${what} not a supported image input (JPEG, PNG, WebP, AVIF, BMP, GIF, TIFF)`);
}

export async function decodeImage(bytes: Uint8Array, options: DecodeOptions): Promise<RgbaImage> {
  return (await decodeWithFormat(bytes, options)).image;
}

/** The format and the size as displayed (JPEG orientation applied), from the header alone. */
export function probeImage(bytes: Uint8Array): { format: InputFormat; dims: Dimensions } {
  const format = detectImageFormat(bytes);
  const dims = probeDimensions(format, bytes);
  return { format, dims: format === 'jpeg' ? orientedSize(dims, exifOrientation(bytes)) : dims };
}

/** As decodeImage, also telling which format the input was. */
export async function decodeWithFormat(
  bytes: Uint8Array,
  { maxPixels, checkHeader, shrink = 1 }: DecodeOptions,
): Promise<{ image: RgbaImage; format: InputFormat }> {
  const format = detectImageFormat(bytes);
  const dims = probeDimensions(format, bytes);
  checkPixelLimit(dims, maxPixels);
  checkImageBudget(format, bytes, maxPixels);
  checkHeader?.(dims);
  let image: RgbaImage;
  try {
    image = await DECODERS[format](bytes, dims, shrink);
  } catch (err) {
    if (err instanceof ApiError) throw err;
    noteCodecFailure(err);
    throw new ApiError('INVALID_INPUT', `The ${format.toUpperCase()} image cannot be decoded (corrupt or truncated)`);
  }
  if (!image || image.width < 1 || image.height < 1 || image.data.length !== image.width * image.height * 4) {
    throw new ApiError('INVALID_INPUT', `The ${format.toUpperCase()} image cannot be decoded (no pixels)`);
  }
  checkPixelLimit(image, maxPixels); // a header may lie about the size of what follows
  return { image, format };
}

function isInputFormat(type: SniffedType): type is InputFormat {
  return Object.hasOwn(DECODERS, type);
}

/**
 * The codecs take an ArrayBuffer; avoid a copy when the bytes already own theirs. (Not
 * `bytes.slice()`: on a Node Buffer that is a view of the same, possibly larger, memory.)
 */
export function arrayBufferOf(bytes: Uint8Array): ArrayBuffer {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer) return bytes.buffer;
  return new Uint8Array(bytes).buffer;
}

async function decodeJpeg(bytes: Uint8Array, _dims: Dimensions, shrink: number): Promise<RgbaImage> {
  const image = await decodeJpegShrunk(bytes, shrink);
  if (image) return orient(image, exifOrientation(bytes));
  // MozJPEG applies the EXIF orientation itself when asked.
  return codecs.decodeJpeg(arrayBufferOf(bytes));
}

/** bmp-ts reads every BMP header version (bmp-js ignores the pixel-data offset of V4/V5). */
function decodeBmpImage(bytes: Uint8Array): RgbaImage {
  const bmp = decodeBmp(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), { toRGBA: true });
  const data = new Uint8ClampedArray(bmp.data.buffer, bmp.data.byteOffset, bmp.data.byteLength);
  // Only 32-bit BMPs with an alpha mask carry transparency; elsewhere the fourth byte is padding.
  if (!hasAlphaChannel(bmp)) for (let i = 3; i < data.length; i += 4) data[i] = 255;
  return { data, width: bmp.width, height: Math.abs(bmp.height) };
}

function hasAlphaChannel(bmp: { bitPP: number; compression?: number }): boolean {
  return bmp.bitPP === 32 && (bmp.compression === 3 || bmp.compression === 6);
}

function decodeGifFirstFrame(bytes: Uint8Array): RgbaImage {
  const reader = new omggif.GifReader(bytes);
  const data = new Uint8ClampedArray(reader.width * reader.height * 4);
  reader.decodeAndBlitFrameRGBA(0, data as unknown as Uint8Array);
  return { data, width: reader.width, height: reader.height };
}

function decodeTiffFirstPage(bytes: Uint8Array, dims: Dimensions): RgbaImage {
  const buffer = arrayBufferOf(bytes);
  const [page] = UTIF.decode(buffer);
  if (!page) throw new Error('TIFF without pages');
  UTIF.decodeImage(buffer, page);
  const rgba = UTIF.toRGBA8(page);
  const width = page.width ?? dims.width;
  const height = page.height ?? dims.height;
  return { data: new Uint8ClampedArray(rgba.buffer, rgba.byteOffset, rgba.byteLength), width, height };
}
