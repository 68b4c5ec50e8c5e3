// encrypt on mupdf. mupdf writes the encrypted document; for AES-256, the large streams (images,
// fonts, long page contents: nearly all the bytes) are set aside before it saves and encrypted
// afterwards with Node's AES under the key mupdf chose, then put back in its output. The streams
// are copied as they are, only encrypted, exactly as mupdf would have. Why: mupdf's AES, built to
// WebAssembly without the CPU's AES instructions (~45 MB/s), was three quarters of the time of
// an encrypt of a 40 MB scan. Whenever its output is not laid out as expected, mupdf's own
// encryption is used after all.

import * as mupdf from 'mupdf';
import { ApiError } from '../../core/errors.js';
import { sinkChunks, type EncryptOptions, type PdfSink } from './engine.js';
import { encryptStream, fileKeyFor } from './aes256-key.js';
import { isEncrypted, save, withDocument } from './mupdf-document.js';
import { generationOf, readLayout, replaceObjects, type Replacement } from './saved-layout.js';

/** Streams at least this long are encrypted aside; mupdf is quick enough on the small ones. */
const ASIDE_BYTES = 64 * 1024;

/** Returns how many streams were encrypted aside (0: mupdf encrypted everything). */
export function encryptPdf(pdf: Uint8Array, options: EncryptOptions, sink: PdfSink, password?: string): number {
  const saveOptions = encryptionOptions(options);
  const aside = withDocument(
    pdf,
    (doc) => (options.algorithm === 'aes256' && !isEncrypted(doc) ? saveWithStreamsAside(doc, saveOptions, options.userPassword, sink) : undefined),
    password,
  );
  if (aside !== undefined) return aside;
  // The document was changed (its large streams emptied) on the way: start again from the input.
  withDocument(pdf, (doc) => save(doc, saveOptions, sink, 0), password);
  return 0;
}

/** The number of streams set aside, or undefined when nothing was written and mupdf's own encryption must be used. */
function saveWithStreamsAside(doc: mupdf.PDFDocument, saveOptions: string, userPassword: string, sink: PdfSink): number | undefined {
  const aside = setStreamsAside(doc);
  try {
    return withSaved(doc, saveOptions, (saved) => {
      if (aside.size === 0) {
        sink(saved, 0);
        return 0;
      }
      const chunks = putBack(saved, aside, userPassword);
      if (chunks) sinkChunks(sink, chunks, 0);
      return chunks && aside.size;
    });
  } finally {
    for (const { raw } of aside.values()) raw.destroy();
  }
}

/** mupdf's output with the streams set aside encrypted into it, or undefined when it is not laid out as expected. */
function putBack(saved: Uint8Array, aside: ReadonlyMap<number, AsideStream>, userPassword: string): Iterable<Uint8Array> | undefined {
  const layout = readLayout(saved);
  const key = layout && fileKeyFor(encryptEntries(layout.trailer), userPassword);
  if (!layout || !key) return undefined;
  const replacements = new Map<number, Replacement>();
  for (const [num, stream] of aside) {
    const generation = generationOf(layout, num);
    if (generation === undefined) return undefined;
    replacements.set(num, encryptedObject(`${num} ${generation}`, stream, key));
  }
  return replaceObjects(saved, layout, replacements);
}

function withSaved<T>(doc: mupdf.PDFDocument, saveOptions: string, use: (saved: Uint8Array) => T): T {
  const buffer = doc.saveToBuffer(saveOptions);
  try {
    return use(buffer.asUint8Array());
  } finally {
    buffer.destroy();
  }
}

interface AsideStream {
  /** The stream dictionary as written, its /Length the encrypted length. */
  dictionary: string;
  /** Left in mupdf's memory (where mupdf's output of these bytes would have been), not copied. */
  raw: mupdf.Buffer;
}

