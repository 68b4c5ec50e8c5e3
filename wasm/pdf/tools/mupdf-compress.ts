// compress on mupdf: images drawn above maxDpi are downsampled (their soft masks with them),
// continuous-tone images are re-encoded as JPEG at `quality` (photo-jpeg.ts) when that is
// smaller than what they are stored as, and the document is saved with unused objects dropped,
// duplicates merged, streams compressed and object streams (after private-data.ts has dropped
// thumbnails and other applications' private data). Text and vector content are not touched.

import * as mupdf from 'mupdf';
import type { CompressOptions } from '../engine.js';
import { imageObjects, isName, pixelsNeeded, type PixelNeed } from './image-usage.js';
import { encodePhotoJpeg } from './photo-jpeg.js';
import { flateWithPngPredictor } from './png-predicted-flate.js';

export const COMPRESSED_SAVE = 'encrypt=none,garbage=deduplicate,compress=yes,compress-images=yes,compress-fonts=yes,objstms=yes';

/** Below this, downsampling saves too little to be worth a generation of JPEG loss. */
const DOWNSAMPLE_THRESHOLD = 1.2;
/**
 * A JPEG kept at its size is re-encoded only when that saves at least this share of it: a
 * second generation of JPEG loss for a few per cent is a bad trade.
 */
const JPEG_REENCODE_GAIN = 0.1;
/** Smaller images (icons, bullets) are left alone: little to gain, easy to damage. */
const MIN_SIDE = 32;
/** Colour spaces whose samples JPEG can carry as they are. */
const JPEG_COMPONENTS = new Set([1, 3]);

export async function recompressImages(doc: mupdf.PDFDocument, { quality, maxDpi }: CompressOptions): Promise<void> {
  const needs = pixelsNeeded(doc, maxDpi);
  const masks = softMaskParents(doc);
  for (const ref of [...imageObjects(doc)]) {
    const parents = masks.get(ref.asIndirect());
    if (parents) rewriteMask(doc, ref, widestNeed(parents.map((parent) => needs.get(parent))));
    else await rewriteImage(doc, ref, needs.get(ref.asIndirect()), quality);
  }
}

async function rewriteImage(doc: mupdf.PDFDocument, ref: mupdf.PDFObject, need: PixelNeed | undefined, quality: number): Promise<void> {
  // Stream access needs the reference: the resolved dictionary does not carry the stream.
  if (!isPhotoCandidate(ref)) return;
  const image = doc.loadImage(ref);
  const scale = need ? downsampleScale(image, need) : 1;
  const pixmap = samples(image, scale);
  image.destroy();
  try {
    const jpeg = await encodePhotoJpeg(pixmap, quality);
    if (jpeg.length > largestWorthWriting(ref, scale)) return;
    ref.writeRawStream(jpeg);
    describeJpeg(doc, ref, pixmap);
  } finally {
    pixmap.destroy();
  }
}

/** The most bytes a re-encoded image may take to replace what is stored. */
function largestWorthWriting(ref: mupdf.PDFObject, scale: number): number {
  const stored = rawLength(ref);
  const keptJpeg = scale === 1 && isName(ref.get('Filter'), 'DCTDecode');
  return keptJpeg ? stored * (1 - JPEG_REENCODE_GAIN) : stored - 1;
}

function rawLength(ref: mupdf.PDFObject): number {
  const raw = ref.readRawStream();
  try {
    return raw.getLength();
  } finally {
    raw.destroy();
  }
}

/** 8 or 16 bits, not a mask, not palette-based, no colour-key mask, gray or RGB: a photo, or close enough. */
function isPhotoCandidate(dict: mupdf.PDFObject): boolean {
  if (dict.get('ImageMask').isBoolean() && dict.get('ImageMask').asBoolean()) return false;
  if (dict.get('Mask').isArray() || !dict.get('SMaskInData').isNull()) return false;
  const bpc = dict.get('BitsPerComponent');
  if (!bpc.isNumber() || (bpc.asNumber() !== 8 && bpc.asNumber() !== 16)) return false;
  const width = dict.get('Width').asNumber();
  const height = dict.get('Height').asNumber();
  return width >= MIN_SIDE && height >= MIN_SIDE && JPEG_COMPONENTS.has(components(dict.get('ColorSpace')));
}

/** Components of a gray, RGB or ICC-based colour space; 0 for anything JPEG should not carry. */
function components(colorSpace: mupdf.PDFObject): number {
  const space = colorSpace.resolve();
  if (isName(space, 'DeviceGray') || isName(space, 'CalGray')) return 1;
  if (isName(space, 'DeviceRGB') || isName(space, 'CalRGB')) return 3;
  if (space.isArray() && isName(space.get(0), 'ICCBased')) return space.get(1).resolve().get('N').asNumber();
  if (space.isArray() && (isName(space.get(0), 'CalRGB') || isName(space.get(0), 'CalGray'))) return isName(space.get(0), 'CalRGB') ? 3 : 1;
  return 0;
}

