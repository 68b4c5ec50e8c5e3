// The one declaration of the kinds of file docwasm takes as input (MarkItDown's converter
// registry is the model): for each kind its extensions, how its content is recognised, the file
// kind the pipeline planner and the watcher see, which reader reads it and which conversions
// the office backend makes from it. Doors, content checks, readers, the planner and the watcher
// all ask this table; what each kind converts to is said by the converters that accept it
// (src/formats/registry.ts). Adding an input kind: docs/architecture.md, "Adding an input format".

import type { SniffedType } from './sniff.js';

/** What a pipeline step reads and writes, coarsely: the planner chains steps by it. */
export type FileKind = 'pdf' | 'image' | 'office' | 'html' | 'text' | 'ofd';

/** The office backend's document families: each has its own conversion matrix (src/documents/formats.ts). */
export type DocumentFamily = 'text' | 'spreadsheet' | 'presentation';

/**
 * How a kind is recognised by its bytes: a sniffed type (core/sniff.ts); a ZIP package by
 * a part it must hold (OOXML's main part, a root file) or its ODF `mimetype`; an OLE container
 * by one of its streams; or only by its name (text formats have no signature).
 */
export type Signature =
  { sniffed: readonly SniffedType[] } | { zipPart: string } | { odfMimetypes: readonly string[] } | { oleStreams: readonly string[] } | { byName: true };

/**
 * Which reader reads a kind as Markdown: `markup` the reader worker (wasm/read/document.ts, one
 * function per kind there), `office-twin` the office backend's OOXML twin then the reader
 * worker, `pdf` the PDF worker (scans by OCR), `ocr` the OCR engine.
 */
export type ReaderRoute = 'markup' | 'office-twin' | 'pdf' | 'ocr';

/** The formats convert rebuilds a PDF or a scan in as a document a person edits (src/reading/editable.ts). */
export const EDITABLE_FORMATS = ['docx', 'odt', 'xlsx'] as const;
export type EditableFormat = (typeof EDITABLE_FORMATS)[number];

export interface InputFormat {
  /** The kind's name, as `read` answers it in `data.format`. */
  kind: string;
  /** What such a file is, in words ("a Word document (.docx)"). */
  description: string;
  /** Lower-case, without the dot; the first is the kind's own. */
  extensions: readonly string[];
  signature: Signature;
  fileKind: FileKind;
  reader: ReaderRoute;
  /** The office backend converts it within this family's matrix; absent: the backend does not take it. */
  family?: DocumentFamily;
  /** Convert rebuilds it from its reading as an editable document of these formats (no office backend needed but for ODT). */
  rebuiltAs?: readonly EditableFormat[];
  /** Only under these extensions (RTF must not pass as .docx, where checks meant for RTF would be skipped). */
  onlyAs?: readonly string[];
  /** What a file named as this kind is not, when its content says otherwise (INVALID_INPUT): "… is not <mismatch>". */
  mismatch?: string;
  /** What `read` answers of this kind beside its Markdown, in the read operation's summary. */
  readNote?: string;
  /**
   * Converted by code of its own (not the office backend, not the readers), found by the kind's
   * name: `src/formats/kinds/<kind>.ts` exports its `convert`, to `targets`; with `engine`, that
   * code runs in the engine workers too: `wasm/<kind>/format.ts` exports its `engine`
   * (a FormatEngine: Markdown, text, PDF). No registry lists them.
   */
  ownCode?: { targets: readonly string[]; engine: boolean };
}

const ODF = 'application/vnd.oasis.opendocument';

