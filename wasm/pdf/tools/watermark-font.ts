// The font of watermarks, stamps and filled-in form values outside Latin-1: mupdf's built-in Droid Sans Fallback (Latin, Greek, Cyrillic, CJK),
// embedded as a CID font and subset to the glyphs of the text. The bundled Noto Sans Hans of
// @embedpdf/fonts-sc was the first choice, but mupdf 1.28 cannot subset its CFF outlines
// ("format error: Index bounds") and embedding it whole adds 7.2 MB to every output.

import * as mupdf from 'mupdf';
import { ApiError } from '../../../core/errors.js';
import { withNewDocument } from '../mupdf-document.js';

export interface EmbeddedText {
  /** The font dictionary, already in the target document. */
  font: mupdf.PDFObject;
  /** The text as a hex string of 2-byte glyph ids, for `Tj`. */
  glyphs: string;
  /** Advance width of the whole text at size 1. */
  width: number;
}

let cached: mupdf.Font | undefined;
const watermarkFont = () => (cached ??= new mupdf.Font('zh-Hans'));

/** `text` set in the font, the font subset into `target`; `use` names the text in the message of a missing glyph. */
export function embedText(target: mupdf.PDFDocument, text: string, use = 'watermark'): EmbeddedText {
  const font = watermarkFont();
  const gids = [...text].map((char) => font.encodeCharacter(char.codePointAt(0) ?? 0));
  const missing = [...text].filter((_, i) => gids[i] === 0);
  if (missing.length > 0)
    throw new ApiError('VALIDATION_ERROR', `The ${use} font has no glyph for ${describeCharacters(missing)}; it would print as an empty box`);
  const glyphs = gids.map((gid) => gid.toString(16).padStart(4, '0')).join('');
  const width = gids.reduce((sum, gid) => sum + font.advanceGlyph(gid), 0);
  return { font: subsetFontInto(target, font, glyphs), glyphs, width };
}

/**
 * subsetFonts works on a whole document: run it on a scratch document holding only this font
 * and one page that uses the glyphs, so the target's own fonts are left as they are.
 */
function subsetFontInto(target: mupdf.PDFDocument, font: mupdf.Font, glyphs: string): mupdf.PDFObject {
  return withNewDocument((scratch) => {
    const ref = scratch.addFont(font);
    const resources = scratch.addObject({ Font: { F: ref } });
    scratch.insertPage(-1, scratch.addPage([0, 0, 100, 100], 0, resources, `BT /F 1 Tf <${glyphs}> Tj ET`));
    scratch.subsetFonts();
    return target.graftObject(ref);
  });
}

/** "U+1F600 (😀), U+00A0" — each distinct character once, shown when it is printable. */
function describeCharacters(chars: readonly string[]): string {
  return [...new Set(chars)]
    .map((char) => {
      const code = `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
      return /[\p{L}\p{N}\p{P}\p{S}]/u.test(char) ? `${code} (${char})` : code;
    })
    .join(', ');
}
