// How deep the elements of an office package's XML nest, measured before an office opens it.
// LibreOffice's import and layout cost grows with nesting far faster than with size: a 52 KB ODT
// of 20,000 sections nested in one another held the WebAssembly office for the whole 120 s
// --timeout, and the one WebAssembly office serves every request. Office markup nests a few
// dozen levels (tables in tables, frames in sections); the same bound as the reader's
// (wasm/read/limits.ts, MAX_NESTING) refuses a package deeper than that in the time it takes to
// read up to that depth.

import type fs from 'node:fs/promises';
import { createInflateRaw } from 'node:zlib';
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
  const counter = new NestingCounter();
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      counter.write(chunk);
      if (counter.deepest > limit) break;
    }
  } catch {
    // A damaged deflate stream: what was read so far is what the office would read.
  } finally {
    data.destroy();
    stream.destroy();
  }
  return counter.deepest;
}

/** The deepest nesting of one XML text (for tests; packages are read part by part, streamed). */
export function nestingOf(xml: Buffer): number {
  const counter = new NestingCounter();
  counter.write(xml);
  return counter.deepest;
}

const LT = 0x3c; // <
const GT = 0x3e; // >
const SLASH = 0x2f; // /
const BANG = 0x21; // !
const QUESTION = 0x3f; // ?
const QUOTE = 0x22; // "
const APOSTROPHE = 0x27; // '
const DASH = 0x2d; // -
const BRACKET = 0x5d; // ]

type State = 'text' | 'open' | 'start-tag' | 'end-tag' | 'comment' | 'cdata' | 'declaration';

/**
 * How deep elements nest, from the bytes as they come: a tag scanner, not a parser (a parser
 * ran at ~10 MB/s here, and a 200 MB package held a conversion for minutes before the office saw
 * it; this runs at hundreds of MB/s). It knows what XML allows in markup: quoted attribute values
 * (which may hold `>` and `/>`), comments, CDATA sections, processing instructions and
 * declarations; ill-formed markup is the office's to judge, and only bends the count.
 */
class NestingCounter {
  deepest = 0;
  private depth = 0;
  private state: State = 'text';
  /** Inside a start tag: the quote an attribute value is open with, or 0. */
  private quote = 0;
  /** The byte before, within a tag (a start tag ending `/>` is empty); the two before, in a comment or CDATA. */
  private previous = 0;
  private beforePrevious = 0;
  /** Bytes of a `<!` opener seen so far, to tell a comment and CDATA from a declaration. */
  private opener = '';

  write(chunk: Buffer): void {
    for (const byte of chunk) this.step(byte);
  }

  private step(byte: number): void {
    switch (this.state) {
      case 'text':
        if (byte === LT) this.state = 'open';
        return;
      case 'open':
        this.opened(byte);
        return;
      case 'start-tag':
        if (this.quote !== 0) {
          if (byte === this.quote) this.quote = 0;
        } else if (byte === QUOTE || byte === APOSTROPHE) this.quote = byte;
        else if (byte === GT) {
          // An empty element (`/>`) is one level deeper for as long as it lasts, as a parser counts it.
          const empty = this.previous === SLASH;
          this.deepest = Math.max(this.deepest, this.depth + 1);
          if (!empty) this.depth += 1;
          this.state = 'text';
        }
        this.previous = byte;
        return;
      case 'end-tag':
        if (byte === GT) {
          this.depth = Math.max(0, this.depth - 1);
          this.state = 'text';
        }
        return;
      case 'comment':
      case 'cdata':
        if (byte === GT && this.previous === (this.state === 'comment' ? DASH : BRACKET) && this.beforePrevious === this.previous) this.state = 'text';
        this.beforePrevious = this.previous;
        this.previous = byte;
        return;
      case 'declaration':
        this.declaration(byte);
        return;
    }
  }

  /** The byte after `<`. */
  private opened(byte: number): void {
    this.previous = 0;
    this.beforePrevious = 0;
    this.quote = 0;
    if (byte === SLASH) this.state = 'end-tag';
    else if (byte === BANG) {
      this.state = 'declaration';
      this.opener = '';
    } else if (byte === QUESTION) {
      // A processing instruction ends at `>` after `?`; it may not nest, so read it as a declaration.
      this.state = 'declaration';
      this.opener = '?';
    } else this.state = 'start-tag';
  }

  /** `<!` then a comment (`--`), CDATA (`[CDATA[`) or a declaration, which ends at `>`. */
  private declaration(byte: number): void {
    if (this.opener.length < 7 && this.opener !== '?') {
      this.opener += String.fromCharCode(byte);
      if (this.opener === '--') return void (this.state = 'comment');
      if (this.opener === '[CDATA[') return void (this.state = 'cdata');
    }
    if (byte === GT) this.state = 'text';
  }
}
