// Small images that declare far more work than their size: GIFs whose frame descriptors are
// larger than their logical screen, or that have very many frames, and progressive JPEGs with
// very many scans. Built byte by byte from the formats' structure (GIF89a, JPEG markers).

export interface GifFrameSpec {
  width: number;
  height: number;
}

/** One pixel of colour index 0 as LZW data (minimum code size 2): clear, 0, end of information. */
const ONE_PIXEL_LZW = [0x02, 0x02, 0x44, 0x01, 0x00];

/**
 * A GIF89a with a `screen`-sized logical screen, a two-colour global palette and the given
 * frames at (0, 0), each holding one pixel of data whatever size its descriptor claims.
 */
export function gifWithFrames(screen: GifFrameSpec, frames: readonly GifFrameSpec[]): Buffer {
  const u16 = (value: number) => [value & 0xff, value >> 8];
  const header = [...Buffer.from('GIF89a'), ...u16(screen.width), ...u16(screen.height), 0x80, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff];
  const frameBytes = frames.flatMap(({ width, height }) => [0x2c, ...u16(0), ...u16(0), ...u16(width), ...u16(height), 0, ...ONE_PIXEL_LZW]);
  return Buffer.from([...header, ...frameBytes, 0x3b]);
}

/**
 * The progressive JPEG with its shortest refinement scan (SOS header and entropy-coded data)
 * repeated before the end-of-image marker until the file has `scans` scans. Decoders take
 * repeated refinement scans (libjpeg warns and goes on), each a pass over the whole image.
 */
export function jpegWithScans(progressive: Buffer, scans: number): Buffer {
  const end = progressive.lastIndexOf(Buffer.from([0xff, 0xd9]));
  const starts = scanStarts(progressive);
  const bounds = starts.map((start, i) => [start, starts[i + 1] ?? end] as const).slice(1);
  const shortest = bounds.sort((a, b) => a[1] - a[0] - (b[1] - b[0]))[0];
  if (!shortest || end < 0) throw new Error('not a progressive JPEG');
  const scan = progressive.subarray(shortest[0], shortest[1]);
  const copies = Array.from({ length: Math.max(0, scans - starts.length) }, () => scan);
  return Buffer.concat([progressive.subarray(0, end), ...copies, progressive.subarray(end)]);
}

/** Offsets of the SOS markers: segments walked by length, entropy data skipped to the next marker. */
export function scanStarts(jpeg: Buffer): number[] {
  const starts: number[] = [];
  let at = 2;
  while (at + 4 <= jpeg.length && jpeg[at] === 0xff) {
    const marker = jpeg[at + 1] as number;
    if (marker === 0xd9) break;
    if (marker === 0xda) starts.push(at);
    at += 2 + jpeg.readUInt16BE(at + 2);
    if (marker !== 0xda) continue;
    while (at + 1 < jpeg.length && !(jpeg[at] === 0xff && jpeg[at + 1] !== 0 && !((jpeg[at + 1] as number) >= 0xd0 && (jpeg[at + 1] as number) <= 0xd7)))
      at += 1;
  }
  return starts;
}
