// tesseract.js's block tree (blocks → paragraphs → lines → words) reduced to the lines and
// words a text layer needs. Tesseract marks CJK "words" one or two characters long; the layer
// writer decides about spaces, so words are kept as tesseract gives them.

import type tesseract from 'tesseract.js';
import type { OcrLine, PixelBox } from '../../core/ocr-layout.js';

export function layoutLines(blocks: readonly tesseract.Block[] | null): OcrLine[] {
  const lines: OcrLine[] = [];
  for (const block of blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        const words = line.words.filter((word) => word.text.trim() !== '').map((word) => ({ text: word.text.trim(), box: wordBox(word) }));
        if (words.length === 0) continue;
        const { baseline, bbox } = line;
        lines.push({ box: toBox(bbox), baseline: hasBaseline(baseline) ? [baseline.y0, baseline.y1] : [bbox.y1, bbox.y1], words });
      }
    }
  }
  return lines;
}

/**
 * Tesseract's word box sometimes spans far past its own glyphs (seen on CJK lines: the first
 * two characters boxed across five); the union of the symbols' boxes is where the word is.
 */
function wordBox(word: tesseract.Word): PixelBox {
  if (word.symbols.length === 0) return toBox(word.bbox);
  const boxes = word.symbols.map((symbol) => symbol.bbox);
  return [Math.min(...boxes.map((b) => b.x0)), Math.min(...boxes.map((b) => b.y0)), Math.max(...boxes.map((b) => b.x1)), Math.max(...boxes.map((b) => b.y1))];
}

function toBox({ x0, y0, x1, y1 }: tesseract.Bbox): PixelBox {
  return [x0, y0, x1, y1];
}

function hasBaseline(baseline: tesseract.Baseline | undefined): baseline is tesseract.Baseline {
  return baseline !== undefined && Number.isFinite(baseline.y0) && Number.isFinite(baseline.y1) && baseline.x1 > baseline.x0;
}