function downsampleScale(image: mupdf.Image, need: PixelNeed): number {
  const scale = Math.max(need.width / image.getWidth(), need.height / image.getHeight());
  return scale * DOWNSAMPLE_THRESHOLD < 1 ? scale : 1;
}

/** The image's samples at `scale`, without alpha (a soft mask stays a separate object). */
function samples(image: mupdf.Image, scale: number): mupdf.Pixmap {
  const full = image.toPixmap();
  if (scale === 1 && full.getAlpha() === 0) return full;
  try {
    return resample(full, Math.max(1, Math.round(image.getWidth() * scale)), Math.max(1, Math.round(image.getHeight() * scale)));
  } finally {
    full.destroy();
  }
}

/** Draws `source` into a new pixmap of the given size: mupdf's draw device filters as it scales. */
function resample(source: mupdf.Pixmap, width: number, height: number): mupdf.Pixmap {
  const colorSpace = source.getColorSpace() ?? mupdf.ColorSpace.DeviceRGB;
  const target = new mupdf.Pixmap(colorSpace, [0, 0, width, height], false);
  target.clear(255);
  const image = new mupdf.Image(source);
  const device = new mupdf.DrawDevice(mupdf.Matrix.identity, target);
  try {
    device.fillImage(image, [width, 0, 0, height, 0, 0], 1);
    device.close();
  } finally {
    device.destroy();
    image.destroy();
  }
  return target;
}

function describeJpeg(doc: mupdf.PDFDocument, dict: mupdf.PDFObject, pixmap: mupdf.Pixmap): void {
  dict.put('Filter', doc.newName('DCTDecode'));
  dict.delete('DecodeParms');
  dict.delete('Decode'); // the samples were decoded with it already
  dict.put('Width', pixmap.getWidth());
  dict.put('Height', pixmap.getHeight());
  dict.put('BitsPerComponent', 8);
}

/**
 * Object numbers of soft masks, each with the images it masks. Masks stay lossless (JPEG noise
 * shows as halos at edges) but are downsampled as their images are (rewriteMask).
 */
function softMaskParents(doc: mupdf.PDFDocument): Map<number, number[]> {
  const parents = new Map<number, number[]>();
  for (const ref of imageObjects(doc)) {
    const mask = ref.get('SMask');
    if (!mask.isIndirect()) continue;
    const known = parents.get(mask.asIndirect());
    if (known) known.push(ref.asIndirect());
    else parents.set(mask.asIndirect(), [ref.asIndirect()]);
  }
  return parents;
}

/** The most pixels any of the images a mask serves needs; none when one of them went unmeasured. */
function widestNeed(needs: readonly (PixelNeed | undefined)[]): PixelNeed | undefined {
  if (needs.some((need) => need === undefined)) return undefined;
  return (needs as PixelNeed[]).reduce((a, b) => ({ width: Math.max(a.width, b.width), height: Math.max(a.height, b.height) }));
}

/**
 * A soft mask, downsampled when drawn above maxDpi, stored as 8-bit gray under Flate with PNG
 * predictors when that is smaller than what is stored.
 */
function rewriteMask(doc: mupdf.PDFDocument, ref: mupdf.PDFObject, need: PixelNeed | undefined): void {
  // A Matte mask pairs with colour samples premultiplied by it: left as it is.
  if (!ref.get('Matte').isNull() || ref.get('Width').asNumber() < MIN_SIDE || ref.get('Height').asNumber() < MIN_SIDE) return;
  const image = doc.loadImage(ref);
  const scale = need ? downsampleScale(image, need) : 1;
  const gray = image.getNumberOfComponents() === 1;
  const pixmap = gray ? samples(image, scale) : undefined;
  image.destroy();
  if (!pixmap) return;
  try {
    const width = pixmap.getWidth();
    const { data, decodeParms } = flateWithPngPredictor(packedSamples(pixmap), width, 1);
    if (data.length >= rawLength(ref)) return;
    ref.writeRawStream(data);
    ref.put('Filter', doc.newName('FlateDecode'));
    ref.put('DecodeParms', decodeParms);
    ref.put('Width', width);
    ref.put('Height', pixmap.getHeight());
    ref.put('BitsPerComponent', 8);
    ref.put('ColorSpace', doc.newName('DeviceGray'));
    ref.delete('Decode'); // applied to the samples already
  } finally {
    pixmap.destroy();
  }
}

/** A gray pixmap's samples without row padding. */
function packedSamples(pixmap: mupdf.Pixmap): Uint8Array {
  const width = pixmap.getWidth();
  const stride = pixmap.getStride();
  const pixels = pixmap.getPixels();
  if (stride === width) return new Uint8Array(pixels);
  const packed = new Uint8Array(width * pixmap.getHeight());
  for (let y = 0; y < pixmap.getHeight(); y++) packed.set(pixels.subarray(y * stride, y * stride + width), y * width);
  return packed;
}
