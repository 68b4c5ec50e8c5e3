// Stages 1, 5 and 6 of PDF reading on arrays: rows from mupdf's lines (pdf-rows.ts), paragraphs,
// lists and code from rows (pdf-paragraphs.ts), the document's style and its headings
// (pdf-headings.ts), and the blocks they make (pdf-layout.ts).

import { describe, expect, it } from 'vitest';
import { isSizeHeading, StyleTally } from '../../wasm/read/pdf-headings.js';
import { pageBlocks } from '../../wasm/read/pdf-layout.js';
import type { Paragraph, StextLine, StextPage } from '../../wasm/read/pdf-page-model.js';
import { paragraphs } from '../../wasm/read/pdf-paragraphs.js';
import { pageRows } from '../../wasm/read/pdf-rows.js';
import { renderedBlocks } from '../../wasm/read/render.js';

/** A mupdf line of `text` at x on the baseline y, `size` points, ~0.5 em a character. */
function line(text: string, x: number, y: number, options: { size?: number; font?: string; bold?: boolean } = {}): StextLine {
  const size = options.size ?? 10;
  return {
    bbox: { x, y: y - size * 0.8, w: text.length * size * 0.5, h: size * 1.2 },
    font: { size, name: options.font ?? 'LiberationSerif', ...(options.bold && { weight: 'bold' }) },
    x,
    y,
    text,
  };
}

const page = (...blocks: StextLine[][]): StextPage => ({ width: 600, height: 800, blocks: blocks.map((lines) => ({ type: 'text', lines })) });

/** The rows of a page with one block a line, each line `gap` points below the one before. */
function column(texts: readonly string[], options: { top?: number; gap?: number; x?: number; size?: number; font?: string } = {}): StextLine[][] {
  const { top = 100, gap = 14, x = 50 } = options;
  return texts.map((text, i) => [line(text, x, top + i * gap, options)]);
}

describe('stage 1, rows (pdf-rows.ts)', () => {
  it('joins the lines of a block on one baseline into a row, its cells where they stand apart', () => {
    const [row] = pageRows(page([line('Name', 50, 100), line('Value', 300, 100)]));
    expect(row?.text).toBe('Name Value');
    expect(row?.cells.map((c) => c.text)).toEqual(['Name', 'Value']);
  });

  it('orders a right-to-left row right to left: its first piece is the rightmost', () => {
    const [row] = pageRows(page([line('React', 200, 100), line('برای شروع کار با', 300, 100), line('کافی است', 100, 100)]));
    expect(row?.text).toBe('برای شروع کار با React کافی است');
  });

  it('takes size, weight and font from most of the row, not from a large initial or bullet', () => {
    const [row] = pageRows(page([line('•', 50, 100, { size: 16 }), line('an item of the list that runs on', 62, 100, { bold: true })]));
    expect(row).toMatchObject({ size: 10, bold: true, font: 'LiberationSerif' });
  });
});

describe('stage 5, paragraphs (pdf-paragraphs.ts)', () => {
  const rowsOf = (...blocks: StextLine[][]) => pageRows(page(...blocks));
  const texts = (found: readonly Paragraph[]) => found.map((p) => p.rows.map((r) => r.text).join(' / '));

  it('keeps lines close below each other in one paragraph and starts another after a wide gap', () => {
    const rows = rowsOf(...column(['First line of one', 'paragraph goes on.']), ...column(['A second paragraph.'], { top: 150 }));
    expect(texts(paragraphs(rows))).toEqual(['First line of one / paragraph goes on.', 'A second paragraph.']);
  });

  it('starts a list item at each bullet or number, and reads monospaced rows as one code block', () => {
    const rows = rowsOf(
      ...column(['• first item', '• second item', '1. numbered']),
      ...column(['$ java -jar boot.jar', '[INFO] started'], { top: 160, font: 'LiberationMono' }),
    );
    const found = paragraphs(rows);
    expect(found.map((p) => p.marker?.ordered)).toEqual([false, false, true, undefined]);
    expect(found.at(-1)).toMatchObject({ code: true });
    expect(found.at(-1)?.rows.map((r) => r.text)).toEqual(['$ java -jar boot.jar', '[INFO] started']);
  });
});

