// The one table of input formats (core/input-formats.ts) and what the doors derive from it.

import { describe, expect, it } from 'vitest';
import { INPUT_FAMILY } from '../../src/documents/formats.js';
import { FILE_FLOWS, kindOfExtension, readsOf } from '../../src/operations/file-kinds.js';
import {
  backendExtension,
  formatOfExtension,
  formatOfOle,
  formatOfPackage,
  formatOfSniffed,
  INPUT_FORMATS,
  readableExtensions,
} from '../../core/input-formats.js';

describe('input formats', () => {
  it('declares each extension once, in lower case', () => {
    const extensions = INPUT_FORMATS.flatMap((f) => f.extensions);
    expect(new Set(extensions).size).toBe(extensions.length);
    for (const extension of extensions) expect(extension).toMatch(/^[a-z0-9]+$/);
  });

  it('takes the macro-enabled and template variants of OOXML and ODF as their kinds', () => {
    const kinds = Object.fromEntries(
      ['docm', 'dotx', 'dotm', 'xlsm', 'xltx', 'xltm', 'pptm', 'potx', 'potm', 'ott', 'ots', 'otp'].map((e) => [e, formatOfExtension(e)?.kind]),
    );
    expect(kinds).toEqual({
      docm: 'docx',
      dotx: 'docx',
      dotm: 'docx',
      xlsm: 'xlsx',
      xltx: 'xlsx',
      xltm: 'xlsx',
      pptm: 'pptx',
      potx: 'pptx',
      potm: 'pptx',
      ott: 'odt',
      ots: 'ods',
      otp: 'odp',
    });
    expect(formatOfExtension('XLSM')?.kind).toBe('xlsx');
    expect(['xlsm', 'dotx', 'potm', 'ott', 'doc', 'csv'].map(backendExtension)).toEqual(['xlsx', 'docx', 'pptx', 'odt', 'doc', 'csv']);
  });

  it('recognises packages by their parts and mimetype, containers by their streams, the rest by sniffing', () => {
    expect(formatOfPackage(['[Content_Types].xml', 'word/document.xml'], undefined)?.kind).toBe('docx');
    expect(formatOfPackage(['xl/workbook.xml', 'xl/vbaProject.bin'], undefined)?.kind).toBe('xlsx');
    expect(formatOfPackage(['mimetype', 'content.xml'], 'application/vnd.oasis.opendocument.presentation-template\n')?.kind).toBe('odp');
    expect(formatOfPackage(['word/styles.xml'], undefined)).toBeUndefined();
    expect(formatOfOle(['Root Entry', 'Workbook'])?.kind).toBe('xls');
    expect(formatOfOle(['Root Entry', 'Other'])).toBeUndefined();
    expect(formatOfSniffed('tiff')?.kind).toBe('image');
    expect(formatOfSniffed('rtf')?.onlyAs).toEqual(['rtf']);
    expect(formatOfSniffed('zip')).toBeUndefined();
  });

  it('feeds the office matrix, the readable list and the pipeline kinds from the same entries', () => {
    for (const format of INPUT_FORMATS) {
      for (const extension of format.extensions) {
        expect(INPUT_FAMILY[extension], extension).toBe(format.family);
        expect(readableExtensions()).toContain(extension);
        expect(kindOfExtension(`in.${extension}`), extension).toBe(format.fileKind);
      }
    }
    const convert = FILE_FLOWS.convert;
    expect(convert && [...readsOf(convert, 'md')].sort()).toEqual(['html', 'image', 'ofd', 'office', 'pdf']);
    expect(convert && [...readsOf(convert, 'pdf')].sort()).toEqual(['ofd', 'office']);
    expect(kindOfExtension('out.md')).toBe('text');
  });
});
