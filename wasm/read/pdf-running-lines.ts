// Stage 2 of PDF reading: running headers, footers and page numbers. A row in the top or bottom
// band of the page that repeats on most pages (digits aside, so "Page 3" is "Page 4"), or is a
// bare page number there, is left out. Counted page by page (the counts are all that is kept of
// the bands), so a document is read in one pass with a guess until every page is counted.

import type { PageRows, Row } from './pdf-page-model.js';

/** A bare page number, in the forms pages number themselves ("3", "- 3 -", "Page 3 of 9", "第 3 页"). */
const PAGE_NUMBER = /^\s*[-–—]?\s*((page|p\.|第)\s*)?\d{1,5}(\s*(\/|of|页|頁)\s*\d{1,5})?\s*(页|頁)?\s*[-–—]?\s*$/i;

/** Header and footer bands: this share of the page's height at its top and at its bottom. */
const BAND_SHARE = 0.1;
/**
 * A bare page number may stand further in, the page's last row or its first: within this share
 * of the page's height (LaTeX's article sets its foot 0.17 of an A4 page up, past the band).
 */
const PAGE_NUMBER_SHARE = 0.25;
/** A line in a band on at least this share of the pages repeats (a running header or footer). */
const REPEATED_SHARE = 0.5;
/** Fewer pages than this say nothing of what repeats. */
const MIN_PAGES = 3;

const inBand = (row: Row, height: number) => !row.table && (row.bottom < height * BAND_SHARE || row.top > height * (1 - BAND_SHARE));

/** A bare page number with no row beyond it, below the text near the page's foot or above it near its head. */
function outerPageNumber(row: Row, { rows, height }: PageRows): boolean {
  if (row.table || !PAGE_NUMBER.test(row.text)) return false;
  const others = rows.filter((r) => r !== row);
  if (row.top > height * (1 - PAGE_NUMBER_SHARE)) return others.every((r) => r.bottom <= row.top);
  return row.bottom < height * PAGE_NUMBER_SHARE && others.every((r) => r.top >= row.bottom);
}
/** Digits ignored, so "Page 3" matches "Page 4". */
const runningKey = (row: Row) => row.text.replace(/\d+/g, '#').toLowerCase();

/** The keys of a page's rows in its header and footer bands: all the first pass keeps of them. */
export const bandKeys = ({ rows, height }: PageRows): string[] => [...new Set(rows.filter((r) => inBand(r, height)).map(runningKey))];

/**
 * Rows repeated near the top or bottom of most pages (running headers and footers) and bare
 * page numbers there, counted page by page: the counts are all that is kept of the bands.
 */
export class RunningLines {
  private readonly counts = new Map<string, number>();
  private seen = 0;
  private readonly threshold: number;

  constructor(private readonly pageCount: number) {
    this.threshold = Math.max(2, pageCount * REPEATED_SHARE);
  }

  addPage(keys: readonly string[]): void {
    this.seen++;
    for (const k of keys) this.counts.set(k, (this.counts.get(k) ?? 0) + 1);
  }

  /** Once every page is counted: a line on at least half the pages (of three or more) repeats. */
  repeated(key: string): boolean {
    return this.pageCount >= MIN_PAGES && (this.counts.get(key) ?? 0) >= this.threshold;
  }

  /**
   * Before every page is counted: certain once the count reaches the threshold or can no longer
   * reach it, otherwise guessed from the share of the pages counted so far that have the line.
   */
  likelyRepeated(key: string): boolean {
    const count = this.counts.get(key) ?? 0;
    if (this.pageCount < MIN_PAGES || count + (this.pageCount - this.seen) < this.threshold) return false;
    return count >= this.threshold || count * 2 >= this.seen;
  }

  /** The page's rows without its running lines, as `repeated` (or a guess of it) tells them. */
  static kept(page: PageRows, repeated: (key: string) => boolean): Row[] {
    const { rows, height } = page;
    return rows.filter((row) => !(inBand(row, height) && (PAGE_NUMBER.test(row.text) || repeated(runningKey(row)))) && !outerPageNumber(row, page));
  }
}
