// The PDF stream filters that expand their input (Flate, LZW, RunLength) and the ASCII ones that
// may come before them, decoded with a bound on the output: the decoding stops, with
// OverBudget, as soon as it would pass the bound, so a 1.5 MB stream that inflates to 1.5 GB
// costs what the bound allows. mupdf decodes without a bound (readStream), hence these.
// Image codecs (DCT, JPX, JBIG2, CCITT) are not here: their output is bounded by the image's
// declared size, and mupdf reads no more than that.

import { constants, inflateSync } from 'node:zlib';

export class OverBudget extends Error {}

type Decoder = (input: Uint8Array, limit: number) => Uint8Array;

const DECODERS: Record<string, Decoder> = {
  FlateDecode: inflateBounded,
  Fl: inflateBounded,
  LZWDecode: lzwDecode,
  LZW: lzwDecode,
  RunLengthDecode: runLengthDecode,
  RL: runLengthDecode,
  ASCIIHexDecode: asciiHexDecode,
  AHx: asciiHexDecode,
  ASCII85Decode: ascii85Decode,
  A85: ascii85Decode,
};

/**
 * The stream's decoded length through `filters`, stopping at the first filter that is not an
 * expanding or ASCII one (an image codec, Crypt): what comes before it is counted. OverBudget
 * when the output would exceed `limit`.
 */
export function decodedLength(raw: Uint8Array, filters: readonly string[], limit: number): number {
  return decodeBounded(raw, filters, limit).length;
}

/** The stream decoded through `filters` as far as decodedLength goes; OverBudget past `limit`. */
export function decodeBounded(raw: Uint8Array, filters: readonly string[], limit: number): Uint8Array {
  let data = raw;
  for (const filter of filters) {
    const decode = DECODERS[filter];
    if (!decode) break;
    data = decode(data, limit);
  }
  if (data.length > limit) throw new OverBudget();
  return data;
}

/** zlib data (damaged tails tolerated, as mupdf does); a stream zlib cannot read counts as its raw length. */
function inflateBounded(input: Uint8Array, limit: number): Uint8Array {
  try {
    return inflateSync(input, { maxOutputLength: Math.max(1, limit), finishFlush: constants.Z_SYNC_FLUSH });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new OverBudget();
    return input;
  }
}

/** Output that grows in chunks and refuses to pass its limit. */
class BoundedOutput {
  private readonly chunks: Uint8Array[] = [];
  private current: Uint8Array;
  private used = 0;
  private total = 0;

  constructor(private readonly limit: number) {
    this.current = new Uint8Array(Math.min(64 * 1024, limit + 1));
  }

  push(byte: number): void {
    if (this.used === this.current.length) this.grow();
    this.current[this.used++] = byte;
    if (++this.total > this.limit) throw new OverBudget();
  }

  result(): Uint8Array {
    const out = new Uint8Array(this.total);
    let at = 0;
    for (const chunk of [...this.chunks, this.current.subarray(0, this.used)]) {
      out.set(chunk, at);
      at += chunk.length;
    }
    return out;
  }

  private grow(): void {
    this.chunks.push(this.current);
    this.current = new Uint8Array(Math.min(1 << 20, this.current.length * 2));
    this.used = 0;
  }
}

function runLengthDecode(input: Uint8Array, limit: number): Uint8Array {
  const out = new BoundedOutput(limit);
  for (let i = 0; i < input.length;) {
    const length = input[i++] as number;
    if (length === 128) break; // end of data
    if (length < 128) for (let n = 0; n <= length && i < input.length; n++) out.push(input[i++] as number);
    else {
      const byte = input[i++] ?? 0;
      for (let n = 0; n < 257 - length; n++) out.push(byte);
    }
  }
  return out.result();
}

/** PDF's LZW: 9- to 12-bit codes, 256 clears the table, 257 ends; EarlyChange 1 (the default). */
function lzwDecode(input: Uint8Array, limit: number): Uint8Array {
  const out = new BoundedOutput(limit);
  const prefix = new Int32Array(4096);
  const suffix = new Uint8Array(4096);
  const first = new Uint8Array(4096);
  const stack = new Uint8Array(4096);
  for (let code = 0; code < 256; code++) [prefix[code], suffix[code], first[code]] = [-1, code, code];
  let next = 258;
  let width = 9;
  let previous = -1;
  let bits = 0;
  let buffer = 0;
  for (const byte of input) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= width) {
      bits -= width;
      const code = (buffer >> bits) & ((1 << width) - 1);
      if (code === 257) return out.result();
      if (code === 256) {
        [next, width, previous] = [258, 9, -1];
        continue;
      }
      const known = code < next;
      if (!known && (code !== next || previous < 0)) return out.result(); // damaged: mupdf stops here too
      if (previous >= 0 && next < 4096) {
        prefix[next] = previous;
        suffix[next] = known ? (first[code] as number) : (first[previous] as number);
        first[next] = first[previous] as number;
        next += 1;
      }
      let depth = 0;
      for (let c = code; c >= 0; c = prefix[c] as number) stack[depth++] = suffix[c] as number;
      while (depth > 0) out.push(stack[--depth] as number);
      previous = code;
      if (next + 1 >= 1 << width && width < 12) width += 1;
    }
    buffer &= (1 << bits) - 1; // the bits of the next code read so far
  }
  return out.result();
}

function asciiHexDecode(input: Uint8Array): Uint8Array {
  const digits: number[] = [];
  for (const byte of input) {
    if (byte === 0x3e) break; // '>' ends the data
    const value = hexValue(byte);
    if (value >= 0) digits.push(value);
  }
  if (digits.length % 2 === 1) digits.push(0);
  const out = new Uint8Array(digits.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = ((digits[2 * i] as number) << 4) | (digits[2 * i + 1] as number);
  return out;
}

function hexValue(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  const lower = byte | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

function ascii85Decode(input: Uint8Array, limit: number): Uint8Array {
  const out = new BoundedOutput(limit);
  let group = 0;
  let count = 0;
  const flush = (bytes: number) => {
    for (let i = 0; i < bytes; i++) out.push((group >>> (24 - 8 * i)) & 0xff);
  };
  for (const byte of input) {
    if (byte === 0x7e) break; // '~>' ends the data
    if (byte === 0x7a && count === 0) {
      flush(4); // 'z': four zero bytes (group is 0)
      continue;
    }
    if (byte < 0x21 || byte > 0x75) continue; // white space
    group = group * 85 + (byte - 0x21);
    if (++count === 5) {
      group >>>= 0;
      flush(4);
      [group, count] = [0, 0];
    }
  }
  if (count > 1) {
    for (let i = count; i < 5; i++) group = group * 85 + 84;
    group >>>= 0;
    flush(count - 1);
  }
  return out.result();
}
