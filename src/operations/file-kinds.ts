// What each operation reads and writes, for the chains of /api/pipeline and the watcher (the
// file kinds of inputs are declared in core/input-formats.ts). Whether a step takes one file or many, and makes one
// or many, is read from its own schema (`input`/`files`, `output`/`outputDir`); only the kinds
// are said here. An operation missing from this table cannot be a pipeline step.

import { OUTPUT_FORMATS } from '../documents/formats.js';
import { extensionOf } from '../files/paths.js';
import { EDITABLE_FORMATS, formatOfExtension, INPUT_FORMATS, type FileKind } from '../../core/input-formats.js';

/**
 * The kinds a step reads: fixed, or set by its `format` — convert to Markdown reads every kind
 * `read` reads, to docx/odt/xlsx also PDFs and images, to anything else only what the office
 * backend converts.
 */
export type Reads = readonly FileKind[] | { byFormat: Readonly<Record<string, readonly FileKind[]>>; otherwise: readonly FileKind[] };

/** The output's kind: fixed, the same file type as the input, or named by the step's `format`. */
export type Writes = FileKind | 'same-as-input' | { byFormat: Readonly<Record<string, FileKind>>; defaultFormat?: string };

export interface FileFlow {
  reads: Reads;
  writes: Writes;
}

const IMAGE_OUTPUTS = { png: 'image', jpg: 'image', jpeg: 'image', webp: 'image', avif: 'image' } as const;
const OFFICE_OUTPUTS: Record<string, FileKind> = {
  ...Object.fromEntries(OUTPUT_FORMATS.map((format) => [format, format === 'pdf' ? 'pdf' : format === 'txt' ? 'text' : 'office'])),
  md: 'text',
};

/** What `read` (and convert to md) reads: every input kind. */
const READABLE: readonly FileKind[] = [...new Set(INPUT_FORMATS.map((f) => f.fileKind))];
/** convert to pdf or txt: office files by the backend, OFD by its own painter and reader. */
const CONVERTED_OR_OFD: readonly FileKind[] = ['office', 'ofd'];
const PDF_EDIT: FileFlow = { reads: ['pdf'], writes: 'pdf' };
/** convert to docx, odt, xlsx: office files by the backend, and the kinds rebuilt as editable documents (PDFs, images). */
const EDITABLE_READS: Readonly<Record<string, readonly FileKind[]>> = Object.fromEntries(
  EDITABLE_FORMATS.map((format) => [
    format,
    [...new Set(['office' as FileKind, ...INPUT_FORMATS.filter((f) => f.rebuiltAs?.includes(format)).map((f) => f.fileKind)])],
  ]),
);

export const FILE_FLOWS: Readonly<Record<string, FileFlow>> = {
  convert: {
    reads: { byFormat: { md: READABLE, pdf: CONVERTED_OR_OFD, txt: CONVERTED_OR_OFD, ...EDITABLE_READS }, otherwise: ['office'] },
    writes: { byFormat: OFFICE_OUTPUTS },
  },
  'pdf/merge': PDF_EDIT,
  'pdf/split': PDF_EDIT,
  'pdf/encrypt': PDF_EDIT,
  'pdf/metadata': PDF_EDIT,
  'pdf/decrypt': PDF_EDIT,
  'pdf/rotate': PDF_EDIT,
  'pdf/rearrange': PDF_EDIT,
  'pdf/watermark': PDF_EDIT,
  'pdf/compress': PDF_EDIT,
  'pdf/to-pdfa': PDF_EDIT,
  'pdf/redact': PDF_EDIT,
  'pdf/stamp': PDF_EDIT,
  'pdf/fill': PDF_EDIT,
  'pdf/flatten': PDF_EDIT,
  'pdf/sign': PDF_EDIT,
  'pdf/to-images': { reads: ['pdf'], writes: 'image' },
  'pdf/from-images': { reads: ['image'], writes: 'pdf' },
  'image/convert': { reads: ['image'], writes: { byFormat: IMAGE_OUTPUTS } },
  'image/compress': { reads: ['image'], writes: 'same-as-input' },
  'image/resize': { reads: ['image'], writes: 'same-as-input' },
  ocr: { reads: ['image', 'pdf'], writes: { byFormat: { txt: 'text', pdf: 'pdf' }, defaultFormat: 'txt' } },
  read: { reads: READABLE, writes: 'text' },
};

/** The kinds a step of this flow reads when it writes `format`. */
export function readsOf(flow: FileFlow, format: string | undefined): readonly FileKind[] {
  const { reads } = flow;
  if (!('byFormat' in reads)) return reads;
  return format !== undefined && Object.hasOwn(reads.byFormat, format) ? (reads.byFormat[format] as readonly FileKind[]) : reads.otherwise;
}

/** The kind a file name says (undefined: none docwasm reads or writes). */
export function kindOfExtension(file: string): FileKind | undefined {
  const extension = extensionOf(file);
  const input = formatOfExtension(extension);
  if (input) return input.fileKind;
  // Text is written (txt, md), never read.
  return extension === 'txt' || extension === 'md' ? 'text' : undefined;
}
