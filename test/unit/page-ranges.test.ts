import { describe, expect, it } from 'vitest';
import { checkRangesWithin, parsePageRanges } from '../../core/page-ranges.js';
import { errorCodeOf } from '../helpers/error-code.js';

describe('parsePageRanges', () => {
  it('reads single pages and ranges, with their labels, in order', () => {
    expect(parsePageRanges('1-3, 5')).toEqual([
      { label: '1-3', first: 1, last: 3 },
      { label: '5', first: 5, last: 5 },
    ]);
  });

  it('tolerates spaces around items and dashes', () => {
    expect(parsePageRanges(' 2 - 4 ')).toEqual([{ label: '2-4', first: 2, last: 4 }]);
  });

  it('refuses an item that is not N or N-M', () => {
    for (const spec of ['a', '1-', '-2', '1,,2', '1-2-3', '1.5'])
      expect(
        errorCodeOf(() => parsePageRanges(spec)),
        spec,
      ).toBe('INVALID_PAGE_RANGE');
  });

  it('refuses page 0', () => {
    expect(errorCodeOf(() => parsePageRanges('0-2'))).toBe('INVALID_PAGE_RANGE');
  });

  it('refuses a reversed range instead of swapping it', () => {
    expect(errorCodeOf(() => parsePageRanges('3-1'))).toBe('INVALID_PAGE_RANGE');
  });
});

describe('checkRangesWithin', () => {
  it('accepts ranges up to the last page', () => {
    expect(() => checkRangesWithin(parsePageRanges('1-3'), 3)).not.toThrow();
  });

  it('refuses a range beyond the last page', () => {
    expect(errorCodeOf(() => checkRangesWithin(parsePageRanges('2-4'), 3))).toBe('INVALID_PAGE_RANGE');
  });
});
