// What an image file says about how it is meant to be shown, read from its header without
// decoding: the EXIF orientation of a JPEG, and the resolution a JPEG (JFIF or EXIF) or PNG
// (pHYs) declares. PDF pages built from images take their size and transform from these.

export interface Resolution {
  x: number;
  y: number;
}

/** EXIF orientation 1–8 (1 when absent or unreadable). */
export function jpegOrientation(jpeg: Uint8Array): number {
  const exif = findExif(jpeg);
  const value = exif ? readIfd0Short(exif, 0x0112) : undefined;
  return value !== undefined && value >= 1 && value <= 8 ? value : 1;
}

/** The resolution a JPEG declares in its JFIF header (or EXIF), in dots per inch. */
export function jpegResolution(jpeg: Uint8Array): Resolution | undefined {
  for (const segment of jpegSegments(jpeg)) {
    if (segment.marker !== 0xe0 || ascii(jpeg, segment.start, 5) !== 'JFIF\0') continue;
    const at = segment.start + 7;
    const units = jpeg[at];
    const view = dataView(jpeg);
    const x = view.getUint16(at + 1);
    const y = view.getUint16(at + 3);
    if (units === 1) return positive({ x, y });
    if (units === 2) return positive({ x: x * 2.54, y: y * 2.54 });
  }
  const exif = findExif(jpeg);
  const unit = exif ? (readIfd0Short(exif, 0x0128) ?? 2) : undefined;
  const x = exif ? readIfd0Rational(exif, 0x011a) : undefined;
  const y = exif ? readIfd0Rational(exif, 0x011b) : undefined;
  if (x === undefined || y === undefined || (unit !== 2 && unit !== 3)) return undefined;
  return positive(unit === 3 ? { x: x * 2.54, y: y * 2.54 } : { x, y });
}

/** The resolution of a PNG's pHYs chunk (pixels per metre), in dots per inch. */
export function pngResolution(png: Uint8Array): Resolution | undefined {
  const view = dataView(png);
  for (let at = 8; at + 12 <= png.length;) {
    const length = view.getUint32(at);
    const type = ascii(png, at + 4, 4);
    if (type === 'pHYs' && length >= 9 && png[at + 16] === 1) {
      return positive({ x: view.getUint32(at + 8) * 0.0254, y: view.getUint32(at + 12) * 0.0254 });
    }
    if (type === 'IDAT' || type === 'IEND') return undefined;
    at += 12 + length;
  }
  return undefined;
}

interface Segment {
  marker: number;
  /** Offset of the segment's payload (after its length). */
  start: number;
  length: number;
}

function* jpegSegments(jpeg: Uint8Array): Generator<Segment> {
  const view = dataView(jpeg);
  let at = 2;
  while (at + 4 <= jpeg.length && jpeg[at] === 0xff) {
    const marker = jpeg[at + 1] as number;
    if (marker === 0xda || marker === 0xd9) return; // image data follows: no more headers
    const length = view.getUint16(at + 2);
    yield { marker, start: at + 4, length: length - 2 };
    at += 2 + length;
  }
}

/** The TIFF structure inside the APP1 "Exif" segment. */
interface Exif {
  view: DataView;
  little: boolean;
  ifd0: number;
}

function findExif(jpeg: Uint8Array): Exif | undefined {
  for (const segment of jpegSegments(jpeg)) {
    if (segment.marker !== 0xe1 || ascii(jpeg, segment.start, 6) !== 'Exif\0\0') continue;
    const view = new DataView(jpeg.buffer, jpeg.byteOffset + segment.start + 6, Math.max(0, segment.length - 6));
    if (view.byteLength < 8) return undefined;
    const little = view.getUint16(0) === 0x4949;
    return { view, little, ifd0: view.getUint32(4, little) };
  }
  return undefined;
}

function ifd0Entry({ view, little, ifd0 }: Exif, tag: number): number | undefined {
  try {
    const count = view.getUint16(ifd0, little);
    for (let i = 0; i < count; i++) {
      const entry = ifd0 + 2 + i * 12;
      if (view.getUint16(entry, little) === tag) return entry;
    }
  } catch {
    // an offset past the segment: a damaged EXIF block says nothing
  }
  return undefined;
}

function readIfd0Short(exif: Exif, tag: number): number | undefined {
  const entry = ifd0Entry(exif, tag);
  return entry === undefined ? undefined : exif.view.getUint16(entry + 8, exif.little);
}

function readIfd0Rational(exif: Exif, tag: number): number | undefined {
  const entry = ifd0Entry(exif, tag);
  if (entry === undefined) return undefined;
  try {
    const offset = exif.view.getUint32(entry + 8, exif.little);
    const denominator = exif.view.getUint32(offset + 4, exif.little);
    return denominator ? exif.view.getUint32(offset, exif.little) / denominator : undefined;
  } catch {
    return undefined;
  }
}

function positive(resolution: Resolution): Resolution | undefined {
  return resolution.x > 0 && resolution.y > 0 ? resolution : undefined;
}

function ascii(bytes: Uint8Array, start: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(start, start + length));
}

function dataView(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export interface JpegFrame {
  width: number;
  height: number;
  components: number;
  bitsPerComponent: number;
  /** An Adobe APP14 marker: CMYK data written inverted (Photoshop and most of its kin). */
  adobe: boolean;
}

/** The frame header (SOFn) of a JPEG; undefined when there is none before the image data. */
export function jpegFrame(jpeg: Uint8Array): JpegFrame | undefined {
  const view = dataView(jpeg);
  let adobe = false;
  for (const segment of jpegSegments(jpeg)) {
    if (segment.marker === 0xee && ascii(jpeg, segment.start, 5) === 'Adobe') adobe = true;
    const isFrame = segment.marker >= 0xc0 && segment.marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(segment.marker);
    if (!isFrame || segment.start + 6 > jpeg.length) continue;
    const frame = {
      bitsPerComponent: jpeg[segment.start] as number,
      height: view.getUint16(segment.start + 1),
      width: view.getUint16(segment.start + 3),
      components: jpeg[segment.start + 5] as number,
    };
    return { ...frame, adobe };
  }
  return undefined;
}
