// Bookmarks across page copies: mupdf drops the outline when pages move to another document,
// so the outline is read, its page numbers mapped, and written back.

import * as mupdf from 'mupdf';

export type OutlineItem = NonNullable<ReturnType<mupdf.PDFDocument['loadOutline']>>[number];

/**
 * The outline with each page index passed through `mapPage`; an item whose page maps to
 * undefined keeps its title and children but points nowhere.
 */
export function remapOutline(items: readonly OutlineItem[], mapPage: (page: number) => number | undefined): OutlineItem[] {
  return items.map((item) => {
    const internal = item.page !== undefined && item.page >= 0;
    const page = internal ? mapPage(item.page as number) : undefined;
    return {
      title: item.title,
      uri: internal ? undefined : item.uri,
      open: item.open,
      ...(page !== undefined && { page }),
      ...(item.down && { down: remapOutline(item.down, mapPage) }),
    };
  });
}

export function shiftOutline(items: readonly OutlineItem[], offset: number): OutlineItem[] {
  return remapOutline(items, (page) => page + offset);
}

/** Adds `items` after the document's existing top-level bookmarks. */
export function appendOutline(doc: mupdf.PDFDocument, items: readonly OutlineItem[]): void {
  if (items.length === 0) return;
  const iterator = doc.outlineIterator();
  try {
    if (iterator.item()) while (iterator.next() === mupdf.OutlineIterator.ITERATOR_AT_ITEM);
    insertItems(doc, iterator, items);
  } finally {
    iterator.destroy();
  }
}

function insertItems(doc: mupdf.PDFDocument, iterator: mupdf.OutlineIterator, items: readonly OutlineItem[]): void {
  for (const item of items) {
    const uri = item.page !== undefined ? doc.formatLinkURI(new mupdf.LinkDestination(0, item.page, 'Fit')) : item.uri;
    iterator.insert({ title: item.title, uri, open: item.open });
    if (item.down?.length) {
      iterator.prev();
      iterator.down();
      insertItems(doc, iterator, item.down);
      iterator.up();
      iterator.next();
    }
  }
}
