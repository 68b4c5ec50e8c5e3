// libjpeg-turbo, for the two things MozJPEG's builds do slowly or not at all here:
// - decoding with DCT scaling (1/2, 1/4, 1/8 of each side), what sharp calls shrink-on-load: a
//   12 MP photo decodes at 1/2 in ~140 ms where a full decode takes ~300 ms plus a halving;
// - baseline encoding without trellis quantisation: 1600×1200 at q85 in ~60 ms against
//   MozJPEG's ~220 ms, SSIM 0.960 vs 0.955, 8 % more bytes.
// Each call gets a fresh instance: a libjpeg error unwinds as a JS exception and may leave an
// instance's stack and heap inconsistent, and a fresh one gives its memory back when done.
// Any failure returns undefined, and the caller uses the MozJPEG codec instead.

import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import { once } from '../shared/once.js';
import type { RgbaImage } from './rgba.js';

const require = createRequire(import.meta.url);

/** The WebAssembly API this file uses (the project's TS lib has no WebAssembly types). */
interface Wasm {
  compile(bytes: Uint8Array): Promise<object>;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}
const { WebAssembly: wasm } = globalThis as unknown as { WebAssembly: Wasm };

// ---- decoding (@cwasm/jpeg-turbo: the TurboJPEG decompression API, no JS glue needed) ----

interface TurboDecoder {
  memory: { buffer: ArrayBuffer };
  malloc(size: number): number;
  tjInitDecompress(): number;
  tjDecompressHeader3(handle: number, jpeg: number, size: number, width: number, height: number, subsampling: number, colourspace: number): number;
  tjDecompress2(
    handle: number,
    jpeg: number,
    size: number,
    out: number,
    width: number,
    pitch: number,
    height: number,
    pixelFormat: number,
    flags: number,
  ): number;
  tjDestroy(handle: number): void;
}

const TJPF_RGBA = 7;

const decoderModule = once(async () => wasm.compile(await fs.readFile(require.resolve('@cwasm/jpeg-turbo/jpeg-turbo.wasm'))));

function unavailable(): never {
  throw new Error('not available in this build');
}

async function newDecoder(): Promise<TurboDecoder> {
  const imports = {
    // TurboJPEG's error handler longjmps back to its setjmp; throwing unwinds out of the call instead.
    env: { setjmp: () => 0, longjmp: unavailable },
    wasi_snapshot_preview1: {
      environ_sizes_get: () => 0,
      environ_get: unavailable,
      proc_exit: unavailable,
      fd_close: unavailable,
      fd_seek: unavailable,
      fd_write: unavailable,
    },
  };
  return new wasm.Instance(await decoderModule(), imports).exports as unknown as TurboDecoder;
}

/**
 * Decodes a JPEG with each side divided by `shrink` (1, 2, 4 or 8; sides round up) as RGBA,
 * orientation not applied. Undefined when libjpeg-turbo reports any problem, a mere warning
 * about a truncated file included.
 */
export async function decodeJpegShrunk(jpeg: Uint8Array, shrink: number): Promise<RgbaImage | undefined> {
  const turbo = await newDecoder();
  try {
    const input = turbo.malloc(jpeg.length);
    new Uint8Array(turbo.memory.buffer, input, jpeg.length).set(jpeg);
    const handle = turbo.tjInitDecompress();
    const header = turbo.malloc(16);
    if (!handle || turbo.tjDecompressHeader3(handle, input, jpeg.length, header, header + 4, header + 8, header + 12) !== 0) return undefined;
    const [fullWidth = 0, fullHeight = 0] = new Int32Array(turbo.memory.buffer, header, 2);
    // Asked for at most this size, TurboJPEG picks the scaling factor 1/shrink.
    const width = Math.ceil(fullWidth / shrink);
    const height = Math.ceil(fullHeight / shrink);
    const output = turbo.malloc(width * height * 4);
    if (!output || turbo.tjDecompress2(handle, input, jpeg.length, output, width, width * 4, height, TJPF_RGBA, 0) !== 0) return undefined;
    return { data: new Uint8ClampedArray(turbo.memory.buffer.slice(output, output + width * height * 4)), width, height };
  } catch {
    return undefined;
  }
}

// ---- encoding (@cornerstonejs/codec-libjpeg-turbo-8bit: TurboJPEG compression behind Embind) ----

interface TurboEncoder {
  getDecodedBuffer(frame: { width: number; height: number; bitsPerSample: number; componentCount: number; isSigned: boolean }): Uint8Array;
  setQuality(quality: number): void;
  setProgressive(progressive: number): void;
  setSubSampling(subsampling: number): void;
  encode(): void;
  getEncodedBuffer(): Uint8ClampedArray;
  delete(): void;
}
type EncoderFactory = (overrides: object) => Promise<{ JPEGEncoder: new () => TurboEncoder }>;

const TJSAMP_420 = 2;

const encoderParts = once(async () => {
  const factory = require('@cornerstonejs/codec-libjpeg-turbo-8bit/wasmjs') as EncoderFactory;
  const module = await wasm.compile(await fs.readFile(require.resolve('@cornerstonejs/codec-libjpeg-turbo-8bit/wasm')));
  return { factory, module };
});

/** Emscripten hands its imports to this hook instead of fetching the .wasm itself. */
type Instantiate = (imports: object, done: (instance: object, module: object) => void) => object;

async function newEncoder(): Promise<TurboEncoder> {
  const { factory, module } = await encoderParts();
  const instantiateWasm: Instantiate = (imports, done) => {
    done(new wasm.Instance(module, imports), module);
    return {};
  };
  const instance = await factory({ instantiateWasm, print: () => undefined, printErr: () => undefined });
  return new instance.JPEGEncoder();
}

/**
 * Baseline JPEG, 4:2:0, standard tables. Fully opaque pixels expected (alpha is dropped);
 * undefined when libjpeg-turbo fails, for instance when its output would outgrow the buffer
 * it is given (the size of the raw pixels: only tiny or near-lossless images do).
 */
export async function encodeJpegBaseline(image: RgbaImage, quality: number): Promise<ArrayBuffer | undefined> {
  try {
    const encoder = await newEncoder();
    const rgb = encoder.getDecodedBuffer({ width: image.width, height: image.height, bitsPerSample: 8, componentCount: 3, isSigned: false });
    packRgb(image.data, rgb);
    encoder.setQuality(quality);
    encoder.setProgressive(0);
    encoder.setSubSampling(TJSAMP_420);
    encoder.encode();
    return encoder.getEncodedBuffer().buffer as ArrayBuffer;
  } catch {
    return undefined;
  }
}

function packRgb(rgba: Uint8ClampedArray, rgb: Uint8Array): void {
  for (let i = 0, j = 0; i < rgba.length; i += 4, j += 3) {
    rgb[j] = rgba[i] as number;
    rgb[j + 1] = rgba[i + 1] as number;
    rgb[j + 2] = rgba[i + 2] as number;
  }
}

/** Compiles both modules in the background when a worker starts, as warmUpCodecs does. */
export function warmUpTurbo(): void {
  for (const start of [decoderModule, encoderParts]) void start().catch(() => undefined);
}