/** In recognition order: the first whose signature matches is the kind of a file. */
export const INPUT_FORMATS: readonly InputFormat[] = [
  { kind: 'pdf', description: 'a PDF file', extensions: ['pdf'], signature: { sniffed: ['pdf'] }, fileKind: 'pdf', reader: 'pdf', rebuiltAs: EDITABLE_FORMATS },
  {
    kind: 'image',
    description: 'an image',
    extensions: ['png', 'jpg', 'jpeg', 'webp', 'avif', 'tif', 'tiff', 'bmp', 'gif'],
    signature: { sniffed: ['jpeg', 'png', 'webp', 'avif', 'gif', 'bmp', 'tiff'] },
    fileKind: 'image',
    reader: 'ocr',
    rebuiltAs: EDITABLE_FORMATS,
  },
  // OOXML: macro-enabled and template variants are the same packages with other content types.
  {
    kind: 'docx',
    description: 'a Word document (.docx)',
    extensions: ['docx', 'docm', 'dotx', 'dotm'],
    signature: { zipPart: 'word/document.xml' },
    fileKind: 'office',
    reader: 'markup',
    family: 'text',
  },
  {
    kind: 'xlsx',
    description: 'an Excel workbook (.xlsx)',
    extensions: ['xlsx', 'xlsm', 'xltx', 'xltm'],
    signature: { zipPart: 'xl/workbook.xml' },
    fileKind: 'office',
    reader: 'markup',
    family: 'spreadsheet',
  },
  {
    kind: 'pptx',
    description: 'a PowerPoint presentation (.pptx)',
    extensions: ['pptx', 'pptm', 'potx', 'potm'],
    signature: { zipPart: 'ppt/presentation.xml' },
    fileKind: 'office',
    reader: 'markup',
    family: 'presentation',
  },
  {
    kind: 'odt',
    description: 'an OpenDocument text (.odt)',
    extensions: ['odt', 'ott'],
    signature: { odfMimetypes: [`${ODF}.text`, `${ODF}.text-template`] },
    fileKind: 'office',
    reader: 'markup',
    family: 'text',
  },
  {
    kind: 'ods',
    description: 'an OpenDocument spreadsheet (.ods)',
    extensions: ['ods', 'ots'],
    signature: { odfMimetypes: [`${ODF}.spreadsheet`, `${ODF}.spreadsheet-template`] },
    fileKind: 'office',
    reader: 'markup',
    family: 'spreadsheet',
  },
  {
    kind: 'odp',
    description: 'an OpenDocument presentation (.odp)',
    extensions: ['odp', 'otp'],
    signature: { odfMimetypes: [`${ODF}.presentation`, `${ODF}.presentation-template`] },
    fileKind: 'office',
    reader: 'markup',
    family: 'presentation',
  },
  {
    kind: 'doc',
    description: 'a Word 97-2003 document (.doc)',
    extensions: ['doc'],
    signature: { oleStreams: ['WordDocument'] },
    fileKind: 'office',
    reader: 'office-twin',
    family: 'text',
  },
  {
    kind: 'xls',
    description: 'an Excel 97-2003 workbook (.xls)',
    extensions: ['xls'],
    signature: { oleStreams: ['Workbook', 'Book'] },
    fileKind: 'office',
    reader: 'office-twin',
    family: 'spreadsheet',
  },
  {
    kind: 'ppt',
    description: 'a PowerPoint 97-2003 presentation (.ppt)',
    extensions: ['ppt'],
    signature: { oleStreams: ['PowerPoint Document'] },
    fileKind: 'office',
    reader: 'office-twin',
    family: 'presentation',
  },
  {
    kind: 'rtf',
    description: 'an RTF document',
    extensions: ['rtf'],
    signature: { sniffed: ['rtf'] },
    fileKind: 'office',
    reader: 'office-twin',
    family: 'text',
    onlyAs: ['rtf'],
  },
  { kind: 'csv', description: 'CSV text', extensions: ['csv'], signature: { byName: true }, fileKind: 'office', reader: 'markup', family: 'spreadsheet' },
  // OFD (GB/T 33190): converted by its own code (src/formats/kinds/ofd.ts), its engine in
  // wasm/ofd/; LibreOffice does not take it.
  {
    kind: 'ofd',
    description: 'an OFD document (.ofd)',
    extensions: ['ofd'],
    signature: { zipPart: 'OFD.xml' },
    fileKind: 'ofd',
    reader: 'markup',
    mismatch: 'an OFD (not a zip whose root holds OFD.xml)',
    readNote: "an OFD's custom data in data.fields",
    ownCode: { targets: ['pdf', 'md', 'txt'], engine: true },
  },
  { kind: 'html', description: 'an HTML page', extensions: ['html', 'htm'], signature: { byName: true }, fileKind: 'html', reader: 'markup' },
];

