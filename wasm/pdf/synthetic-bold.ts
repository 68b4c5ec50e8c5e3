// Bold that a PDF's producer drew rather than embedded: where a page's text asks for a bold face
// the machine does not have (Chrome printing Arabic in DejaVu Sans, whose bold it lacks), Skia
// emboldens the regular glyphs and writes them as a Type 3 font, whose descriptor still names the
// regular face and says weight 400. mupdf names such a font "Type3 (N 0 R)" and calls it regular,
// so a bold heading set at body size read as body text (react.dev's callout titles, `####`).

import type * as mupdf from 'mupdf';

/** What the check needs of one font of a page's resources. */
export interface PageFont {
  /** The font dictionary's object number, when it is indirect (how mupdf names a Type 3 font). */
  object?: number;
  subtype: string;
  /** The FontName its descriptor gives (a Type 0 font's, its descendant's), when it has one. */
  face?: string;
}

/**
 * The names mupdf gives the Type 3 fonts of a page that redraw a face the page also embeds as an
 * outline font: the producer's emboldened copy of that face. A Type 3 font of a face embedded
 * nowhere else on the page (a font it could not embed, drawn all in Type 3) is not judged bold.
 */
export function emboldenedType3Names(fonts: readonly PageFont[]): Set<string> {
  const embedded = new Set(fonts.filter((f) => f.subtype !== 'Type3' && f.face).map((f) => f.face));
  return new Set(fonts.filter((f) => f.subtype === 'Type3' && f.object !== undefined && embedded.has(f.face)).map((f) => `Type3 (${f.object} 0 R)`));
}

/** The fonts of a page's own resources, as emboldenedType3Names needs them. */
export function pageFonts(page: mupdf.PDFPage): PageFont[] {
  const fonts: PageFont[] = [];
  page
    .getObject()
    .getInheritable('Resources')
    .get('Font')
    .forEach((value) => {
      const font = value.resolve();
      if (!font.isDictionary()) return;
      const descendants = font.get('DescendantFonts');
      const descriptor = (descendants.isArray() ? descendants.get(0) : font).get('FontDescriptor');
      const face = descriptor.get('FontName');
      fonts.push({
        ...(value.isIndirect() && { object: value.asIndirect() }),
        subtype: font.get('Subtype').isName() ? font.get('Subtype').asName() : '',
        ...(face.isName() && { face: face.asName() }),
      });
    });
  return fonts;
}
