// The jSquash codecs, initialised lazily and once per worker thread. Their default init()
// fetches a file:// URL, which Node refuses, so each .wasm is compiled here from the installed
// package and the WebAssembly.Module is handed to the codec's init.

import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import jpegDecode, { init as initJpegDecode } from '@jsquash/jpeg/decode.js';
import jpegEncode, { init as initJpegEncode } from '@jsquash/jpeg/encode.js';
import type { EncodeOptions as JpegOptions } from '@jsquash/jpeg/meta.js';
import pngDecode, { init as initPngDecode } from '@jsquash/png/decode.js';
import pngEncode, { init as initPngEncode } from '@jsquash/png/encode.js';
import webpDecode, { init as initWebpDecode } from '@jsquash/webp/decode.js';
import webpEncode, { init as initWebpEncode } from '@jsquash/webp/encode.js';
import type { EncodeOptions as WebpOptions } from '@jsquash/webp/meta.js';
import avifDecode, { init as initAvifDecode } from '@jsquash/avif/decode.js';
import avifEncode, { init as initAvifEncode } from '@jsquash/avif/encode.js';
import type { EncodeOptions as AvifOptions } from '@jsquash/avif/meta.js';
import resizeImage, { initResize } from '@jsquash/resize';
import oxipngOptimise, { init as initOxipng } from '@jsquash/oxipng/optimise.js';

import { once } from '../shared/once.js';
import type { RgbaImage } from './rgba.js';

export type { JpegOptions, WebpOptions, AvifOptions };

const require = createRequire(import.meta.url);

/** Several codecs construct `ImageData`, which Node lacks; a plain class is all they need. */
class NodeImageData {
  constructor(
    readonly data: Uint8ClampedArray,
    readonly width: number,
    readonly height: number,
  ) {}
}
const globals = globalThis as { ImageData?: unknown };
globals.ImageData ??= NodeImageData;

/** oxipng checks `instanceof ImageData`. */
function toImageData({ data, width, height }: RgbaImage): RgbaImage {
  const ImageDataClass = globals.ImageData as new (data: Uint8ClampedArray, width: number, height: number) => RgbaImage;
  return new ImageDataClass(data, width, height);
}

/** A compiled WebAssembly.Module (the project's TS lib has no WebAssembly types). */
type WasmModule = object;
const { WebAssembly: wasm } = globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<WasmModule> } };

async function compile(packageFile: string): Promise<WasmModule> {
  return wasm.compile(await fs.readFile(require.resolve(packageFile)));
}

/** Emscripten codecs take (module, overrides?) although their .d.ts says otherwise. */
type EmscriptenInit = (module: WasmModule, overrides: object) => Promise<unknown>;

/** libjpeg's warnings ("Premature end of JPEG file") would bypass the request log; errors still throw. */
const QUIET = { print: () => undefined, printErr: () => undefined };

const ready = {
  jpegDecode: once(async () => (initJpegDecode as unknown as EmscriptenInit)(await compile('@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm'), QUIET)),
  jpegEncode: once(async () => (initJpegEncode as unknown as EmscriptenInit)(await compile('@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm'), QUIET)),
  png: once(async () => {
    const module = await compile('@jsquash/png/codec/pkg/squoosh_png_bg.wasm');
    await Promise.all([initPngDecode(module), initPngEncode(module)]);
  }),
  webpDecode: once(async () => (initWebpDecode as unknown as EmscriptenInit)(await compile('@jsquash/webp/codec/dec/webp_dec.wasm'), QUIET)),
  // Node 20 has WASM SIMD, and the package picks its SIMD glue code, so it needs the SIMD binary.
  webpEncode: once(async () => (initWebpEncode as unknown as EmscriptenInit)(await compile('@jsquash/webp/codec/enc/webp_enc_simd.wasm'), QUIET)),
  avifDecode: once(async () => (initAvifDecode as unknown as EmscriptenInit)(await compile('@jsquash/avif/codec/dec/avif_dec.wasm'), QUIET)),
  // In Node the package always uses its single-threaded encoder.
  avifEncode: once(async () => (initAvifEncode as unknown as EmscriptenInit)(await compile('@jsquash/avif/codec/enc/avif_enc.wasm'), QUIET)),
  resize: once(async () => initResize(await compile('@jsquash/resize/lib/resize/pkg/squoosh_resize_bg.wasm'))),
  oxipng: once(async () => initOxipng(await compile('@jsquash/oxipng/codec/pkg/squoosh_oxipng_bg.wasm'))),
};

