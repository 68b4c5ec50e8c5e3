// Our own parser of `pages` ("1-3, 5"): cpdf's parser reverses "3-1" silently and hides the
// real error, so both engines get ranges already checked here.

import { ApiError } from './errors.js';

export interface PageRange {
  /** The item as written, trimmed: names the output file (`report_1-3.pdf`). */
  label: string;
  first: number;
  last: number;
}

export interface ParseOptions {
  /** Accept "5-1" as pages 5, 4, 3, 2, 1 (rearrange); split rejects it. */
  allowDescending?: boolean;
}

export function parsePageRanges(spec: string, { allowDescending = false }: ParseOptions = {}): PageRange[] {
  const items = spec.split(',').map((item) => item.trim());
  return items.map((item) => {
    const match = /^(\d+)(?:\s*-\s*(\d+))?$/.exec(item);
    if (!match) throw new ApiError('INVALID_PAGE_RANGE', `Page item "${item}" is not N or N-M`);
    const first = Number(match[1]);
    const last = match[2] === undefined ? first : Number(match[2]);
    if (first < 1) throw new ApiError('INVALID_PAGE_RANGE', `Page numbers start at 1 ("${item}")`);
    if (last < 1) throw new ApiError('INVALID_PAGE_RANGE', `Page numbers start at 1 ("${item}")`);
    if (last < first && !allowDescending) throw new ApiError('INVALID_PAGE_RANGE', `Page range "${item}" is reversed`);
    return { label: match[2] === undefined ? `${first}` : `${first}-${last}`, first, last };
  });
}

export function checkRangesWithin(ranges: readonly PageRange[], pageCount: number): void {
  const outside = ranges.find((range) => Math.max(range.first, range.last) > pageCount);
  if (outside) {
    throw new ApiError('INVALID_PAGE_RANGE', `Page range "${outside.label}" is beyond the last page (${pageCount})`);
  }
}

/** 1-based page numbers in the order the ranges list them (descending ranges run backwards). */
export function pageSequence(ranges: readonly PageRange[]): number[] {
  const pages: number[] = [];
  for (const { first, last } of ranges) {
    const step = last >= first ? 1 : -1;
    for (let page = first; page !== last + step; page += step) pages.push(page);
  }
  return pages;
}

/** The set of 1-based pages that `ranges` select, or every page when there are none. */
export function selectedPages(ranges: readonly PageRange[] | undefined, pageCount: number): Set<number> {
  if (!ranges) return new Set(Array.from({ length: pageCount }, (_, i) => i + 1));
  checkRangesWithin(ranges, pageCount);
  return new Set(pageSequence(ranges));
}
