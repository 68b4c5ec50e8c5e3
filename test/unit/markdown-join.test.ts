// The Markdown cut at maxCharacters (core/markdown-join.ts): at a block boundary, and when
// not one block fits, the first block cut between two characters — never an empty answer for a
// document with text (issue 28 item 9: a maxCharacters under the first block answered "").

import { describe, expect, it } from 'vitest';
import { joinBlocks, leadingCharacters, pageMarker } from '../../core/markdown-join.js';

/** No lone surrogate (String.prototype.isWellFormed, which the project's lib target lacks). */
const wellFormed = (text: string): boolean => !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);

const CHINESE = '本地文件处理服务不需要网络，所有文件都留在这台电脑上。';
const SURROGATES = '𠀀𠀁𠀂𠀃'; // CJK Extension B: two UTF-16 units each
const COMBINING = 'e\u0301e\u0301e\u0301'; // é as e + a combining acute accent
const FAMILY = '👨‍👩‍👧'; // one character of 8 UTF-16 units (a ZWJ sequence)

describe('joinBlocks', () => {
  it('cuts at the last whole block that fits and says truncated', () => {
    expect(joinBlocks(['# Title', 'First paragraph.', 'Second.'], 30)).toEqual({ markdown: '# Title\n\nFirst paragraph.\n', truncated: true });
    expect(joinBlocks(['# Title', 'Body.'], 100)).toEqual({ markdown: '# Title\n\nBody.\n', truncated: false });
  });

  it('cuts the first block at a character boundary when it alone is longer than maxCharacters (Chinese)', () => {
    expect(joinBlocks([CHINESE, 'next'], 10)).toEqual({ markdown: `${CHINESE.slice(0, 9)}\n`, truncated: true });
    // No room for a line end after the one character: the character alone.
    expect(joinBlocks([CHINESE], 1)).toEqual({ markdown: '本', truncated: true });
  });

  it('never splits a surrogate pair, a combining sequence or an emoji sequence', () => {
    expect(joinBlocks([SURROGATES], 5).markdown).toBe('𠀀𠀁\n');
    expect(joinBlocks([COMBINING], 3).markdown).toBe('e\u0301\n');
    expect(joinBlocks([COMBINING], 5).markdown).toBe('e\u0301e\u0301\n');
    // A first character longer than the limit is cut between code points, never past the limit
    // and never inside a surrogate pair.
    expect(joinBlocks([`${FAMILY} family`], 3).markdown).toBe('👨\n');
    expect(joinBlocks([`${FAMILY} family`], 9).markdown).toBe(`${FAMILY}\n`);
    // Every cut of a mixed text ends where one user-perceived character ends.
    const mixed = `${SURROGATES}${COMBINING}${FAMILY}${CHINESE}`;
    const ends = new Set([...new Intl.Segmenter('und', { granularity: 'grapheme' }).segment(mixed)].map((s) => s.index + s.segment.length));
    for (let limit = 1; limit <= 24; limit++) {
      const cut = leadingCharacters(mixed, limit);
      expect(ends.has(cut.length) && wellFormed(cut) && cut.length <= limit, `${limit}: ${JSON.stringify(cut)}`).toBe(limit > 1);
    }
  });

  it("keeps a PDF's page marker before the cut text when both fit, and leaves a marker out when it alone does not", () => {
    const marker = pageMarker(1);
    expect(joinBlocks([marker, CHINESE], marker.length + 2 + 4)).toEqual({ markdown: `${marker}\n\n${CHINESE.slice(0, 3)}\n`, truncated: true });
    expect(joinBlocks([marker, CHINESE], 6)).toEqual({ markdown: `${CHINESE.slice(0, 5)}\n`, truncated: true });
    expect(joinBlocks([marker, pageMarker(2), 'Text on page two.'], 20)).toEqual({ markdown: `${marker}\n\nTe\n`, truncated: true });
  });
});
