// Looks at a document's bytes before LibreOffice sees it. LibreOffice converts by content and
// "succeeds" on garbage (random bytes named .docx become a 4-page PDF), so the service decides
// up front: empty → INVALID_INPUT, encrypted → PASSWORD_REQUIRED, a file whose content is
// another kind of document than its name says → INVALID_INPUT naming what it really is, and
// content that would make LibreOffice read other files or URLs whatever its settings (RTF
// include fields) → INVALID_INPUT. Markup more than the office's memory allows, or nested deeper
// than any document nests (markup-nesting.ts: such nesting holds an office for minutes) → TOO_LARGE.

import type fs from 'node:fs/promises';
import { ApiError } from '../../core/errors.js';
import { openInput } from '../files/paths.js';
import type { FileRef } from '../../core/file-ref.js';
import { sniffType, type SniffedType } from '../../core/sniff.js';
import { formatOfOle, formatOfPackage, formatOfSniffed, type DocumentFamily, type InputFormat } from '../../core/input-formats.js';
import { readOleContainer, readZipEntries, readZipEntry, type OleContainer, type ZipEntry } from './containers.js';
import { deepestNesting, MAX_MARKUP_NESTING } from './markup-nesting.js';
import { findExternalRtfField } from './rtf-fields.js';

export interface DocumentContent {
  /** What the bytes are, in words ("a Word document (.docx)"). */
  description: string;
  family?: DocumentFamily;
  encrypted?: boolean;
  empty?: boolean;
  /** Plain text (the only content a .csv may have). */
  text?: boolean;
  /** The only extensions this content is accepted under, when its family is not enough. */
  onlyAs?: readonly string[];
  /** A construct that would read outside the document (e.g. an RTF INCLUDEPICTURE field). */
  externalReference?: string;
  /** Declared inflated size of a ZIP container's XML parts (what the office parses into memory). */
  markupBytes?: number;
  /** How deep a ZIP container's XML nests (measured only within the markup budget; past MAX_MARKUP_NESTING, some depth beyond it). */
  nesting?: number;
}

/**
 * LibreOffice needs roughly ten times a document's XML in memory (a .docx of 400 MB of XML took
 * 4.6 GB): XML over an eighth of the office's memory ceiling is refused before it is opened.
 */
const MEMORY_PER_MARKUP_BYTE = 8;

/** The XML an office with a `ceilingBytes` memory ceiling is given at most. */
export function markupBudget(ceilingBytes: number): number {
  return Math.floor(ceilingBytes / MEMORY_PER_MARKUP_BYTE);
}

const HEAD_BYTES = 8192;

const OTHER_TYPES: Readonly<Partial<Record<SniffedType, string>>> = {
  pdf: 'a PDF file',
  jpeg: 'a JPEG image',
  png: 'a PNG image',
  webp: 'a WebP image',
  avif: 'an AVIF image',
  heic: 'a HEIC image',
  gif: 'a GIF image',
  bmp: 'a BMP image',
  tiff: 'a TIFF image',
};

/** Throws the contract's error when `input` may not be converted as a `.<extension>` of `family`. */
export async function checkDocumentContent(
  input: FileRef,
  extension: string,
  family: DocumentFamily,
  shownName: string,
  maxMarkupBytes = Infinity,
  passwordGiven = false,
): Promise<void> {
  const content = await inspectDocument(input, shownName, maxMarkupBytes);
  if (content.empty) throw new ApiError('INVALID_INPUT', `${shownName} is empty`);
  if ((content.markupBytes ?? 0) > maxMarkupBytes) {
    const mb = (bytes: number) => Math.round(bytes / 1024 ** 2);
    throw new ApiError(
      'TOO_LARGE',
      `${shownName} inflates to ${mb(content.markupBytes ?? 0)} MB of XML, more than the ${mb(maxMarkupBytes)} MB the LibreOffice memory ceiling allows (--office-memory-mb)`,
    );
  }
  if ((content.nesting ?? 0) > MAX_MARKUP_NESTING) {
    throw new ApiError(
      'TOO_LARGE',
      `${shownName} nests its elements more than ${MAX_MARKUP_NESTING} levels deep (sections, tables or frames in one another), which no document needs and which would hold the office for minutes; refused`,
    );
  }
  if (extension === 'csv') {
    if (content.text) return;
    throw new ApiError('INVALID_INPUT', `${shownName} is not CSV text: it is ${content.description}`);
  }
  if (content.encrypted && (content.family === undefined || content.family === family)) throw passwordRequired(content, shownName, passwordGiven);
  if (content.family === family && (content.onlyAs === undefined || content.onlyAs.includes(extension))) {
    if (content.externalReference === undefined) return;
    throw new ApiError(
      'INVALID_INPUT',
      `${shownName} contains ${content.externalReference}, which would read another file or a URL; documents that include outside content are refused`,
    );
  }
  throw new ApiError('INVALID_INPUT', `${shownName} has a .${extension} name but is really ${content.description}`);
}

