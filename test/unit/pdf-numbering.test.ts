// Stage 6 of PDF reading, section numbers (pdf-numbering.ts): a heading's number and its depth,
// and the levels numbered headings take from the document's sized ones (pdf-headings.ts,
// pdf-layout.ts), on hand-laid lines.

import { describe, expect, it } from 'vitest';
import { StyleTally } from '../../wasm/read/pdf-headings.js';
import { pageBlocks } from '../../wasm/read/pdf-layout.js';
import { sectionDepth } from '../../wasm/read/pdf-numbering.js';
import type { StextLine, StextPage } from '../../wasm/read/pdf-page-model.js';
import { pageRows } from '../../wasm/read/pdf-rows.js';
import { renderedBlocks } from '../../wasm/read/render.js';

describe('section numbers (pdf-numbering.ts)', () => {
  it('gives the depth of dotted, single and Chinese numbers', () => {
    expect(sectionDepth('2.3.1 Installing the unit')).toBe(3);
    expect(sectionDepth('1.2. Scope')).toBe(2);
    expect(sectionDepth('4 Operation')).toBe(1);
    expect(sectionDepth('第二章 安装')).toBe(1);
    expect(sectionDepth('第三节 接线')).toBe(2);
    expect(sectionDepth('三、运行')).toBe(1);
    expect(sectionDepth('（二）接线')).toBe(2);
    expect(sectionDepth('1. 所需工具')).toBe(3);
  });

  it('finds no number in prose, figures or a version, and only section numbers when asked for them alone', () => {
    expect(sectionDepth('The unit weighs 2.5 kg')).toBeUndefined();
    expect(sectionDepth('1.5 2.0 3.5')).toBeUndefined();
    expect(sectionDepth('1. Install the unit', true)).toBeUndefined();
    expect(sectionDepth('4 Operation', true)).toBeUndefined();
    expect(sectionDepth('2.3 Wiring', true)).toBe(2);
    expect(sectionDepth('（一）准备工作', true)).toBe(2);
  });
});

/** A mupdf line at the left margin on baseline y. */
function line(text: string, y: number, size: number, bold = false): StextLine {
  return {
    bbox: { x: 50, y: y - size * 0.8, w: text.length * size * 0.5, h: size * 1.2 },
    font: { size, name: 'Helvetica', ...(bold && { weight: 'bold' }) },
    x: 50,
    y,
    text,
  };
}

const PROSE = 'Body text of the manual that is long enough to count as prose, running to the right edge of the column here.';

describe('levels of numbered headings (pdf-headings.ts, pdf-layout.ts)', () => {
  /** Chapters numbered at 16 pt, sections numbered in the body's size and weight below them. */
  const lines: StextLine[] = [];
  let y = 80;
  for (const [text, size] of [
    ['Product Manual', 22],
    ['1 Installation', 16],
    ['1.1 Before You Start', 10],
    ['1.1.1 Tools Needed', 10],
    ['2 Operation', 16],
    ['2.1 First Start', 10],
  ] as const) {
    lines.push(line(text, y, size));
    y += 30;
    for (let i = 0; i < 3; i++, y += 14) lines.push(line(PROSE, y, 10));
    y += 16;
  }
  const page: StextPage = { width: 700, height: 900, blocks: lines.map((l) => ({ type: 'text', lines: [l] })) };

  it('places body-size numbered sections under the numbered chapters the sizes rank, by the offset those chapters show', () => {
    const rows = pageRows(page);
    const tally = new StyleTally();
    tally.addPage(rows, 1);
    const style = tally.style();
    expect(style.numberOffset).toBe(1); // `1 Installation` is ##: level = depth + 1
    const headings = [...renderedBlocks(pageBlocks(rows, style))].filter((b) => b.startsWith('#'));
    expect(headings).toEqual([
      '# Product Manual',
      '## 1 Installation',
      '### 1.1 Before You Start',
      '#### 1.1.1 Tools Needed',
      '## 2 Operation',
      '### 2.1 First Start',
    ]);
  });
});

describe('bold numbered lines at the body size (pdf-headings.ts numberedTitle)', () => {
  /** A page as groff's -ms sets `.NH` headings: `1.` and `1.1.` in bold at the body's size, each paragraph's first line indented. */
  function pageOf(titles: readonly string[], bold: boolean): StextPage {
    const lines: StextLine[] = [];
    let y = 80;
    for (const title of titles) {
      lines.push(line(title, y, 10, bold));
      y += 16;
      lines.push({ ...line(PROSE, y, 10), x: 62, bbox: { ...line(PROSE, y, 10).bbox, x: 62 } });
      y += 12;
      lines.push(line(PROSE, y, 10));
      y += 20;
    }
    return { width: 700, height: 900, blocks: lines.map((l) => ({ type: 'text', lines: [l] })) };
  }
  const read = (page: StextPage) => {
    const rows = pageRows(page);
    const tally = new StyleTally();
    tally.addPage(rows, 1);
    return [...renderedBlocks(pageBlocks(rows, tally.style()))];
  };
  const SECTIONS = ['1. Scope', '1.1. Who should read it', '1.2. What it leaves out', '2. Installation', '2.1. Tools needed', '3. Maintenance'];

  it('reads `1.` in bold as a heading, its level the number’s depth, where the document numbers its bold titles more than one level deep', () => {
    const blocks = read(pageOf(SECTIONS, true));
    expect(blocks.filter((b) => b.startsWith('#'))).toEqual([
      '# 1. Scope',
      '## 1.1. Who should read it',
      '## 1.2. What it leaves out',
      '# 2. Installation',
      '## 2.1. Tools needed',
      '# 3. Maintenance',
    ]);
    expect(blocks[1]).toBe(`${PROSE} ${PROSE}`);
  });

  it('keeps a numbered list of bold lines a list where no deeper number shows the numbering is the sections’, and `1.` in the body’s weight', () => {
    const steps = read(pageOf(['1. Preparation', '2. Assembly', '3. Testing'], true));
    expect(steps.filter((b) => b.startsWith('#'))).toEqual([]);
    const plain = read(pageOf(SECTIONS, false));
    expect(plain.filter((b) => /^#+ \d\. /.test(b))).toEqual([]);
  });
});