/**
 * Compiles the common codecs in the background when a worker starts, so the first request does
 * not pay for it. (AVIF's encoder is large and rarely used: it stays lazy.)
 */
export function warmUpCodecs(): void {
  for (const start of [ready.jpegDecode, ready.jpegEncode, ready.png, ready.webpDecode, ready.webpEncode, ready.resize]) void start().catch(() => undefined);
}

export const codecs = {
  async decodeJpeg(bytes: ArrayBuffer): Promise<RgbaImage> {
    await ready.jpegDecode();
    // preserveOrientation: true makes MozJPEG apply the EXIF orientation (checked for all 8 tags).
    return jpegDecode(bytes, { preserveOrientation: true });
  },
  async decodePng(bytes: ArrayBuffer): Promise<RgbaImage> {
    await ready.png();
    return pngDecode(bytes);
  },
  async decodeWebp(bytes: ArrayBuffer): Promise<RgbaImage> {
    await ready.webpDecode();
    return webpDecode(bytes);
  },
  async decodeAvif(bytes: ArrayBuffer): Promise<RgbaImage> {
    await ready.avifDecode();
    const image = await avifDecode(bytes);
    if (!image) throw new Error('AVIF decoding failed');
    return image as RgbaImage;
  },
  async encodeJpeg(image: RgbaImage, options: Partial<JpegOptions>): Promise<ArrayBuffer> {
    await ready.jpegEncode();
    return jpegEncode(image, options);
  },
  async encodePng(image: RgbaImage): Promise<ArrayBuffer> {
    await ready.png();
    return pngEncode(image);
  },
  async encodeWebp(image: RgbaImage, options: Partial<WebpOptions>): Promise<ArrayBuffer> {
    await ready.webpEncode();
    return webpEncode(image, options);
  },
  async encodeAvif(image: RgbaImage, options: Partial<AvifOptions>): Promise<ArrayBuffer> {
    await ready.avifEncode();
    return avifEncode(image, { ...options, bitDepth: 8 });
  },
  async resize(
    image: RgbaImage,
    options: { width: number; height: number; method: 'triangle' | 'lanczos3'; linearRGB: boolean; premultiply: boolean },
  ): Promise<RgbaImage> {
    await ready.resize();
    return resizeImage(image, { ...options, fitMethod: 'stretch' });
  },
  /** Lossless PNG optimisation; oxipng only accepts a real ImageData instance. */
  async optimisePng(image: RgbaImage, level: number): Promise<ArrayBuffer> {
    await ready.oxipng();
    return oxipngOptimise(toImageData(image) as Parameters<typeof oxipngOptimise>[0], { level, interlace: false, optimiseAlpha: true });
  },
  async optimisePngBytes(png: ArrayBuffer, level: number): Promise<ArrayBuffer> {
    await ready.oxipng();
    return oxipngOptimise(png, { level, interlace: false, optimiseAlpha: true });
  },
};

let tainted = false;

/**
 * An Emscripten module that aborted mid-call may be left unusable; after any unexpected codec
 * failure the worker asks to be replaced rather than trust it again.
 */
export function noteCodecFailure(_err: unknown): void {
  tainted = true;
}

export function codecsNeedFreshWorker(): boolean {
  return tainted;
}
