// The work an image declares beyond its canvas, read from its structure before anything is
// decoded: a GIF's frames (each frame descriptor has its own size, which may be far larger than
// the logical screen the pixel check reads: 65535×65535 inside 16×16 cost 57 s of CPU) and a
// progressive JPEG's scans (each scan is a pass over every coefficient of the image: 6,000 scans
// cost 87 s). Over budget → TOO_LARGE, in the time it takes to read the file's bytes once.

import { ApiError } from './errors.js';

/**
 * libjpeg-turbo's own bound for progressive JPEGs (TJFLAG_LIMITSCANS, djpeg -maxscans): no
 * encoder writes more than a few dozen scans; ImageMagick's and MozJPEG's progressive files
 * have about ten.
 */
export const MAX_JPEG_SCANS = 500;

/** Animated GIFs of real use (stickers, screen captures) have hundreds of frames; ours reads the first. */
export const MAX_GIF_FRAMES = 10_000;

/** Refuses, with TOO_LARGE, a GIF or JPEG whose frames or scans are over budget; other types pass. */
export function checkImageBudget(type: string, bytes: Uint8Array, maxPixels: number): void {
  if (type === 'gif') checkGifFrames(bytes, maxPixels);
  else if (type === 'jpeg') checkJpegScans(bytes);
}

function checkJpegScans(jpeg: Uint8Array): void {
  const scans = countJpegScans(jpeg, MAX_JPEG_SCANS + 1);
  if (scans > MAX_JPEG_SCANS)
    throw new ApiError('TOO_LARGE', `The JPEG image has more than ${MAX_JPEG_SCANS} scans; the budget is ${MAX_JPEG_SCANS} scans/frames`);
}

function checkGifFrames(gif: Uint8Array, maxPixels: number): void {
  let count = 0;
  for (const frame of gifFrames(gif)) {
    count += 1;
    if (frame.width * frame.height > maxPixels) {
      throw new ApiError(
        'TOO_LARGE',
        `GIF frame ${count} is ${frame.width}×${frame.height} (${frame.width * frame.height} pixels); the limit is ${maxPixels} pixels`,
      );
    }
    if (count > MAX_GIF_FRAMES) throw new ApiError('TOO_LARGE', `The GIF has more than ${MAX_GIF_FRAMES} frames; the budget is ${MAX_GIF_FRAMES} scans/frames`);
  }
}

/**
 * Start-of-scan markers, counted up to `stopAt`: the marker segments are walked, and each scan's
 * entropy-coded data skipped up to the next marker (0xFF followed by neither 0x00, a fill byte
 * nor a restart marker). A truncated or damaged file counts what it has; the decoder judges it.
 */
function countJpegScans(jpeg: Uint8Array, stopAt = Infinity): number {
  let scans = 0;
  let at = 2;
  while (at + 4 <= jpeg.length && scans < stopAt) {
    if (jpeg[at] !== 0xff) return scans;
    const marker = jpeg[at + 1] as number;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0xd9) return scans; // end of image
    const length = ((jpeg[at + 2] as number) << 8) | (jpeg[at + 3] as number);
    at += 2 + length;
    if (marker === 0xda) {
      scans += 1;
      at = nextMarker(jpeg, at);
    }
  }
  return scans;
}

/** The offset of the first marker at or after `at` in entropy-coded data. */
function nextMarker(jpeg: Uint8Array, at: number): number {
  for (let i = jpeg.indexOf(0xff, at); i !== -1 && i + 1 < jpeg.length; i = jpeg.indexOf(0xff, i + 1)) {
    const next = jpeg[i + 1] as number;
    const isData = next === 0x00 || next === 0xff || (next >= 0xd0 && next <= 0xd7);
    if (!isData) return i;
  }
  return jpeg.length;
}

interface GifFrame {
  width: number;
  height: number;
}

/**
 * The image descriptors of a GIF, in order: blocks are walked by their sizes (extensions and
 * image data are chains of sub-blocks), nothing decompressed. Stops at the trailer, at an
 * unknown block or at the end of the bytes.
 */
function* gifFrames(gif: Uint8Array): Generator<GifFrame> {
  if (gif.length < 13) return;
  const u16 = (at: number) => (gif[at] as number) | ((gif[at + 1] as number) << 8);
  const screenFlags = gif[10] as number;
  let at = 13 + colourTableBytes(screenFlags);
  while (at < gif.length) {
    const block = gif[at];
    if (block === 0x21) {
      at = skipSubBlocks(gif, at + 2);
    } else if (block === 0x2c) {
      if (at + 10 > gif.length) return;
      yield { width: u16(at + 5), height: u16(at + 7) };
      at = skipSubBlocks(gif, at + 10 + colourTableBytes(gif[at + 9] as number) + 1);
    } else {
      return; // trailer (0x3b) or something that is not GIF
    }
  }
}

function colourTableBytes(flags: number): number {
  return flags & 0x80 ? 3 * 2 ** ((flags & 0x07) + 1) : 0;
}

/** Past a chain of sub-blocks (a size byte, that many bytes; a zero size ends it). */
function skipSubBlocks(gif: Uint8Array, at: number): number {
  let offset = at;
  while (offset < gif.length) {
    const size = gif[offset] as number;
    offset += 1 + size;
    if (size === 0) break;
  }
  return offset;
}
