// Bold lines at the body's size (issue 45): bold a producer drew as a Type 3 copy of the regular
// face (synthetic-bold.ts), bold words of a paragraph that fill a line (pdf-paragraphs.ts), and a
// bold line read as a title only where it stands apart from the text below it (pdf-headings.ts).

import { describe, expect, it } from 'vitest';
import { emboldenedType3Names } from '../../wasm/pdf/synthetic-bold.js';
import { StyleTally } from '../../wasm/read/pdf-headings.js';
import { pageBlocks } from '../../wasm/read/pdf-layout.js';
import type { Paragraph, Row, StextLine, StextPage } from '../../wasm/read/pdf-page-model.js';
import { paragraphs } from '../../wasm/read/pdf-paragraphs.js';
import { pageRows } from '../../wasm/read/pdf-rows.js';
import { renderedBlocks } from '../../wasm/read/render.js';

describe('Type 3 fonts that are an embedded face drawn bold (synthetic-bold.ts)', () => {
  it('names a Type 3 font whose descriptor is a face the page embeds as an outline font', () => {
    const fonts = [
      { object: 4, subtype: 'Type0', face: 'AAAAAA+DejaVuSans' },
      { object: 9, subtype: 'Type3', face: 'AAAAAA+DejaVuSans' },
    ];
    expect([...emboldenedType3Names(fonts)]).toEqual(['Type3 (9 0 R)']);
  });

  it('names none where the Type 3 font is the only drawing of its face, or has no face', () => {
    const fonts = [
      { object: 4, subtype: 'TrueType', face: 'BAAAAA+LiberationSerif' },
      { object: 7, subtype: 'Type3', face: 'CAAAAA+NotoColorEmoji' },
      { object: 8, subtype: 'Type3' },
    ];
    expect(emboldenedType3Names(fonts).size).toBe(0);
  });
});

/** A mupdf line of `text` at x on the baseline y, 10 points, 0.5 em a character. */
function line(text: string, x: number, y: number, bold = false): StextLine {
  return { bbox: { x, y: y - 8, w: text.length * 5, h: 12 }, font: { size: 10, name: 'DejaVuSans', ...(bold && { weight: 'bold' }) }, x, y, text };
}

const page = (lines: readonly StextLine[]): StextPage => ({ width: 600, height: 800, blocks: lines.map((l) => ({ type: 'text', lines: [l] })) });
/** Body text filling the measure (90 characters: 450 points from x = 50). */
const FULL = 'Body text of the paragraph that runs from the left margin of the page to its right margin';
const texts = (found: readonly Paragraph[]) => found.map((p) => p.rows.map((r: Row) => (r.bold ? `*${r.text}*` : r.text)).join(' / '));

describe('bold rows and paragraphs (pdf-paragraphs.ts)', () => {
  it('keeps bold words that fill a line of a paragraph, and the text after them, in the paragraph', () => {
    // Lines 14 points apart: 0.2 of their size between them.
    const rows = pageRows(page([line(FULL, 50, 100), line(FULL.toUpperCase(), 50, 114, true), line('and the end of it.', 50, 128)]));
    expect(texts(paragraphs(rows))).toEqual([`${FULL} / *${FULL.toUpperCase()}* / and the end of it.`]);
  });

  it('starts a paragraph at a bold line with a title’s space around it, or one that stops short of the margin', () => {
    const apart = pageRows(page([line(FULL, 50, 100), line(FULL.toUpperCase(), 50, 122, true), line(FULL, 50, 144)]));
    expect(texts(paragraphs(apart))).toHaveLength(3);
    const short = pageRows(page([line('Installation', 50, 100, true), line(FULL, 50, 114)]));
    expect(texts(paragraphs(short))).toEqual(['*Installation*', FULL]);
    // A title over a list set tight, its items as short as it (LibreOffice): the title opens no paragraph of theirs.
    const overList = pageRows(page([line('Install the tools', 50, 100, true), line('Visual Studio Code', 50, 114)]));
    expect(texts(paragraphs(overList))).toEqual(['*Install the tools*', 'Visual Studio Code']);
  });
});

describe('a bold line at the body size as a title (pdf-headings.ts standsApart, pdf-layout.ts)', () => {
  const prose = Array.from({ length: 6 }, (_, i) => `${FULL.slice(0, 80)} ${i}.`);
  const markdownOf = (lines: readonly StextLine[]) => {
    const rows = pageRows(page(lines));
    const tally = new StyleTally();
    tally.addPage(rows, 1);
    return [...renderedBlocks(pageBlocks(rows, tally.style()))].join('\n\n');
  };

  it('reads a bold line with space below it as a heading', () => {
    const lines = [...prose.map((t, i) => line(t, 50, 100 + i * 14)), line('Detecting impure calculations', 50, 200, true), line(prose[0] as string, 50, 224)];
    expect(markdownOf(lines)).toContain('\n\n# Detecting impure calculations\n\n');
  });

  it('reads a bold line followed at line spacing by text in the body’s weight as bold text, not a heading', () => {
    const lines = [
      ...prose.map((t, i) => line(t, 50, 100 + i * 14)),
      line('Read JavaScript in JSX with curly braces to learn', 50, 200, true),
      line('how to reach data.', 50, 214),
    ];
    const markdown = markdownOf(lines);
    expect(markdown).not.toMatch(/^#+ Read JavaScript/m);
    expect(markdown).toContain('Read JavaScript in JSX with curly braces to learn');
  });
});
