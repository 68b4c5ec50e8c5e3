// The redaction presets: each finds what it names and refuses look-alikes whose check fails.

import { describe, expect, it } from 'vitest';
import { findMatches, isChineseResidentId, isIban, isCardNumber, patternMatcher, removeMatches, textMatcher } from '../../core/redact-patterns.js';

const found = (text: string, pattern: string) => findMatches(text, [patternMatcher(pattern)]).map(({ start, end }) => text.slice(start, end));

describe('redaction presets', () => {
  it('email', () => {
    expect(found('mail bob.smith+tag@mail.example.co.uk or 张三@例子.中国 now', 'email')).toEqual(['bob.smith+tag@mail.example.co.uk', '张三@例子.中国']);
  });
  it('phone: 7 to 15 digits in international, national and plain forms; dates and short numbers are not phones', () => {
    expect(found('call +86 138 0013 8000, (030) 1234-5678 or 13800138000', 'phone')).toEqual(['+86 138 0013 8000', '(030) 1234-5678', '13800138000']);
    expect(found('on 2024-01-31, room 12 34', 'phone')).toEqual([]);
  });
  it('cn-id: the GB 11643 check digit', () => {
    expect(isChineseResidentId('11010519491231002X')).toBe(true);
    expect(isChineseResidentId('110105194912310021')).toBe(false);
    expect(found('id 11010519491231002x end', 'cn-id')).toEqual(['11010519491231002x']);
  });
  it('credit-card: a network prefix and length, and the Luhn digit', () => {
    expect(isCardNumber('4111111111111111')).toBe(true);
    expect(isCardNumber('4111111111111112')).toBe(false);
    expect(isCardNumber('378282246310005')).toBe(true);
    expect(isCardNumber('370400440532013001')).toBe(false);
    expect(found('card 5555-5555-5555-4444 ok', 'credit-card')).toEqual(['5555-5555-5555-4444']);
  });
  it('iban: mod 97', () => {
    expect(isIban('DE89 3704 0044 0532 0130 00')).toBe(true);
    expect(isIban('GB82WEST12345698765432')).toBe(true);
    expect(isIban('DE89 3704 0044 0532 0130 01')).toBe(false);
  });
  it('regexes and exact strings; matches removed, overlaps merged', () => {
    expect(found('a1 b22 c333', 'b\\d+')).toEqual(['b22']);
    expect(removeMatches('pay (1+1) now', [textMatcher('(1+1)')])).toBe('pay  now');
    expect(findMatches('abcdef', [textMatcher('abc'), textMatcher('cde')])).toEqual([{ start: 0, end: 5 }]);
  });
});
