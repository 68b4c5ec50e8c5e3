// A word broken inside a narrow table cell (wasm/read/pdf-word-breaks.ts), on the positions
// LibreOffice gave DataX's neo4jwriter manual (12-pt Liberation Serif, the column's text up to
// about 139.9 pt).

import { describe, expect, it } from 'vitest';
import { brokenInWord } from '../../wasm/read/pdf-word-breaks.js';

const line = (text: string, x: number, right: number) => ({ text, extent: { x, right } });
const LIMIT = 139.9;

describe('brokenInWord', () => {
  it('joins a word that ran up to the limit, no room for the next line’s first letter', () => {
    expect(brokenInWord(line('bearerTok', 72.1, 135.0), line('en', 72.1, 86.9), LIMIT)).toBe(true);
    expect(brokenInWord(line('VariableN', 72.1, 133.8), line('ame', 72.1, 97.7), LIMIT)).toBe(true);
  });

  it('keeps a space where the line above ended with room for a letter (a wrap at a space)', () => {
    expect(brokenInWord(line('database', 72.1, 127.0), line('name', 72.1, 105.4), LIMIT)).toBe(false);
  });

  it('keeps a space where the line above ends in a space glyph, whose box runs up to the limit (a header name wrapped at its space)', () => {
    // "Records " over "per": the box takes the trailing space in.
    expect(brokenInWord({ text: 'Records', extent: { x: 72.1, right: 138.5, endsInSpace: true } }, line('per', 72.1, 96.4), LIMIT)).toBe(false);
    expect(brokenInWord(line('Records', 72.1, 138.5), line('per', 72.1, 96.4), LIMIT)).toBe(true);
  });

  it('keeps a space after a line of two words, punctuation or CJK, and where no limit is known', () => {
    expect(brokenInWord(line('retry count', 72.1, 139.0), line('mills', 72.1, 100), LIMIT)).toBe(false);
    expect(brokenInWord(line('bolt://', 72.1, 139.0), line('localhost', 72.1, 130), LIMIT)).toBe(false);
    expect(brokenInWord(line('权限相关', 72.1, 139.0), line('en', 72.1, 86.9), LIMIT)).toBe(false);
    expect(brokenInWord(line('bearerTok', 72.1, 135.0), line('en', 72.1, 86.9), NaN)).toBe(false);
  });
});
