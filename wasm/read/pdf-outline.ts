// PDF reading, part of stage 6 (headings): the document's outline (its bookmarks), which most
// Word, LibreOffice and LaTeX exports carry, one entry a heading at its level. Where the outline
// names the headings the text shows, it tells their levels better than sizes and numbers do: a
// numbered heading set in the body's font, or two levels set alike, keep the level the author gave
// them. It is trusted only where it matches the text (StyleTally counts the matches): an outline
// of a few chapters, or of other titles than the text's, leaves the headings to size and number.

/** An outline item as mupdf gives it (`Document.loadOutline`): a title, its page, the items under it. */
export interface OutlineNode {
  title?: string | undefined;
  page?: number | undefined;
  down?: readonly OutlineNode[] | undefined;
}

/** One heading the outline names: its text as compared (outlineKey) and its depth (1: top). */
export interface OutlineEntry {
  key: string;
  depth: number;
  /** The page it points to (0-based), when it points into the document. */
  page: number | undefined;
}

/**
 * A title as compared with a paragraph's text: letters and digits only, in one case, without a
 * leading section number — an outline may leave out the number the text prints (`2.1 Scope` is
 * bookmarked `Scope`), or the spaces and punctuation a line break puts in.
 */
export function outlineKey(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/^[\s\d.]+(?=\p{L})/u, '')
    .replace(/[^\p{L}\p{N}]/gu, '');
}

/** The outline's entries, depth first as they stand, each with its depth; untitled items left out. */
export function outlineEntries(items: readonly OutlineNode[] | null | undefined, depth = 1): OutlineEntry[] {
  return (items ?? []).flatMap((item) => {
    const key = outlineKey(item.title ?? '');
    const own = key ? [{ key, depth, page: item.page }] : [];
    return [...own, ...outlineEntries(item.down, depth + 1)];
  });
}

/** Entries whose titles the text must show, at least this share of them, for the outline to set levels. */
const MATCHED_SHARE = 0.5;

/** The outline as the headings' levels: each title's depth, and the pages it points to. */
export class OutlineLevels {
  private readonly byKey = new Map<string, OutlineEntry[]>();

  constructor(entries: readonly OutlineEntry[]) {
    for (const entry of entries) this.byKey.set(entry.key, [...(this.byKey.get(entry.key) ?? []), entry]);
  }

  /** The outline depth of a paragraph's text anywhere (the shallowest where a title repeats), or undefined when the outline does not name it. */
  depthOf(text: string): number | undefined {
    const entries = this.byKey.get(outlineKey(text));
    return entries && Math.min(...entries.map((e) => e.depth));
  }

  /** Whether the titles found in the text (distinct keys) are enough for the outline to be trusted. */
  matches(found: number): boolean {
    return this.byKey.size > 0 && found >= this.byKey.size * MATCHED_SHARE;
  }

  /** The entries that point to one page (1-based) or to no page, for that page's paragraphs to take. */
  onPage(page: number): PageOutline {
    const here = [...this.byKey.values()].flat().filter((e) => e.page === undefined || e.page === page - 1);
    return new PageOutline(here);
  }
}

/**
 * One page's outline entries, each taken by the first paragraph that shows its title: the same
 * words again lower on the page, or on a page the entry does not point to, are body text.
 */
export class PageOutline {
  private readonly left: OutlineEntry[];

  constructor(entries: readonly OutlineEntry[]) {
    this.left = [...entries];
  }

  /** The depth of the entry a paragraph's text takes, or undefined. */
  take(text: string): number | undefined {
    const key = outlineKey(text);
    const at = this.left.findIndex((e) => e.key === key);
    return at < 0 ? undefined : this.left.splice(at, 1)[0]?.depth;
  }
}