/** The format a file name says (case-insensitive extension without the dot); undefined: none docwasm takes. */
export function formatOfExtension(extension: string): InputFormat | undefined {
  const lower = extension.toLowerCase();
  return INPUT_FORMATS.find((f) => f.extensions.includes(lower));
}

/** The format of bytes a sniff recognised (PDF, images, RTF); a ZIP or OLE needs a look inside. */
export function formatOfSniffed(type: SniffedType | undefined): InputFormat | undefined {
  if (type === undefined) return undefined;
  return INPUT_FORMATS.find((f) => 'sniffed' in f.signature && f.signature.sniffed.includes(type));
}

/**
 * The format of a ZIP package by its part names and its `mimetype` part (ODF); undefined: no kind
 * docwasm takes. Part names are compared without case, as OPC's are (OFD writers vary it too).
 */
export function formatOfPackage(partNames: readonly string[], mimetype: string | undefined): InputFormat | undefined {
  const trimmed = mimetype?.trim();
  const byMimetype = trimmed ? INPUT_FORMATS.find((f) => 'odfMimetypes' in f.signature && f.signature.odfMimetypes.includes(trimmed)) : undefined;
  if (byMimetype) return byMimetype;
  const names = new Set(partNames.map((name) => name.toLowerCase()));
  return INPUT_FORMATS.find((f) => 'zipPart' in f.signature && names.has(f.signature.zipPart.toLowerCase()));
}

/** The format of an OLE (Compound File) container by its stream names. */
export function formatOfOle(streamNames: readonly string[]): InputFormat | undefined {
  return INPUT_FORMATS.find((f) => 'oleStreams' in f.signature && f.signature.oleStreams.some((s) => streamNames.includes(s)));
}

/** Whether `format` is recognised by what is inside a ZIP package (its reader needs the package opened). */
export function isPackageFormat(format: InputFormat): boolean {
  return 'zipPart' in format.signature || 'odfMimetypes' in format.signature;
}

/** Extensions of every format `read` (and convert to md) takes, in table order. */
export function readableExtensions(): string[] {
  return INPUT_FORMATS.flatMap((f) => f.extensions);
}

/** Extensions the office backend converts, with their families. */
export function officeExtensions(): Readonly<Record<string, DocumentFamily>> {
  return Object.fromEntries(INPUT_FORMATS.flatMap(({ family, extensions }) => (family ? extensions.map((e) => [e, family] as const) : [])));
}

/** The extension a file of this kind is given where only its kind is known (a pipeline's intermediate files). */
export function extensionOfKind(kind: FileKind): string {
  return INPUT_FORMATS.find((f) => f.fileKind === kind)?.extensions[0] ?? 'txt';
}

/** Sniffed image types docwasm decodes. */
export function imageTypes(): readonly SniffedType[] {
  const image = INPUT_FORMATS.find((f) => f.kind === 'image');
  return image && 'sniffed' in image.signature ? image.signature.sniffed : [];
}

/**
 * The extension the office backend is given for a file named `.<extension>`: variants go as
 * their kind's own (a .xlsm as .xlsx), since the backends pick filters and matrices by the
 * extensions they know; LibreOffice reads the package by its content either way.
 */
export function backendExtension(extension: string): string {
  const format = formatOfExtension(extension);
  return format && isPackageFormat(format) ? (format.extensions[0] as string) : extension;
}
