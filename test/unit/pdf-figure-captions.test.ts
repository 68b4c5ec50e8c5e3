// Captions and the figures they name (wasm/read/pdf-figure-captions.ts), on rows laid out by hand:
// 10-pt rows 12 pt apart, a figure's rows over its caption.

import { describe, expect, it } from 'vitest';
import { captionLines, isCaption, isFigureCaption, nextToFigureCaption } from '../../wasm/read/pdf-figure-captions.js';

const row = (top: number, text: string) => ({ text, top, bottom: top + 10, size: 10 });
/** A row from the left margin (x 100), 5 pt a character wide. */
const line = (top: number, text: string, x = 100) => ({ ...row(top, text), x, right: x + text.length * 5 });

describe('isCaption and isFigureCaption', () => {
  it('take a numbered caption of a table or a figure, not prose naming one', () => {
    for (const text of ['Table 2: Results.', 'Table 1. HPO performed', 'Figure 3: Pre-fill.', 'Fig. 1. Comparison', 'FIGURE 2 – Flow'])
      expect(isCaption({ text })).toBe(true);
    for (const text of ['Figure 3 shows how the mask works', 'Tables are ubiquitous', 'Table of contents']) expect(isCaption({ text })).toBe(false);
    expect(isFigureCaption(row(0, 'Fig. 4. Architecture'))).toBe(true);
    expect(isFigureCaption(row(0, 'Table 4: Parsing'))).toBe(false);
  });
});

describe('nextToFigureCaption', () => {
  const figure = [row(100, 'the 1 1 0'), row(112, 'cat 0 1 1'), row(124, 'sat 0 0 1')];

  it('finds a figure’s caption right under the rows, or right over them', () => {
    expect(nextToFigureCaption([...figure, row(150, 'Figure 3: A sliding window.')], 0, 3)).toBe(true);
    expect(nextToFigureCaption([row(75, 'Fig. 2. Attention.'), ...figure], 1, 4)).toBe(true);
  });

  it('leaves rows whose caption stands far off, or is a table’s', () => {
    expect(nextToFigureCaption([...figure, row(170, 'Figure 3: A sliding window.')], 0, 3)).toBe(false);
    expect(nextToFigureCaption([row(85, 'Table 2: Scores.'), ...figure, row(150, 'The text goes on.')], 1, 4)).toBe(false);
  });
});

describe('captionLines', () => {
  it('takes a caption and its paragraph’s next lines, up to the room a paragraph stands off', () => {
    const rows = [
      line(88, 'the 1 1 0'),
      line(110, 'Figure 3: Pre-fill and chunking of the'),
      line(122, 'a long sequence, “the dog go”, in'),
      line(134, 'three chunks.'),
      line(160, 'The text goes on.'),
    ];
    expect([...captionLines(rows)]).toEqual([1, 2, 3]);
  });

  it('ends at a line in another size, at the next caption, or at a table’s row under a one-line caption', () => {
    const rows = [line(100, 'Table 1: Scores.'), { ...line(112, 'Model Score'), size: 8 }, line(140, 'Figure 2: Flow.'), line(152, 'Table 2: Costs.')];
    expect([...captionLines(rows)]).toEqual([0, 2, 3]);
    // A centred caption over its table; a caption at the margin over a wider table.
    expect([...captionLines([line(100, 'Table 1: Costs of each layer.', 130), line(112, 'Layer Window Seen', 139)])]).toEqual([0]);
    expect([...captionLines([line(100, 'Table 1: Costs.'), line(112, 'Layer    Window    Seen    Cost')])]).toEqual([0]);
  });
});
