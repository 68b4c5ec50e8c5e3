import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readInputHead } from '../../src/files/paths.js';
import { sniffType, type SniffedType } from '../../core/sniff.js';
import { ROOT } from '../helpers/service.js';

const fixture = (...parts: string[]) => path.join(ROOT, 'fixtures', ...parts);
const readHead = (file: string, length = 64) => readInputHead({ path: file }, length);
const bytes = (...values: number[]) => Uint8Array.from(values);
const ascii = (text: string) => Uint8Array.from(Buffer.from(text, 'latin1'));

describe('sniffType', () => {
  it('knows each committed image by its bytes', async () => {
    const expected: Record<string, SniffedType> = { png: 'png', jpg: 'jpeg', webp: 'webp', avif: 'avif', gif: 'gif', tiff: 'tiff', bmp: 'bmp' };
    for (const [extension, type] of Object.entries(expected)) {
      expect(sniffType(await readHead(fixture('images', `quadrants.${extension}`))), extension).toBe(type);
    }
  });

  it('knows PDFs, encrypted ones included', async () => {
    for (const name of ['text.pdf', 'text-aes256.pdf']) expect(sniffType(await readHead(fixture('pdf', name))), name).toBe('pdf');
  });

  it('finds %PDF- after leading junk', () => {
    expect(sniffType(ascii('junk before the header %PDF-1.7'))).toBe('pdf');
  });

  it('tells OLE (legacy Office), ZIP (OOXML, ODF) and RTF documents apart', async () => {
    const documents: Record<string, SniffedType> = {
      'text-doc.doc': 'ole',
      'sheet-xls.xls': 'ole',
      'slides-ppt.ppt': 'ole',
      'text-docx.docx': 'zip',
      'sheet-ods.ods': 'zip',
      'text-rtf.rtf': 'rtf',
    };
    for (const [name, type] of Object.entries(documents)) expect(sniffType(await readHead(fixture('documents', name))), name).toBe(type);
  });

  it('tells HEIC from AVIF by the ftyp brand', () => {
    expect(sniffType(Uint8Array.from([0, 0, 0, 24, ...ascii('ftypheic')]))).toBe('heic');
    expect(sniffType(Uint8Array.from([0, 0, 0, 24, ...ascii('ftypavis')]))).toBe('avif');
  });

  it('knows big-endian TIFF too', () => {
    expect(sniffType(bytes(0x4d, 0x4d, 0x00, 0x2a))).toBe('tiff');
  });

  it('answers undefined for text, CSV and empty files', async () => {
    expect(sniffType(ascii('plain text'))).toBeUndefined();
    expect(sniffType(await readHead(fixture('documents', 'sheet-csv.csv')))).toBeUndefined();
    expect(sniffType(new Uint8Array(0))).toBeUndefined();
  });
});

describe('readInputHead', () => {
  it('reads at most the asked length, and less for a shorter file', async () => {
    const file = fixture('images', 'quadrants.webp');
    expect((await readHead(file, 8)).length).toBe(8);
    expect((await readHead(file, 1 << 20)).length).toBe(fs.statSync(file).size);
  });
});
