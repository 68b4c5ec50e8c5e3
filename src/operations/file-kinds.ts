// What each operation reads and writes, for the chains of /api/pipeline and the watcher (the
// file kinds of inputs are declared in core/input-formats.ts; what convert makes of each, in the
// format registry, src/formats/registry.ts). Whether a step takes one file or many, and makes one
// or many, is read from its own schema (`input`/`files`, `output`/`outputDir`); only the kinds
// are said here. An operation missing from this table cannot be a pipeline step.

import { OUTPUT_FORMATS } from '../documents/formats.js';
import { extensionOf } from '../files/paths.js';
import { formatOfExtension, INPUT_FORMATS, type FileKind } from '../../core/input-formats.js';
import { OUTPUT_EXTENSIONS } from '../../core/image-formats.js';
import { formatsConvertedTo } from '../formats/registry.js';

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

/** The kind of each format a step may name (by its `format`, or its output's extension). */
const kindsOf = (formats: readonly string[]): Record<string, FileKind> =>
  Object.fromEntries(formats.map((format) => [format, kindOfExtension(`file.${format}`) as FileKind]));
const IMAGE_OUTPUTS = kindsOf(OUTPUT_EXTENSIONS.map((e) => e.slice(1)));
const CONVERT_FORMATS = [...OUTPUT_FORMATS, 'md'];

/** What `read` reads: every input kind. */
const READABLE: readonly FileKind[] = [...new Set(INPUT_FORMATS.map((f) => f.fileKind))];
/** The kinds convert reads when it writes `format`: those of the inputs the registry's converters make it from. */
const convertReads = (format: string): readonly FileKind[] => [...new Set(formatsConvertedTo(format).map((f) => f.fileKind))];
const PDF_EDIT: FileFlow = { reads: ['pdf'], writes: 'pdf' };

export const FILE_FLOWS: Readonly<Record<string, FileFlow>> = {
  convert: {
    reads: { byFormat: Object.fromEntries(CONVERT_FORMATS.map((format) => [format, convertReads(format)])), otherwise: ['office'] },
    writes: { byFormat: kindsOf(CONVERT_FORMATS) },
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
