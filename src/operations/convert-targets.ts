// What `convert` makes from each kind of input, from the one table of input kinds
// (core/input-formats.ts): the office matrix (src/documents/formats.ts) for office
// documents, the OFD formats for OFD, the editable documents PDFs and scans are rebuilt as, and Markdown (`md`, by the readers) from every kind `read`
// takes. The error for a pair outside it, the format field's description and docs/api.md's table
// (test/docs/generated.ts) are all written from here, so none can leave a format out.

import { allowedFormats } from '../documents/formats.js';
import { INPUT_FORMATS, type InputFormat } from '../../core/input-formats.js';
import { OFD_FORMATS } from './convert-ofd.js';

/** The formats `convert` makes from a file of this kind. */
export function convertTargets(format: InputFormat): readonly string[] {
  if (format.family !== undefined) return [...allowedFormats(format.family), 'md'];
  if (format.kind === 'ofd') return OFD_FORMATS;
  if (format.rebuiltAs !== undefined) return [...format.rebuiltAs, 'md'];
  return ['md'];
}

interface MatrixRow {
  /** Every extension of the kinds in the row, in the table's order. */
  extensions: string[];
  formats: readonly string[];
}

/** The kinds that convert to the same formats, one row each, in the order the table first names them. */
export function convertMatrix(): MatrixRow[] {
  const rows = new Map<string, MatrixRow>();
  for (const format of INPUT_FORMATS) {
    const formats = convertTargets(format);
    const key = formats.join(',');
    const row = rows.get(key) ?? { extensions: [], formats };
    row.extensions.push(...format.extensions);
    rows.set(key, row);
  }
  // Office rows first, as users look for them; what only reads to Markdown last.
  return [...rows.values()].sort((a, b) => b.formats.length - a.formats.length);
}

/** The matrix in one line: ".docx/.odt/… → pdf, docx, …; …". */
export function describeMatrix(): string {
  return convertMatrix()
    .map((row) => `${row.extensions.map((e) => `.${e}`).join('/')} → ${row.formats.join(', ')}`)
    .join('; ');
}
