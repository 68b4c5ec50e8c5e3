// The font of invisible OCR text layers: one TrueType font with a single empty glyph, used
// as a Type0/Identity-H font whose character codes are UTF-16 units, every code drawn with
// that glyph, and a ToUnicode map that turns every code back into itself. Any script, CJK
// included, is then searchable and extractable for about 1 KB per document, where embedding
// a real CJK font would add megabytes for glyphs nobody sees (text render mode 3).
// The font file is tesseract's tessdata/pdf.ttf (Apache-2.0, Copyright Google Inc.).

import { deflateSync } from 'node:zlib';
import type * as mupdf from 'mupdf';

const GLYPHLESS_TTF = Buffer.from(
  'AAEAAAAKAIAAAwAgT1MvMlbeyJQAAAEoAAAAYGNtYXAACgA0AAABkAAAAB5nbHlmFSJBJAAAAbgAAAAYaGVhZAt48WUAAACsAAAA' +
    'NmhoZWEMAgQCAAAA5AAAACRobXR4BAAAAAAAAYgAAAAIbG9jYQAMAAAAAAGwAAAABm1heHAABAAFAAABCAAAACBuYW1l8usW2gAA' +
    'AdAAAABLcG9zdAABAAEAAAIcAAAAIAABAAAAAQAAsJRxEF8PPPUEBwgAAAAAAM+a/G4AAAAA1MOn8gAAAAAEAAgAAAAAEAACAAAA' +
    'AAAAAAEAAAgA//8AAAQAAAAAAAQAAAEAAAAAAAAAAAAAAAAAAAACAAEAAAACAAQAAQAAAAAAAQAAAAAAAAAAAAAAAAAAAAAAAwAA' +
    'AZAABQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAUAAQABAAAAAAAAAAAAAAAAAAAAAAAAAAAAR09PRwBAAAAAAAAB//8AAAABAAGA' +
    'AAAAAAAAAAAAAAAAAAABAAAAAAAABAAAAAAAAAIAAQAAAAAAFAADAAAAAAAUAAYACgAAAAAAAAAAAAAAAAAMAAAAAQAAAAAEAAgA' +
    'AAMAADEhESEEAPwACAAAAAADACoAAAADAAAABQAWAAAAAQAAAAAABQALABYAAwABBAkABQAWAAAAVgBlAHIAcwBpAG8AbgAgADEA' +
    'LgAwVmVyc2lvbiAxLjAAAAEAAAAAAAAAAAAAAAAAAQAAAAAAAAAAAAAAAAAAAAA=',
  'base64',
);

/** Advance of every character, in thousandths of the font size: the layer stretches words with Tz. */
export const GLYPH_WIDTH = 0.5;

const TO_UNICODE = [
  '/CIDInit /ProcSet findresource begin',
  '12 dict begin',
  'begincmap',
  '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def',
  '/CMapName /Adobe-Identity-UCS def',
  '/CMapType 2 def',
  '1 begincodespacerange',
  '<0000> <FFFF>',
  'endcodespacerange',
  '1 beginbfrange',
  '<0000> <FFFF> <0000>',
  'endbfrange',
  'endcmap',
  'CMapName currentdict /CMap defineresource pop',
  'end',
  'end',
].join('\n');

/** Adds the font's objects to `doc`; returns the Type0 font to name in page resources. */
export function addGlyphlessFont(doc: mupdf.PDFDocument): mupdf.PDFObject {
  const deflated = (data: Uint8Array | string) => deflateSync(data);
  const fontFile = doc.addRawStream(deflated(GLYPHLESS_TTF), { Filter: 'FlateDecode', Length1: GLYPHLESS_TTF.length });
  // Every CID (a UTF-16 unit) drawn with glyph 1, the font's only real glyph.
  const cidToGid = doc.addRawStream(deflated(Buffer.alloc(65536 * 2).fill(Buffer.from([0, 1]))), { Filter: 'FlateDecode' });
  const descriptor = doc.addObject({
    Type: 'FontDescriptor',
    FontName: 'GlyphLessFont',
    Flags: 5,
    FontBBox: [0, 0, GLYPH_WIDTH * 1000, 1000],
    ItalicAngle: 0,
    Ascent: 1000,
    Descent: -1,
    CapHeight: 1000,
    StemV: 80,
    FontFile2: fontFile,
  });
  const cidFont = doc.addObject({
    Type: 'Font',
    Subtype: 'CIDFontType2',
    BaseFont: 'GlyphLessFont',
    CIDSystemInfo: { Registry: '(Adobe)', Ordering: '(Identity)', Supplement: 0 },
    FontDescriptor: descriptor,
    DW: GLYPH_WIDTH * 1000,
    CIDToGIDMap: cidToGid,
  });
  const toUnicode = doc.addRawStream(deflated(TO_UNICODE), { Filter: 'FlateDecode' });
  return doc.addObject({ Type: 'Font', Subtype: 'Type0', BaseFont: 'GlyphLessFont', Encoding: 'Identity-H', DescendantFonts: [cidFont], ToUnicode: toUnicode });
}
