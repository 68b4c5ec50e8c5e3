// Image worker: every endpoint composes the same pipeline — read → decode (by content, EXIF
// orientation applied) → resize → encode by output format (JPEG flattened onto white) → verify
// → write the staged temp output. Files are read and written here so pixels never cross threads.

import type { FileRef } from '../../core/file-ref.js';
import { RECYCLE_AFTER } from '../../core/recycle.js';
import { checkEncodable, type OutputFormat } from '../../core/image-formats.js';
import { defineTask, serveTasks } from '../shared/task.js';
import { readInputFile, writeOutputFile } from '../shared/io.js';
import { codecsNeedFreshWorker, warmUpCodecs } from './codecs.js';
import { decodeWithFormat, detectImageFormat, probeImage } from './decode.js';
import { encodeImage, optimisePngFile } from './encode.js';
import { planFor, planResize, type ResizeRequest } from './geometry.js';
import { checkPixelLimit, probeDimensions } from './probe.js';
import { resizeImage, shrinkOnLoad } from './resize.js';
import { warmUpTurbo } from './turbo.js';
import { pdfImagePixels, type PdfImagePixels } from './pdf-image.js';
import type { RgbaImage } from './rgba.js';
import { verifyEncoded } from './verify.js';

warmUpCodecs();
warmUpTurbo();

let heavyJob = false;
const taskOptions = { shouldRecycle: () => heavyJob || codecsNeedFreshWorker() };

interface JobBase {
  input: FileRef;
  /** Staged temp file to write. */
  output: FileRef;
  format: OutputFormat;
  quality: number;
  maxPixels: number;
}

export type ConvertTask = JobBase;
export interface ConvertResult {
  width: number;
  height: number;
  format: OutputFormat;
  bytes: number;
}

export type CompressTask = JobBase;
export interface CompressResult {
  inputBytes: number;
  outputBytes: number;
  format: OutputFormat;
  /** The re-encoded file was not smaller, so the original bytes were written instead. */
  keptOriginal: boolean;
}

export type ResizeTask = JobBase & ResizeRequest;
export interface ResizeResult {
  width: number;
  height: number;
  format: OutputFormat;
  bytes: number;
}

/**
 * `writes`: the output format, when the input's own size must fit it (convert, compress).
 * `shrink`: see DecodeOptions.
 */
async function decodeInput(bytes: Uint8Array, maxPixels: number, writes?: OutputFormat, shrink?: number): Promise<RgbaImage> {
  heavyJob = false;
  const checkHeader = writes === undefined ? undefined : (dims: { width: number; height: number }) => checkEncodable(dims, writes);
  const { image } = await decodeWithFormat(bytes, { maxPixels, checkHeader, shrink });
  heavyJob = image.width * image.height > RECYCLE_AFTER.imagePixels;
  return image;
}

const convert = defineTask(async ({ input, output, format, quality, maxPixels }: ConvertTask): Promise<ConvertResult> => {
  const image = await decodeInput(readInputFile(input), maxPixels, format);
  const { width, height } = image;
  const encoded = await encodeImage(image, format, { quality, goal: 'speed' });
  writeOutputFile(output, encoded);
  return { width, height, format, bytes: encoded.length };
}, taskOptions);

const resize = defineTask(async ({ input, output, format, quality, maxPixels, ...request }: ResizeTask): Promise<ResizeResult> => {
  const bytes = readInputFile(input);
  // Planned from the header, so that a JPEG can be decoded at the smaller size the plan needs.
  const { dims } = probeImage(bytes);
  checkPixelLimit(dims, maxPixels);
  const plan = planResize(dims, request);
  checkPixelLimit(plan, maxPixels);
  checkEncodable(plan, format);
  const image = await decodeInput(bytes, maxPixels, undefined, shrinkOnLoad(plan));
  const resized = await resizeImage(image, planFor(plan, dims, image));
  const encoded = await encodeImage(resized, format, { quality, goal: 'speed' });
  writeOutputFile(output, encoded);
  return { width: plan.width, height: plan.height, format, bytes: encoded.length };
}, taskOptions);

const compress = defineTask(async ({ input, output, format, quality, maxPixels }: CompressTask): Promise<CompressResult> => {
  const original = readInputFile(input);
  const inputFormat = detectImageFormat(original);
  const encoded =
    inputFormat === 'png' && format === 'png'
      ? await optimisePng(original, maxPixels)
      : await encodeImage(await decodeInput(original, maxPixels, format), format, { quality, goal: 'size' });
  // Compressing must never make the file bigger: same format and no gain → keep the original.
  const keptOriginal = inputFormat === format && encoded.length >= original.length;
  const written = keptOriginal ? original : encoded;
  writeOutputFile(output, written);
  return { inputBytes: original.length, outputBytes: written.length, format, keptOriginal };
}, taskOptions);

export interface PdfImageTask {
  input: FileRef;
  maxPixels: number;
}

/** An image decoded for a PDF page (images → PDF): lossless, deflated here so the main thread only writes. */
const pdfImage = defineTask(async ({ input, maxPixels }: PdfImageTask): Promise<PdfImagePixels> => {
  heavyJob = false;
  const result = await pdfImagePixels(readInputFile(input), maxPixels);
  heavyJob = result.width * result.height > RECYCLE_AFTER.imagePixels;
  return result;
}, taskOptions);

const tasks = { convert, resize, compress, pdfImage };
export type ImageTasks = typeof tasks;
export default serveTasks(tasks);

/** PNG → PNG works on the file itself (oxipng), so bit depth and palette survive untouched. */
async function optimisePng(png: Uint8Array, maxPixels: number): Promise<Uint8Array> {
  heavyJob = false;
  const dims = probeDimensions('png', png);
  checkPixelLimit(dims, maxPixels);
  heavyJob = dims.width * dims.height > RECYCLE_AFTER.imagePixels;
  const optimised = await optimisePngFile(png);
  verifyEncoded(optimised, 'png', dims.width, dims.height);
  return optimised;
}
