// rearrange on mupdf: a new document built from copies of the listed pages (mupdf-pages.ts), so
// a repeated page is a page object of its own. Bookmarks follow the first copy of their page;
// those whose page was dropped keep their title and point nowhere.

import type * as mupdf from 'mupdf';
import { appendPages } from '../mupdf-pages.js';
import { appendOutline, remapOutline } from '../mupdf-outline.js';

/** Appends the pages at `indices` (0-based, any order, repeats allowed) of `source` to `target`. */
export function copyPagesInOrder(target: mupdf.PDFDocument, source: mupdf.PDFDocument, indices: readonly number[]): void {
  appendPages(target, source, indices);
  const firstCopy = new Map<number, number>();
  indices.forEach((source, position) => {
    if (!firstCopy.has(source)) firstCopy.set(source, position);
  });
  appendOutline(
    target,
    remapOutline(source.loadOutline() ?? [], (page) => firstCopy.get(page)),
  );
}
