// Stage 5's line spacing (pdf-paragraphs.ts lineGapLimit): a page set at 1.5 or double spacing
// keeps its paragraphs' lines together, a single-spaced page keeps its limit, and space between
// paragraphs still parts them.

import { describe, expect, it } from 'vitest';
import { lineGapLimit, paragraphs } from '../../wasm/read/pdf-paragraphs.js';
import type { Row } from '../../wasm/read/pdf-page-model.js';

const SIZE = 11;

/** A row of body text at baseline `y`, `indent` points in from 72, ending at `right`; each in a block of its own, as mupdf sets double-spaced lines. */
function row(y: number, text: string, { indent = 0, right = 523 } = {}): Row {
  const x = 72 + indent;
  return {
    text,
    x,
    y,
    top: y - SIZE * 0.8,
    bottom: y + SIZE * 0.2,
    right,
    size: SIZE,
    bold: false,
    font: 'Times',
    mono: false,
    block: y,
    cells: [{ x, right, text }],
    pieces: [],
  };
}

/** Paragraphs of `lines` lines at `pitch` points, the first line indented 36 pt, `gap` points more between paragraphs. */
function page(count: number, lines: number, pitch: number, gap = 0): Row[] {
  const rows: Row[] = [];
  let y = 100;
  for (let p = 0; p < count; p++) {
    for (let l = 0; l < lines; l++) {
      rows.push(row(y, `paragraph ${p} line ${l}`, { indent: l === 0 ? 36 : 0, right: l === lines - 1 ? 300 : 523 }));
      y += pitch;
    }
    y += gap;
  }
  return rows;
}

describe('lineGapLimit and paragraphs at a page’s line spacing', () => {
  it('keeps each paragraph of a double-spaced page (25.3 pt a line at 11 pt) whole', () => {
    const rows = page(3, 4, 25.3);
    expect(lineGapLimit(rows)).toBeGreaterThan(1.3);
    expect(paragraphs(rows).map((p) => p.rows.length)).toEqual([4, 4, 4]);
  });

  it('parts double-spaced paragraphs set a line apart, not indented', () => {
    const rows = page(3, 4, 25.3, 25.3).map((r) => ({ ...r, x: 72 }));
    expect(paragraphs(rows).map((p) => p.rows.length)).toEqual([4, 4, 4]);
  });

  it('keeps a single-spaced page’s limit, and its paragraphs set half a line apart apart', () => {
    const rows = page(3, 4, 13.2, 6.6).map((r) => ({ ...r, x: 72 }));
    expect(lineGapLimit(rows)).toBe(0.8);
    expect(paragraphs(rows).map((p) => p.rows.length)).toEqual([4, 4, 4]);
  });

  it('keeps one-line paragraphs of different lengths set a line apart apart: no wrapped line tells a spacing', () => {
    const rows = [300, 420, 260, 380, 330, 450, 290, 400].map((right, k) => row(100 + k * 25.3, `line ${k}`, { right }));
    expect(lineGapLimit(rows)).toBe(0.8);
    expect(paragraphs(rows)).toHaveLength(8);
  });

  it('keeps full lines that each end a sentence, set a line apart, apart: a list of statements, not wrapped prose', () => {
    const rows = Array.from({ length: 10 }, (_, k) => row(100 + k * 24, `Body line ${k} of the report runs on down the page.`));
    expect(lineGapLimit(rows)).toBe(0.8);
    expect(paragraphs(rows)).toHaveLength(10);
  });

  it('keeps an outline’s short items, set a line apart, apart: no line long enough to have wrapped', () => {
    const rows = Array.from({ length: 10 }, (_, k) => row(100 + k * 25.3, `Item ${k} checked`, { right: 160 }));
    expect(lineGapLimit(rows)).toBe(0.8);
    expect(paragraphs(rows)).toHaveLength(10);
  });

  it('believes no spacing from fewer than six wrapped lines', () => {
    expect(lineGapLimit(page(2, 3, 25.3))).toBe(0.8);
  });
});