/** What to do about an encrypted input: only Office's own encryption of .docx/.xlsx/.pptx is decrypted with a `password` (office-decrypt.ts). */
function passwordRequired(content: DocumentContent, shownName: string, passwordGiven: boolean): ApiError {
  const what = `${shownName} is password-protected (${content.description})`;
  if (content.family === undefined) return new ApiError('PASSWORD_REQUIRED', `${what}; give its password in "password", or remove the password, to convert it`);
  const tried = passwordGiven ? '; the password given was not tried: docwasm decrypts only encrypted .docx, .xlsx and .pptx files' : '';
  return new ApiError('PASSWORD_REQUIRED', `${what}${tried}; remove the password to convert it`);
}

/**
 * Read as the file that was checked (src/files/paths.ts openInput): never waiting on a FIFO
 * swapped in. A ZIP's nesting is measured when its markup is within `maxMarkupBytes`.
 */
export async function inspectDocument(input: FileRef, shownName = input.path, maxMarkupBytes = Infinity): Promise<DocumentContent> {
  const handle = await openInput(input, shownName);
  try {
    const { size } = await handle.stat();
    if (size === 0) return { description: 'an empty file', empty: true };
    const head = Buffer.alloc(Math.min(size, HEAD_BYTES));
    await handle.read(head, 0, head.length, 0);
    const type = sniffType(head);
    if (type === 'zip') return await inspectZip(handle, size, maxMarkupBytes);
    if (type === 'ole') return await inspectOle(handle, size);
    if (type === 'rtf') return await inspectRtf(handle, size);
    if (type !== undefined) return { description: OTHER_TYPES[type] ?? `a ${type} file` };
    if (!head.includes(0)) return { description: 'plain text', text: true };
    return { description: 'binary data of an unknown kind' };
  } finally {
    await handle.close();
  }
}

async function inspectRtf(handle: fs.FileHandle, size: number): Promise<DocumentContent> {
  // RTF passes only as .rtf: under a .docx/.doc/.odt name it would escape checks meant for RTF.
  const content = contentOf(formatOfSniffed('rtf'));
  const verdict = await findExternalRtfField(handle, size);
  return verdict.external ? { ...content, externalReference: verdict.what } : content;
}

async function inspectZip(handle: fs.FileHandle, size: number, maxMarkupBytes: number): Promise<DocumentContent> {
  const entries = await readZipEntries(handle, size);
  if (!entries) return { description: 'a damaged or truncated ZIP archive' };
  const markupBytes = entries.filter((e) => /\.(xml|rels)$/i.test(e.name)).reduce((sum, e) => sum + e.uncompressedSize, 0);
  const content = { ...(await identifyZip(handle, entries)), markupBytes };
  return markupBytes > maxMarkupBytes || content.family === undefined ? content : { ...content, nesting: await deepestNesting(handle, entries) };
}

/**
 * The registry's format of a ZIP file by what it holds (its part names, an ODF's `mimetype`);
 * undefined for any other file, a damaged ZIP, or a ZIP of no kind docwasm takes. Only the
 * central directory (and `mimetype`) is read. An input that cannot be opened answers with its
 * code (FILE_NOT_FOUND, …).
 */
