// Office packages (OOXML and ODF are zip files) opened with caps: a part whose declared size
// would pass the cap is refused before it is inflated, and every part is inflated through
// fflate's streaming inflater while the bytes are counted, so a zip bomb stops at the cap
// (TOO_LARGE) instead of filling memory, whatever sizes its headers declare. Parts are parsed
// as XML under one node budget for the whole document (xml.ts).

import { Unzip, UnzipInflate, type UnzipFile } from 'fflate';
import { ApiError } from '../../core/errors.js';
import { parseXml, xmlNodeBudget, type XmlElement } from './xml.js';

export interface PackageLimits {
  /** Total bytes of all parts read, decompressed. */
  maxTotalBytes: number;
  /** Parts in the package. */
  maxEntries: number;
}

export const DEFAULT_PACKAGE_LIMITS: PackageLimits = { maxTotalBytes: 64 * 1024 * 1024, maxEntries: 20_000 };

export interface OfficePackage {
  names: readonly string[];
  /** A part's bytes (kept only when `wanted` said so), or undefined when the package has no such part. */
  bytes(name: string): Uint8Array | undefined;
  /** A part's text (UTF-8), or undefined when the package has no such part. */
  text(name: string): string | undefined;
  /** A part parsed as XML (under the document's node budget), or undefined when there is no such part. */
  xml(name: string): XmlElement | undefined;
}

/** Opens a zip and inflates the parts `wanted` says to keep (office readers: XML and rels, never media). */
export function openPackage(bytes: Uint8Array, wanted: (name: string) => boolean, limits: PackageLimits = DEFAULT_PACKAGE_LIMITS): OfficePackage {
  const parts = new Map<string, Uint8Array[]>();
  const names: string[] = [];
  let total = 0;
  let failure: ApiError | undefined;
  const tooLarge = () => new ApiError('TOO_LARGE', `The document decompresses to more than ${Math.round(limits.maxTotalBytes / 1048576)} MB`);
  const unzip = new Unzip((file: UnzipFile) => {
    names.push(file.name);
    if (names.length > limits.maxEntries) failure ??= new ApiError('TOO_LARGE', `The document holds more than ${limits.maxEntries} parts`);
    if (failure || !wanted(file.name)) return;
    // The local header's size (0 when a data descriptor follows): a part that says it passes the
    // cap is refused unread. One that lies is stopped by the count below.
    if (total + (file.originalSize ?? 0) > limits.maxTotalBytes) {
      failure = tooLarge();
      return;
    }
    const chunks: Uint8Array[] = [];
    parts.set(file.name, chunks);
    file.ondata = (err, chunk) => {
      if (err) {
        failure ??= new ApiError('INVALID_INPUT', `The document's part ${file.name} is damaged`);
        return;
      }
      total += chunk.length;
      if (total > limits.maxTotalBytes) {
        failure ??= tooLarge();
        file.terminate();
        return;
      }
      chunks.push(chunk);
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  try {
    pushInSlices(unzip, bytes, () => failure !== undefined);
  } catch {
    failure ??= new ApiError('INVALID_INPUT', 'The document is not a readable zip package');
  }
  if (failure) throw failure;
  if (names.length === 0) throw new ApiError('INVALID_INPUT', 'The document is not a zip package (no parts found)');
  const decoder = new TextDecoder('utf-8');
  const bytesOf = (name: string) => {
    const chunks = parts.get(name);
    return chunks ? Buffer.concat(chunks) : undefined;
  };
  const text = (name: string) => {
    const bytes = bytesOf(name);
    return bytes ? decoder.decode(bytes) : undefined;
  };
  const nodes = xmlNodeBudget();
  return {
    names,
    bytes: bytesOf,
    text,
    xml: (name) => {
      const xml = text(name);
      // An empty part is as good as none (an empty .rels file lists no relationships).
      return xml === undefined || !/\S/.test(xml) ? undefined : parseXml(xml, name, nodes);
    },
  };
}

/** Feeds the zip in small slices so a bomb is stopped after its first slices, not after all. */
function pushInSlices(unzip: Unzip, bytes: Uint8Array, stop: () => boolean): void {
  // Deflate expands at most ~1,032:1, so one 64 KB slice can become at most ~66 MB before the cap is checked.
  const SLICE = 64 * 1024;
  for (let offset = 0; offset < bytes.length && !stop(); offset += SLICE) {
    const end = Math.min(bytes.length, offset + SLICE);
    unzip.push(bytes.subarray(offset, end), end === bytes.length);
  }
}
