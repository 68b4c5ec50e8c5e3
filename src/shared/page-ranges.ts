// Our own parser of `pages` ("1-3, 5"): cpdf's parser reverses "3-1" silently and hides the
// real error, so both engines get ranges already checked here.

import { ApiError } from '../errors.js';

export interface PageRange {
  /** The item as written, trimmed: names the output file (`report_1-3.pdf`). */
  label: string;
  first: number;
  last: number;
}

export function parsePageRanges(spec: string): PageRange[] {
  const items = spec.split(',').map((item) => item.trim());
  return items.map((item) => {
    const match = /^(\d+)(?:\s*-\s*(\d+))?$/.exec(item);
    if (!match) throw new ApiError('INVALID_PAGE_RANGE', `Page item "${item}" is not N or N-M`);
    const first = Number(match[1]);
    const last = match[2] === undefined ? first : Number(match[2]);
    if (first < 1) throw new ApiError('INVALID_PAGE_RANGE', `Page numbers start at 1 ("${item}")`);
    if (last < first) throw new ApiError('INVALID_PAGE_RANGE', `Page range "${item}" is reversed`);
    return { label: match[2] === undefined ? `${first}` : `${first}-${last}`, first, last };
  });
}

export function checkRangesWithin(ranges: readonly PageRange[], pageCount: number): void {
  const outside = ranges.find((range) => range.last > pageCount);
  if (outside) {
    throw new ApiError('INVALID_PAGE_RANGE', `Page range "${outside.label}" is beyond the last page (${pageCount})`);
  }
}
