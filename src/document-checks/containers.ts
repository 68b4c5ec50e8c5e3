// Just enough of the ZIP and OLE (Compound File) formats to tell which office document a file
// really is without LibreOffice: entry names of a ZIP, one small entry's bytes, the stream
// names of an OLE container, the first sector of one stream, and a whole stream (an encrypted
// Office package's, to decrypt it: document-checks/office-decrypt.ts).

import fs from 'node:fs/promises';
import { Readable } from 'node:stream';
import { inflateRawSync } from 'node:zlib';

type FileHandle = fs.FileHandle;

async function readAt(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(Math.max(0, length));
  const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
  return buffer.subarray(0, bytesRead);
}

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  /** As the central directory declares it: a liar is caught by the office's memory ceiling instead. */
  uncompressedSize: number;
  localHeaderOffset: number;
}

/** Entries of the central directory; undefined when the archive is truncated or not a ZIP. */
export async function readZipEntries(handle: FileHandle, size: number): Promise<ZipEntry[] | undefined> {
  const tailLength = Math.min(size, 22 + 0xffff);
  const tail = await readAt(handle, size - tailLength, tailLength);
  let eocd = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return undefined;
  const count = tail.readUInt16LE(eocd + 10);
  const cdSize = tail.readUInt32LE(eocd + 12);
  const cdOffset = tail.readUInt32LE(eocd + 16);
  if (cdOffset + cdSize > size) return undefined;
  const cd = await readAt(handle, cdOffset, cdSize);
  const entries: ZipEntry[] = [];
  let p = 0;
  for (let i = 0; i < count && p + 46 <= cd.length; i++) {
    if (cd.readUInt32LE(p) !== 0x02014b50) return undefined;
    const nameLength = cd.readUInt16LE(p + 28);
    const extraLength = cd.readUInt16LE(p + 30);
    const commentLength = cd.readUInt16LE(p + 32);
    entries.push({
      name: cd.toString('utf8', p + 46, p + 46 + nameLength),
      method: cd.readUInt16LE(p + 10),
      compressedSize: cd.readUInt32LE(p + 20),
      uncompressedSize: cd.readUInt32LE(p + 24),
      localHeaderOffset: cd.readUInt32LE(p + 42),
    });
    p += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** Where an entry's (compressed) data starts; undefined when its local header is not there. */
async function entryDataStart(handle: FileHandle, entry: ZipEntry): Promise<number | undefined> {
  const header = await readAt(handle, entry.localHeaderOffset, 30);
  if (header.length < 30 || header.readUInt32LE(0) !== 0x04034b50) return undefined;
  return entry.localHeaderOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
}

/**
 * An entry's stored data as a stream (deflated still when its method is 8); undefined when its
 * header is missing or its method is neither stored nor deflated. The handle stays open.
 */
export async function zipEntryData(handle: FileHandle, entry: ZipEntry): Promise<Readable | undefined> {
  const start = await entryDataStart(handle, entry);
  if (start === undefined || (entry.method !== 0 && entry.method !== 8) || entry.compressedSize === 0) return undefined;
  return Readable.from(chunksOf(handle, start, entry.compressedSize));
}

/** `length` bytes from `start`, a slice at a time (a stream made on the handle itself would close it when destroyed). */
async function* chunksOf(handle: FileHandle, start: number, length: number, slice = 1 << 20): AsyncGenerator<Buffer> {
  for (let offset = 0; offset < length;) {
    const chunk = await readAt(handle, start + offset, Math.min(slice, length - offset));
    if (chunk.length === 0) return;
    offset += chunk.length;
    yield chunk;
  }
}

/** The bytes of a small entry (stored or deflated); undefined if unreadable. */
export async function readZipEntry(handle: FileHandle, entry: ZipEntry, maxBytes = 1 << 20): Promise<Buffer | undefined> {
  if (entry.compressedSize > maxBytes) return undefined;
  const start = await entryDataStart(handle, entry);
  if (start === undefined) return undefined;
  const data = await readAt(handle, start, entry.compressedSize);
  try {
    if (entry.method === 0) return data;
    if (entry.method === 8) return inflateRawSync(data, { maxOutputLength: maxBytes * 8 });
  } catch {
    return undefined;
  }
  return undefined;
}

export interface OleStream {
  name: string;
  startSector: number;
  size: number;
}

export interface OleContainer {
  streams: OleStream[];
  /** The first `length` bytes of a stream (at most one sector). */
  readStreamHead(stream: OleStream, length: number): Promise<Buffer>;
  /** A whole stream, following its sector chain; undefined when the chain is damaged. */
  readStream(stream: OleStream): Promise<Buffer | undefined>;
}

const ENDOFCHAIN = 0xfffffffe;

/**
 * The FAT's own sectors: the 109 the header lists, then those of the DIFAT chain (files past
 * ~7 MB at 512-byte sectors); undefined when that chain is damaged.
 */
async function fatSectorList(handle: FileHandle, header: Buffer, sectorSize: number, size: number): Promise<number[] | undefined> {
  const sectors: number[] = [];
  const add = (sector: number) => sector < 0xfffffffa && sectors.push(sector);
  for (let i = 0; i < 109; i++) add(header.readUInt32LE(0x4c + i * 4));
  const perSector = sectorSize / 4 - 1;
  let difat = header.readUInt32LE(0x44);
  for (let count = 0; difat < 0xfffffffa; count++) {
    if (count >= header.readUInt32LE(0x48) || (difat + 1) * sectorSize >= size) return count === 0 ? sectors : undefined;
    const block = await readAt(handle, (difat + 1) * sectorSize, sectorSize);
    for (let i = 0; i < perSector; i++) add(block.readUInt32LE(i * 4));
    difat = block.readUInt32LE(perSector * 4);
  }
  return sectors;
}

/** Directory of a Compound File Binary container; undefined when it is damaged. */
export async function readOleContainer(handle: FileHandle, size: number): Promise<OleContainer | undefined> {
  const header = await readAt(handle, 0, 512);
  if (header.length < 512) return undefined;
  const sectorSize = 1 << header.readUInt16LE(0x1e);
  if (sectorSize !== 512 && sectorSize !== 4096) return undefined;
  const sectorOffset = (sector: number) => (sector + 1) * sectorSize;
  const fatSectors = await fatSectorList(handle, header, sectorSize, size);
  if (!fatSectors) return undefined;
  const fat = Buffer.concat(await Promise.all(fatSectors.map((s) => readAt(handle, sectorOffset(s), sectorSize))));
  const next = (sector: number) => (sector * 4 + 4 <= fat.length ? fat.readUInt32LE(sector * 4) : ENDOFCHAIN);

  const streams: OleStream[] = [];
  let rootStart = ENDOFCHAIN;
  let rootSize = 0;
  const seen = new Set<number>();
  for (let sector = header.readUInt32LE(0x30); sector !== ENDOFCHAIN && !seen.has(sector); sector = next(sector)) {
    seen.add(sector);
    if (sectorOffset(sector) >= size || seen.size > 10_000) return undefined;
    const dir = await readAt(handle, sectorOffset(sector), sectorSize);
    for (let p = 0; p + 128 <= dir.length; p += 128) {
      const nameBytes = dir.readUInt16LE(p + 0x40);
      const type = dir[p + 0x42];
      if (type === 5) [rootStart, rootSize] = [dir.readUInt32LE(p + 0x74), dir.readUInt32LE(p + 0x78)];
      if (type !== 1 && type !== 2 && type !== 5) continue;
      const name = dir.toString('utf16le', p, p + Math.max(0, Math.min(64, nameBytes) - 2));
      streams.push({ name, startSector: dir.readUInt32LE(p + 0x74), size: dir.readUInt32LE(p + 0x78) });
    }
  }
  const miniCutoff = header.readUInt32LE(0x38);
  // Small streams live in 64-byte mini sectors inside the root entry's own sector chain.
  const miniStreamOffset = (miniSector: number): number | undefined => {
    const byteOffset = miniSector * 64;
    let sector = rootStart;
    for (let i = 0; i < Math.floor(byteOffset / sectorSize) && sector !== ENDOFCHAIN; i++) sector = next(sector);
    return sector === ENDOFCHAIN ? undefined : sectorOffset(sector) + (byteOffset % sectorSize);
  };
  /** The sectors of the chain from `start` (`nextOf` follows a FAT or the mini FAT); undefined if it is longer than `limit` (a loop). */
  const chain = (start: number, nextOf: (sector: number) => number, limit: number): number[] | undefined => {
    const sectors: number[] = [];
    for (let sector = start; sector !== ENDOFCHAIN; sector = nextOf(sector)) {
      if (sectors.length >= limit || sector >= 0xfffffffa) return undefined;
      sectors.push(sector);
    }
    return sectors;
  };
  const sectorsIn = Math.ceil(size / sectorSize);
  const readChain = async (start: number, bytes: number): Promise<Buffer | undefined> => {
    const sectors = chain(start, next, sectorsIn);
    if (!sectors || sectors.length * sectorSize < bytes) return undefined;
    const data = Buffer.concat(await Promise.all(sectors.map((s) => readAt(handle, sectorOffset(s), sectorSize))));
    return data.length < bytes ? undefined : data.subarray(0, bytes);
  };
  const readMiniStream = async (stream: OleStream): Promise<Buffer | undefined> => {
    const miniFat = await readChain(header.readUInt32LE(0x3c), header.readUInt32LE(0x40) * sectorSize);
    const container = await readChain(rootStart, rootSize);
    if (!miniFat || !container) return undefined;
    const miniNext = (sector: number) => (sector * 4 + 4 <= miniFat.length ? miniFat.readUInt32LE(sector * 4) : ENDOFCHAIN);
    const sectors = chain(stream.startSector, miniNext, Math.ceil(container.length / 64));
    if (!sectors || sectors.length * 64 < stream.size) return undefined;
    return Buffer.concat(sectors.map((s) => container.subarray(s * 64, s * 64 + 64))).subarray(0, stream.size);
  };
  return {
    streams,
    readStreamHead: async (stream, length) => {
      if (stream.size >= miniCutoff) return readAt(handle, sectorOffset(stream.startSector), Math.min(length, sectorSize, stream.size));
      const offset = miniStreamOffset(stream.startSector);
      return offset === undefined ? Buffer.alloc(0) : readAt(handle, offset, Math.min(length, 64, stream.size));
    },
    readStream: (stream) => (stream.size >= miniCutoff ? readChain(stream.startSector, stream.size) : readMiniStream(stream)),
  };
}