describe('stage 4, tables among the rows (pdf-table-runs.ts)', () => {
  it('reads code whose words Ghostscript sets apart, each a piece in Courier, as one code block, not as a table of its first word', () => {
    /** A code line whose words are separate mupdf lines a Courier space (0.6 em) apart, 5 pt a character. */
    const code = (words: readonly string[], y: number, x = 90) =>
      words.map((word) => {
        const piece = line(word, x, y, { font: 'Courier' });
        x += word.length * 5 + 6;
        return piece;
      });
    const lines = [
      ['import', 'java.io.ObjectStreamField;'],
      ['import', 'java.io.Serializable;'],
      ['import', 'java.util.Comparator;'],
      ['public', 'final', 'class', 'String'],
      ['private', 'final', 'char[]', 'value;'],
    ].map((words, i) => code(words, 100 + i * 12));
    const rows = pageRows(page(...lines));
    const tally = new StyleTally();
    tally.addPage(rows, 1);
    const markdown = [...renderedBlocks(pageBlocks(rows, tally.style()))].join('\n\n');
    expect(markdown).toBe(['```', ...rows.map((r) => r.text), '```'].join('\n'));
    expect(rows.map((r) => r.pieces.length)).toEqual([2, 2, 2, 4, 4]);
  });

  it('keeps a cell’s wrapped line that starts in the body’s font and goes on in code in its table', () => {
    const rows = pageRows(
      page(
        [line('Name', 90, 100), line('Default', 200, 100), line('Description', 300, 100)],
        [line('object-size-limit', 90, 114), line('10485760', 200, 114), line('ObjectView output size limit, default', 300, 114)],
        [line('is', 300, 126), line('10*1024*1024', 316, 126, { font: 'Courier' }), line('bytes', 382, 126, { font: 'Courier' })],
        [line('parent-fields', 90, 140), line('true', 200, 140), line('whether to print the fields', 300, 140)],
        [line('unsafe', 90, 154), line('false', 200, 154), line('whether to allow system classes', 300, 154)],
      ),
    );
    const tally = new StyleTally();
    tally.addPage(rows, 1);
    const markdown = [...renderedBlocks(pageBlocks(rows, tally.style()))].join('\n\n');
    expect(markdown).toContain('| object-size-limit | 10485760 | ObjectView output size limit, default is 10\\*1024\\*1024 bytes |');
  });
});

describe('stage 6, headings (pdf-headings.ts), and the page blocks (pdf-layout.ts)', () => {
  const body = Array.from({ length: 12 }, (_, i) => `Body text line ${i} that is long enough to count as prose in the document.`);
  const rows = pageRows(
    page(...column(['Report title'], { top: 60, size: 20 }), ...column(['Section one'], { top: 90, size: 14 }), ...column(body, { top: 120 })),
  );

  it("takes the body's size from most characters and heading levels from the larger sizes", () => {
    const tally = new StyleTally();
    tally.addPage(rows, 1);
    const style = tally.style();
    expect(style.body).toBe(10);
    expect([...style.levels.entries()].sort((a, b) => a[1] - b[1])).toEqual([
      [20, 1],
      [14, 2],
    ]);
    expect(isSizeHeading(paragraphs(rows)[0] as Paragraph, style)).toBe(true);
    tally.addPage(rows, -1); // taken back: nothing is left of the page
    expect(tally.style().levels.size).toBe(0);
  });

  it('writes the page as headings by level and a paragraph', () => {
    const tally = new StyleTally();
    tally.addPage(rows, 1);
    const markdown = [...renderedBlocks(pageBlocks(rows, tally.style()))].join('\n\n');
    expect(markdown.startsWith(`# Report title\n\n## Section one\n\n${body[0]} ${body[1]}`)).toBe(true);
  });

  it('takes no one-line paragraph in the prose’s ink for a heading where code in another colour outweighs the prose', () => {
    // A page of react.dev: code highlighted in blue outweighs the prose; prose and headings are black.
    const code = Array.from({ length: 30 }, (_, i) => `const value${i} = compute(index) + offset; // a line of the example`);
    const blocks = [
      ...column(['Adding a state variable'], { top: 60, size: 18 }),
      ...column(body.slice(0, 4), { top: 90 }),
      ...column(['Then, replace this line'], { top: 160 }),
      ...column(code, { top: 190, font: 'DejaVuSansMono' }),
    ];
    const colored = pageRows(page(...blocks)).map((r) => ({ ...r, color: r.mono ? '0.25,0.44,0.63' : '0,0,0' }));
    const tally = new StyleTally();
    tally.addPage(colored, 1);
    const markdown = [...renderedBlocks(pageBlocks(colored, tally.style()))].join('\n\n');
    expect(markdown).toContain('# Adding a state variable');
    expect(markdown).toContain('\n\nThen, replace this line\n\n');
  });
});
