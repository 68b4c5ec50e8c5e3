// The block readers of the reader worker, one function per kind (PACKAGE_READERS, and HTML and
// CSV as text). Which kind a document is, the service decided once, by its content
// (src/formats/stream-info.ts, after the table of core/input-formats.ts): it is not judged here
// again.

import type { RootContent } from 'mdast';
import { ApiError } from '../../core/errors.js';
import { readCsv } from './csv.js';
import { readDocx } from './docx.js';
import { readHtml } from './html.js';
import { readOdf } from './odf.js';
import { openPackage, type OfficePackage, type PackageLimits } from './package.js';
import { readPptx } from './pptx.js';
import { visit } from './visit.js';
import { readXlsx } from './xlsx.js';

/** Formats read here; PDF and images are read by the PDF and OCR engines. */
type MarkupKind = 'docx' | 'xlsx' | 'pptx' | 'odt' | 'ods' | 'odp' | 'html' | 'csv';

/** Parts a reader may need: XML and relationships, never media. */
const XML_PART = /(\.xml|\.rels|^mimetype)$/;
/**
 * XML no reader looks at, often the largest parts of a package (Word's stylesWithEffects.xml
 * and themes run to hundreds of KB): left compressed, which halves the work on small documents.
 */
const UNREAD_PART =
  /(^|\/)(theme|slideLayouts|slideMasters|notesMasters|handoutMasters|customXml|docProps|printerSettings|glossary)\/|(^|\/)(stylesWithEffects|fontTable|webSettings|settings|calcChain|people|commentsExtended|commentsIds)\.xml$/;
const isReadPart = (name: string) => XML_PART.test(name) && !UNREAD_PART.test(name);

/** The reader of each package kind the table of input formats routes here (`reader: 'markup'`). */
const PACKAGE_READERS: Readonly<Record<Exclude<MarkupKind, 'html' | 'csv'>, (pkg: OfficePackage) => RootContent[]>> = {
  docx: readDocx,
  xlsx: readXlsx,
  pptx: readPptx,
  odt: readOdf,
  ods: readOdf,
  odp: readOdf,
};
const isPackageKind = (kind: string): kind is keyof typeof PACKAGE_READERS => Object.hasOwn(PACKAGE_READERS, kind);

/**
 * Reads a document of the kind the service judged it to be; undefined: a zip of no kind docwasm
 * reads (opened all the same, so a damaged or oversized one answers as such).
 */
export function readBlocks(bytes: Uint8Array, kind: string | undefined, limits?: PackageLimits): RootContent[] {
  return numberNotes(readByKind(bytes, kind, limits));
}

function readByKind(bytes: Uint8Array, kind: string | undefined, limits?: PackageLimits): RootContent[] {
  const isZip = bytes[0] === 0x50 && bytes[1] === 0x4b;
  if (kind === 'html' || kind === 'csv') return kind === 'html' ? readHtml(decodeText(bytes)) : readCsv(decodeText(bytes));
  if (!isZip) throw new ApiError('INVALID_INPUT', 'The file is not an office document (not a zip package)');
  const pkg = openPackage(bytes, isReadPart, limits);
  if (kind !== undefined && isPackageKind(kind)) return PACKAGE_READERS[kind](pkg);
  throw new ApiError('INVALID_INPUT', 'The zip is neither an OOXML (docx/xlsx/pptx) nor an OpenDocument package');
}

/** Notes numbered 1, 2, … in the order they are referred to; notes never referred to are dropped. */
function numberNotes(blocks: RootContent[]): RootContent[] {
  const numbers = new Map<string, string>();
  for (const block of blocks) {
    visit(block, (node) => {
      if (node.type === 'footnoteReference' && !numbers.has(node.identifier)) numbers.set(node.identifier, String(numbers.size + 1));
    });
  }
  // Most documents have no notes: nothing to renumber or move.
  if (numbers.size === 0 && !blocks.some((b) => b.type === 'footnoteDefinition')) return blocks;
  const renumber = (node: { identifier: string; label?: string | null | undefined }) => {
    node.identifier = numbers.get(node.identifier) ?? node.identifier;
    node.label = node.identifier;
  };
  const kept = blocks.filter((b) => b.type !== 'footnoteDefinition' || numbers.has(b.identifier));
  for (const block of kept) {
    visit(block, (node) => {
      if (node.type === 'footnoteReference' || node.type === 'footnoteDefinition') renumber(node);
    });
  }
  const body = kept.filter((b) => b.type !== 'footnoteDefinition');
  const notes = kept.filter((b) => b.type === 'footnoteDefinition').sort((a, b) => Number(a.identifier) - Number(b.identifier));
  return [...body, ...notes];
}

/** UTF-8 (BOM or not), or UTF-16 with a BOM; other legacy encodings read as UTF-8 with replacements. */
function decodeText(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  return new TextDecoder('utf-8').decode(bytes);
}
