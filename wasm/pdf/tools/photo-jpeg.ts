// JPEG for the photos compress re-encodes: MozJPEG (the image worker's codec, jSquash) with the
// standard quantisation tables, so `quality` means what it means to libjpeg and Ghostscript,
// plus what mupdf's own encoder (Pixmap.asJPEG) lacks: 4:2:0 chroma subsampling (mupdf keeps
// full-resolution chroma, 4:4:4), optimised Huffman tables, progressive scans and trellis
// quantisation. Measured on photos downsampled to 150 dpi: about 45 % of mupdf's bytes at
// quality 70, with an SSIM within 0.003 of it; against libjpeg at Ghostscript /ebook's
// setting (4:2:0, about quality 62), the same size or smaller with a higher SSIM.

import type * as mupdf from 'mupdf';
import { codecs, type JpegOptions } from '../../image/codecs.js';
import { createRgba, type RgbaImage } from '../../image/rgba.js';

/**
 * Larger images go to mupdf's own encoder (4:4:4, about twice the bytes), which reads the
 * pixmap where it is: MozJPEG wants an RGBA copy (4 bytes a pixel) and copies that into its own
 * heap, over 200 MB for an image this size. Only images drawn at or below maxDpi get here
 * (anything downsampled is far smaller), so a hostile or poster-sized one.
 */
const MOZJPEG_MAX_PIXELS = 24_000_000;
/** From this quality on the colour is kept at full resolution, as Ghostscript's /printer does. */
const FULL_CHROMA_FROM = 90;
/** MozJPEG's colour spaces (its enum is a const enum in a .d.ts: the values, named here). */
const GRAYSCALE = 1;
const YCBCR = 3;
/** Annex K tables (MozJPEG's default, 3, is tuned for its own quality scale). */
const STANDARD_TABLES = 0;

/** The pixmap (gray or RGB, no alpha) as a JPEG of the same size and number of components. */
export async function encodePhotoJpeg(pixmap: mupdf.Pixmap, quality: number): Promise<Uint8Array> {
  if (pixmap.getWidth() * pixmap.getHeight() > MOZJPEG_MAX_PIXELS) return pixmap.asJPEG(quality, false);
  const gray = pixmap.getNumberOfComponents() === 1;
  const options: Partial<JpegOptions> = {
    quality,
    baseline: false,
    progressive: true,
    optimize_coding: true,
    trellis_loops: 1,
    quant_table: STANDARD_TABLES,
    color_space: gray ? GRAYSCALE : YCBCR,
    auto_subsample: false,
    chroma_subsample: quality >= FULL_CHROMA_FROM ? 1 : 2,
  };
  return new Uint8Array(await codecs.encodeJpeg(rgbaOf(pixmap), options));
}

/** MozJPEG reads RGBA; gray samples are spread over R, G and B (its gray conversion gives them back). */
function rgbaOf(pixmap: mupdf.Pixmap): RgbaImage {
  const image = createRgba(pixmap.getWidth(), pixmap.getHeight());
  const { data, width, height } = image;
  const samples = pixmap.getPixels();
  const stride = pixmap.getStride();
  const n = pixmap.getNumberOfComponents();
  let out = 0;
  for (let y = 0; y < height; y++) {
    let at = y * stride;
    for (let x = 0; x < width; x++, at += n) {
      data[out] = samples[at] as number;
      data[out + 1] = samples[at + (n === 1 ? 0 : 1)] as number;
      data[out + 2] = samples[at + (n === 1 ? 0 : 2)] as number;
      data[out + 3] = 255;
      out += 4;
    }
  }
  return image;
}
