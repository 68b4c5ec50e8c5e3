// Right-to-left lines of a page read line by line (mupdf's JSON, the fast path of render.ts's
// stextOf) in logical order, as the character walk reads them (pdf-pieces.ts, pdf-bidi.ts): a
// line Chrome draws word by word from the left is read from where its glyphs stand (the JSON
// gives its words in the order drawn: the line read backwards), and the lam-alef ligature, which
// Chrome and LibreOffice map to alef then lam (`مدخالتها` for `مدخلاتها`), is put lam first — only
// the glyphs' boxes tell it from an alef followed by a lam (`ال`, the article of most words). A
// line drawn in logical order (LibreOffice) keeps its text otherwise: read by position, its word
// spaces would move (a space before a full stop).

import type * as mupdf from 'mupdf';
import { drawnInVisualOrder, isRightToLeftLine, lamAlefInOrder } from '../read/pdf-bidi.js';
import type { StextBlock } from '../read/pdf-page-model.js';
import { isRightToLeft } from '../read/pdf-rows.js';
import { linePieces, placedChar, WORD_GAP, type PageChar } from '../read/pdf-pieces.js';

/**
 * Puts the page's right-to-left JSON lines in logical order, in place. A line whose walked
 * characters are not its JSON text (the two reads disagree) is left as it is.
 */
export function putRightToLeftInOrder(loaded: mupdf.PDFPage, blocks: readonly StextBlock[]): void {
  const lines = blocks.flatMap((b) => b.lines ?? []);
  if (!lines.some((l) => isRightToLeft(l.text))) return;
  const walked = walkedLines(loaded);
  if (walked.length !== lines.length) return;
  lines.forEach((line, k) => {
    const chars = walked[k] as PageChar[];
    if (line.wmode || !isRightToLeftLine(chars) || chars.map((c) => c.c).join('') !== line.text) return;
    const apart = (a: PageChar, b: PageChar) => Math.max(b.left - a.right, a.left - b.right) > Math.max(a.size, b.size) * WORD_GAP;
    const ordered = drawnInVisualOrder(chars, apart)
      ? linePieces(chars, 0)
      : [
          {
            text: lamAlefInOrder([...chars])
              .map((c) => c.c)
              .join(''),
          },
        ];
    line.text = ordered.map((piece) => piece.text).join('');
  });
}

/** Only where the glyphs stand and what they are is asked of this walk. */
const NO_FONT_FACTS = { font: '', bold: false, mono: false };

/** The page's lines as mupdf walks them (the JSON's options, so the same lines), each character placed. */
function walkedLines(loaded: mupdf.PDFPage): PageChar[][] {
  const text = loaded.toStructuredText('preserve-whitespace');
  const lines: PageChar[][] = [];
  let current: PageChar[] = [];
  try {
    text.walk({
      beginLine: () => {
        current = [];
      },
      onChar: (c, origin, font, size, quad) => {
        // Released now, not by a finalizer: one wrapper per character would pile up on a small heap.
        font.destroy();
        current.push(placedChar(c, origin, size, quad, NO_FONT_FACTS));
      },
      endLine: () => lines.push(current),
    });
  } finally {
    text.destroy();
  }
  return lines;
}