/** Takes out (into a mupdf buffer) and empties every large stream that can be written back as it is, by number. */
function setStreamsAside(doc: mupdf.PDFDocument): Map<number, AsideStream> {
  const aside = new Map<number, AsideStream>();
  for (let num = 1; num < doc.countObjects(); num++) {
    const ref = doc.newIndirect(num);
    if (!ref.isStream() || !(ref.get('Length').asNumber() >= ASIDE_BYTES) || !writableAsIs(ref.resolve())) continue;
    const raw = ref.readRawStream();
    ref.put('Length', encryptedLength(raw.getLength()));
    aside.set(num, { dictionary: ref.resolve().toString(true, true), raw });
    ref.writeRawStream(new Uint8Array(0));
  }
  return aside;
}

/**
 * A dictionary with strings would be written with them encrypted, and cross-reference or
 * object streams are not written at all; a stream with its own crypt filter is not encrypted
 * with the document's.
 */
function writableAsIs(dict: mupdf.PDFObject): boolean {
  const type = dict.get('Type');
  if (type.isName() && ['XRef', 'ObjStm'].includes(type.asName())) return false;
  const filter = dict.get('Filter');
  const filters = filter.isArray() ? Array.from({ length: filter.length }, (_, i) => filter.get(i)) : [filter];
  return !filters.some((f) => f.isName() && f.asName() === 'Crypt') && !holdsString(dict);
}

function holdsString(obj: mupdf.PDFObject): boolean {
  if (obj.isString()) return true;
  if (obj.isIndirect() || !(obj.isArray() || obj.isDictionary())) return false;
  let found = false;
  obj.forEach((value) => (found ||= holdsString(value)));
  return found;
}

/** IV, then the data padded to whole 16-byte blocks (at least one byte of padding). */
const encryptedLength = (length: number) => 16 + (Math.floor(length / 16) + 1) * 16;

/** The object as mupdf writes one (`id`: its number and generation), its stream encrypted as it is written. */
function encryptedObject(id: string, stream: AsideStream, key: Buffer): Replacement {
  const head = Buffer.from(`${id} obj\n${stream.dictionary}\nstream\n`, 'latin1');
  const tail = Buffer.from('\nendstream\nendobj\n\n', 'latin1');
  return {
    length: head.length + encryptedLength(stream.raw.getLength()) + tail.length,
    bytes: () => [head, ...encryptStream(key, stream.raw.asUint8Array()), tail],
  };
}

function encryptEntries(trailer: string) {
  const hex = (key: string) => Buffer.from(new RegExp(`/${key}<([0-9A-Fa-f]*)>`).exec(trailer)?.[1] ?? '', 'hex');
  return { u: hex('U'), ue: hex('UE'), perms: hex('Perms') };
}

/** mupdf keeps at most this many bytes of each password of its option string (a 128-byte C buffer). */
const OPTION_PASSWORD_BYTES = 127;

function encryptionOptions({ userPassword, ownerPassword, algorithm }: EncryptOptions): string {
  // mupdf's option string has no escaping: a comma would end the password early, and a NUL
  // (the string is a C string) would end it and every option after it. The operation's schema
  // refuses NUL and over-long passwords already; this guards every other caller.
  if ([userPassword, ownerPassword].some((pw) => pw.includes(','))) {
    throw new ApiError('VALIDATION_ERROR', 'The mupdf engine cannot use passwords containing a comma; use --pdf-engine cpdf');
  }
  if ([userPassword, ownerPassword].some((pw) => pw.includes('\0') || Buffer.byteLength(pw) > OPTION_PASSWORD_BYTES)) {
    throw new ApiError('VALIDATION_ERROR', `Passwords must not contain NUL characters and must be at most ${OPTION_PASSWORD_BYTES} bytes as UTF-8`);
  }
  const method = algorithm === 'aes128' ? 'aes-128' : 'aes-256';
  return `encrypt=${method},user-password=${userPassword},owner-password=${ownerPassword}`;
}