export async function packageFormatOf(input: FileRef, shownName = input.path): Promise<InputFormat | undefined> {
  const handle = await openInput(input, shownName);
  try {
    const { size } = await handle.stat();
    const entries = await readZipEntries(handle, size).catch(() => undefined);
    return entries && (await zipFormat(handle, entries)).format;
  } finally {
    await handle.close();
  }
}

async function zipFormat(handle: fs.FileHandle, entries: readonly ZipEntry[]): Promise<{ format: InputFormat | undefined; mimetype: string | undefined }> {
  const mimetypeEntry = entries.find((e) => e.name === 'mimetype');
  const mimetype = mimetypeEntry && (await readZipEntry(handle, mimetypeEntry, 256))?.toString('ascii').trim();
  return {
    format: formatOfPackage(
      entries.map((e) => e.name),
      mimetype,
    ),
    mimetype,
  };
}

async function identifyZip(handle: fs.FileHandle, entries: readonly ZipEntry[]): Promise<DocumentContent> {
  const { format, mimetype } = await zipFormat(handle, entries);
  if (!format) return { description: mimetype ? `a ZIP-based file of type ${mimetype}` : 'a ZIP archive that is not an office document' };
  if (!('odfMimetypes' in format.signature)) return contentOf(format);
  const manifestEntry = entries.find((e) => e.name === 'META-INF/manifest.xml');
  const manifest = manifestEntry && (await readZipEntry(handle, manifestEntry))?.toString('utf8');
  // ODF encryption is per entry and declared in the manifest.
  const encrypted = manifest?.includes('encryption-data') ?? false;
  return { ...contentOf(format), encrypted };
}

/** What the table of input formats says of a recognised kind. */
function contentOf(format: InputFormat | undefined): DocumentContent {
  if (!format) return { description: 'a file of an unknown kind' };
  return { description: format.description, ...(format.family && { family: format.family }), ...(format.onlyAs && { onlyAs: format.onlyAs }) };
}

async function inspectOle(handle: fs.FileHandle, size: number): Promise<DocumentContent> {
  const ole = await readOleContainer(handle, size);
  if (!ole) return { description: 'a damaged OLE (Compound File) container' };
  const stream = (name: string) => ole.streams.find((s) => s.name === name);
  // An encrypted .docx/.xlsx/.pptx is an OLE container holding the encrypted ZIP (MS-OFFCRYPTO).
  if (stream('EncryptionInfo') && stream('EncryptedPackage')) {
    return { description: 'an encrypted Office document', encrypted: true };
  }
  const format = formatOfOle(ole.streams.map((s) => s.name));
  if (!format) return { description: 'an OLE (Compound File) container that is not a Word, Excel or PowerPoint document' };
  return { ...contentOf(format), encrypted: await oleIsEncrypted(ole, format.kind) };
}

/** Each legacy format marks encryption its own way. */
async function oleIsEncrypted(ole: OleContainer, kind: string): Promise<boolean> {
  const stream = (name: string) => ole.streams.find((s) => s.name === name);
  const word = stream('WordDocument');
  const book = stream('Workbook') ?? stream('Book');
  if (kind === 'doc' && word) return wordIsEncrypted(ole, word);
  if (kind === 'xls' && book) return workbookIsEncrypted(ole, book);
  return kind === 'ppt' && stream('EncryptedSummary') !== undefined;
}

/** FIB flag fEncrypted (MS-DOC 2.5.2). */
async function wordIsEncrypted(ole: OleContainer, word: { name: string; startSector: number; size: number }): Promise<boolean> {
  const fib = await ole.readStreamHead(word, 16);
  return fib.length >= 12 && fib.readUInt16LE(0) === 0xa5ec && (fib.readUInt16LE(0x0a) & 0x0100) !== 0;
}

/** A FILEPASS record (0x002F) among the workbook's first BIFF records. */
async function workbookIsEncrypted(ole: OleContainer, book: { name: string; startSector: number; size: number }): Promise<boolean> {
  const head = await ole.readStreamHead(book, 4096);
  for (let p = 0; p + 4 <= head.length;) {
    const type = head.readUInt16LE(p);
    if (type === 0x002f) return true;
    p += 4 + head.readUInt16LE(p + 2);
  }
  return false;
}
