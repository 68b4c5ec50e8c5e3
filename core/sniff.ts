// Judges a file's type by its first bytes, not its name. The bytes are read through a checked
// descriptor (src/files/paths.ts readInputHead), never by opening a path here.

import fs from 'node:fs/promises';

export type SniffedType = 'pdf' | 'jpeg' | 'png' | 'webp' | 'avif' | 'heic' | 'gif' | 'bmp' | 'tiff' | 'zip' | 'ole' | 'rtf';

const HEAD_BYTES = 64;

/** The first `length` bytes (or fewer) of an open file. */
export async function readHeadOf(handle: fs.FileHandle, length = HEAD_BYTES): Promise<Uint8Array> {
  const buffer = new Uint8Array(length);
  const { bytesRead } = await handle.read(buffer, 0, length, 0);
  return buffer.subarray(0, bytesRead);
}

export function sniffType(head: Uint8Array): SniffedType | undefined {
  const ascii = (start: number, end: number) => String.fromCharCode(...head.subarray(start, end));
  const starts = (...bytes: number[]) => bytes.every((b, i) => head[i] === b);
  if (findPdfHeader(head)) return 'pdf';
  if (starts(0xff, 0xd8, 0xff)) return 'jpeg';
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp';
  if (ascii(4, 8) === 'ftyp') {
    const brand = ascii(8, 12);
    if (brand === 'avif' || brand === 'avis') return 'avif';
    if (['heic', 'heix', 'hevc', 'heim', 'heis', 'mif1', 'msf1'].includes(brand)) return 'heic';
  }
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return 'gif';
  if (ascii(0, 2) === 'BM') return 'bmp';
  if (starts(0x49, 0x49, 0x2a, 0x00) || starts(0x4d, 0x4d, 0x00, 0x2a)) return 'tiff';
  if (starts(0x50, 0x4b, 0x03, 0x04)) return 'zip';
  if (starts(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1)) return 'ole';
  if (ascii(0, 5) === '{\\rtf') return 'rtf';
  return undefined;
}

/** PDF readers accept `%PDF-` anywhere in the first 1 KiB; we look in the head we read. */
function findPdfHeader(head: Uint8Array): boolean {
  const text = String.fromCharCode(...head);
  return text.includes('%PDF-');
}
