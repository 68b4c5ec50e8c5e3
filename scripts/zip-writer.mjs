// A minimal streaming ZIP writer (deflate, Unix modes kept) in pure JS, for the portable bundle:
// every OS opens a .zip without extra tools. No ZIP64: the bundle stays far below 4 GB and
// 65,535 entries, and writing refuses anything past those limits.

import { Buffer } from 'node:buffer';
import fs from 'node:fs';
import zlib from 'node:zlib';

const LIMIT_32 = 0xffffffff;
const MAX_ENTRIES = 0xffff;
const UTF8_FLAG = 0x0800;
const MADE_BY_UNIX = (3 << 8) | 20;

export class ZipWriter {
  #fd;
  #offset = 0;
  #central = [];

  constructor(file) {
    this.#fd = fs.openSync(file, 'w');
  }

  /** Adds a file; `mode` is its Unix mode (kept so launchers stay executable after unzip). */
  addFile(name, data, mode = 0o644) {
    const compressed = zlib.deflateRawSync(data, { level: 6 });
    const deflated = compressed.length < data.length;
    this.#add(name, deflated ? compressed : data, { crc: zlib.crc32(data), size: data.length, method: deflated ? 8 : 0, mode: 0o100000 | mode });
  }

  addDirectory(name) {
    this.#add(name.endsWith('/') ? name : `${name}/`, Buffer.alloc(0), { crc: 0, size: 0, method: 0, mode: 0o40755 });
  }

  close() {
    const start = this.#offset;
    for (const record of this.#central) this.#write(record);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.#central.length, 8);
    end.writeUInt16LE(this.#central.length, 10);
    end.writeUInt32LE(this.#offset - start, 12);
    end.writeUInt32LE(start, 16);
    this.#write(end);
    fs.closeSync(this.#fd);
  }

  #add(name, body, { crc, size, method, mode }) {
    if (this.#central.length >= MAX_ENTRIES || this.#offset + body.length > LIMIT_32 || size > LIMIT_32) {
      throw new Error('The archive outgrew the ZIP format without ZIP64');
    }
    const nameBytes = Buffer.from(name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(UTF8_FLAG, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(0x0021, 12); // 1980-01-01: a fixed date keeps the archive reproducible
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(MADE_BY_UNIX, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(UTF8_FLAG, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(0x0021, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(((mode << 16) | (mode & 0o40000 ? 0x10 : 0)) >>> 0, 38);
    central.writeUInt32LE(this.#offset, 42);
    this.#central.push(Buffer.concat([central, nameBytes]));
    this.#write(Buffer.concat([local, nameBytes]));
    this.#write(body);
  }

  #write(bytes) {
    fs.writeSync(this.#fd, bytes);
    this.#offset += bytes.length;
  }
}
