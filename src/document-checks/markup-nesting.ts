// How deep the elements of an office package's XML nest, measured before an office opens it.
// LibreOffice's import and layout cost grows with nesting far faster than with size: a 52 KB ODT
// of 20,000 sections nested in one another held the WebAssembly office for the whole 120 s
// --timeout, and the one WebAssembly office serves every request. Office markup nests a few
// dozen levels (tables in tables, frames in sections); the same bound as the reader's
// (wasm/read/limits.ts, MAX_NESTING) refuses a package deeper than that in the time it takes to
// read up to that depth.

import type fs from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { createInflateRaw } from 'node:zlib';
import { SaxesParser } from 'saxes';
import { MAX_NESTING } from '../../wasm/read/limits.js';
import { zipEntryData, type ZipEntry } from './containers.js';

/** Office markup deeper than this is refused (TOO_LARGE). */
export const MAX_MARKUP_NESTING = MAX_NESTING;

/**
 * The deepest nesting of the package's XML parts, read part by part and streamed (never a whole
 * part in memory); stops at the first part deeper than `limit` (then returns more than it).
 */
export async function deepestNesting(handle: fs.FileHandle, entries: readonly ZipEntry[], limit = MAX_MARKUP_NESTING): Promise<number> {
  let deepest = 0;
  for (const entry of entries.filter((e) => /\.xml$/i.test(e.name))) {
    deepest = Math.max(deepest, await partNesting(handle, entry, limit));
    if (deepest > limit) break;
  }
  return deepest;
}

async function partNesting(handle: fs.FileHandle, entry: ZipEntry, limit: number): Promise<number> {
  const data = await zipEntryData(handle, entry);
  if (!data) return 0;
  const stream = entry.method === 8 ? data.pipe(createInflateRaw()) : data;
  const parser = new SaxesParser();
  let depth = 0;
  let deepest = 0;
  parser.on('opentag', () => (deepest = Math.max(deepest, ++depth)));
  parser.on('closetag', () => void depth--);
  // Ill-formed markup is the office's to judge: the parser carries on past it and keeps counting.
  parser.on('error', () => undefined);
  const decoder = new StringDecoder('utf8');
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      parser.write(decoder.write(chunk));
      if (deepest > limit) break;
    }
  } catch {
    // A damaged deflate stream: what was read so far is what the office would read.
  } finally {
    data.destroy();
    stream.destroy();
  }
  return deepest;
}
