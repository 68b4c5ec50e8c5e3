// The document support matrix (input extension → family → allowed output formats; the
// extensions and families are declared in core/input-formats.ts) and the
// LibreOffice filter for every output. The filter names are explicit because the bare
// extension picks wrong filters (`xlsx`) or mangles CJK text (`csv` → `??`).

import { officeExtensions, type DocumentFamily } from '../../core/input-formats.js';
import type { PdfaLevel } from '../../core/pdfa.js';

export const OUTPUT_FORMATS = ['pdf', 'docx', 'odt', 'txt', 'xlsx', 'ods', 'csv', 'pptx', 'odp'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** Input extension → family, from the one table of input formats (core/input-formats.ts). */
export const INPUT_FAMILY: Readonly<Record<string, DocumentFamily>> = officeExtensions();

/** Export filter per family and output format; a missing entry is outside the matrix. */
const EXPORT_FILTERS: Readonly<Record<DocumentFamily, Partial<Record<OutputFormat, string>>>> = {
  text: {
    pdf: 'writer_pdf_Export',
    docx: 'MS Word 2007 XML',
    odt: 'writer8',
    // UTF-8, LF line ends, no BOM (the last token).
    txt: 'Text (encoded):UTF8,LF,,,false',
  },
  spreadsheet: {
    pdf: 'calc_pdf_Export',
    xlsx: 'Calc MS Excel 2007 XML',
    ods: 'calc8',
    // comma, double quote, UTF-8 (76), first line 1, …; token 12 left out = first sheet only.
    csv: 'Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false',
  },
  presentation: {
    pdf: 'impress_pdf_Export',
    pptx: 'Impress MS PowerPoint 2007 XML',
    odp: 'impress8',
  },
};

/** How CSV is read: comma-separated, double-quoted, UTF-8 (76), from line 1. */
const CSV_IMPORT_OPTIONS = '44,34,76,1';

/** The installed office's `--infilter` for CSV (an infilter applies to every file of one invocation). */
export const CSV_IMPORT_FILTER = `Text - txt - csv (StarCalc):${CSV_IMPORT_OPTIONS}`;

/**
 * The import filter's options of an input, for an office that detects the filter itself
 * (LibreOfficeKit's load); undefined for a format read with its filter's defaults.
 */
export function importFilterOptions(extension: string): string | undefined {
  return extension === 'csv' ? CSV_IMPORT_OPTIONS : undefined;
}

export function familyOfExtension(extension: string): DocumentFamily | undefined {
  return Object.hasOwn(INPUT_FAMILY, extension) ? INPUT_FAMILY[extension] : undefined;
}

export function allowedFormats(family: DocumentFamily): OutputFormat[] {
  return Object.keys(EXPORT_FILTERS[family]) as OutputFormat[];
}

/**
 * The `--convert-to` argument (`ext:filter[:options]`) of a pair inside the matrix (checked at
 * the edge); a PDF/A level becomes the PDF export's `SelectPdfVersion` (1, 2 or 3).
 */
export function convertToArgument(family: DocumentFamily, format: OutputFormat, pdfa?: PdfaLevel): string {
  const filter = EXPORT_FILTERS[family][format];
  if (filter === undefined) throw new Error(`${family} → ${format} is outside the matrix`);
  if (pdfa === undefined || format !== 'pdf') return `${format}:${filter}`;
  const options = { SelectPdfVersion: { type: 'long', value: pdfa.slice(0, 1) } };
  return `${format}:${filter}:${JSON.stringify(options)}`;
}

/**
 * The export filter's options of a pair (`UTF8,LF,,,false` for text, the CSV tokens), for an
 * office that picks the filter itself from the format (LibreOfficeKit's saveAs); undefined when
 * the filter takes none.
 */
export function exportFilterOptions(family: DocumentFamily, format: OutputFormat): string | undefined {
  const filter = EXPORT_FILTERS[family][format];
  const colon = filter?.indexOf(':') ?? -1;
  return filter !== undefined && colon >= 0 ? filter.slice(colon + 1) : undefined;
}

export function supportedInputExtensions(): string[] {
  return Object.keys(INPUT_FAMILY);
}
