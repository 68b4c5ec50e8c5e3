import { describe, expect, it } from 'vitest';
import { allowedFormats, convertToArgument, familyOfExtension, INPUT_FAMILY, OUTPUT_FORMATS, supportedInputExtensions } from '../../src/documents/formats.js';

describe('document support matrix', () => {
  it('puts each input extension in its family', () => {
    expect(['doc', 'docx', 'rtf', 'odt'].map(familyOfExtension)).toEqual(['text', 'text', 'text', 'text']);
    expect(['xls', 'xlsx', 'ods', 'csv'].map(familyOfExtension)).toEqual(['spreadsheet', 'spreadsheet', 'spreadsheet', 'spreadsheet']);
    expect(['ppt', 'pptx', 'odp'].map(familyOfExtension)).toEqual(['presentation', 'presentation', 'presentation']);
  });

  it('knows no other extension (inherited object keys included)', () => {
    for (const extension of ['pdf', 'txt', 'toString', '__proto__', '']) expect(familyOfExtension(extension), extension).toBeUndefined();
  });

  it('allows each family its own outputs, PDF for all', () => {
    expect(allowedFormats('text')).toEqual(['pdf', 'docx', 'odt', 'txt']);
    expect(allowedFormats('spreadsheet')).toEqual(['pdf', 'xlsx', 'ods', 'csv']);
    expect(allowedFormats('presentation')).toEqual(['pdf', 'pptx', 'odp']);
  });

  it('names an explicit LibreOffice filter for every pair in the matrix', () => {
    for (const family of new Set(Object.values(INPUT_FAMILY))) {
      for (const format of allowedFormats(family)) expect(convertToArgument(family, format)).toMatch(new RegExp(`^${format}:.+`));
    }
  });

  it('refuses a pair outside the matrix', () => {
    expect(() => convertToArgument('presentation', 'csv')).toThrow(/outside the matrix/);
  });

  it('lists every input extension, and only outputs from OUTPUT_FORMATS', () => {
    expect(supportedInputExtensions().sort()).toEqual(Object.keys(INPUT_FAMILY).sort());
    for (const family of ['text', 'spreadsheet', 'presentation'] as const) {
      for (const format of allowedFormats(family)) expect(OUTPUT_FORMATS).toContain(format);
    }
  });
});
