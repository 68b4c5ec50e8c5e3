// Markdown of a document from the Markdown of its blocks: blank lines between them, cut at the
// last whole block within `maxCharacters`. Shared by the reader worker, which renders whole
// documents, and the PDF read, whose pages are rendered by the PDF worker as it lays them out.

export interface Rendered {
  markdown: string;
  truncated: boolean;
}

/**
 * Takes blocks only while they fit, so a lazy iterable stops rendering at the cut. When not one
 * block of text fits (`maxCharacters` smaller than the first), that block is cut at a character
 * boundary instead, so a document with text never reads as nothing (issue 28 item 9).
 */
export function joinBlocks(blocks: Iterable<string>, maxCharacters: number): Rendered {
  const parts: string[] = [];
  let length = 0;
  let hasText = false;
  let skipped = false;
  for (const text of blocks) {
    const added = (parts.length ? 2 : 0) + text.length;
    if (length + added > maxCharacters) {
      if (hasText) return { markdown: joined(parts), truncated: true };
      // A page marker that does not fit is left out: the text after it is what is cut in.
      if (isPageMarker(text)) {
        skipped = true;
        continue;
      }
      return { markdown: joined(withFirstBlockCut(parts, length, text, maxCharacters)), truncated: true };
    }
    parts.push(text);
    length += added;
    hasText ||= !isPageMarker(text);
  }
  return { markdown: joined(parts), truncated: skipped };
}

/** The markers taken so far and as much of `text` as fits, whole characters; the markers go when they leave no room. */
function withFirstBlockCut(parts: readonly string[], length: number, text: string, maxCharacters: number): string[] {
  const room = maxCharacters - length - (parts.length ? 2 : 0);
  const [first = ''] = graphemes(text);
  if (room < first.length) return [leadingCharacters(text, maxCharacters)];
  return [...parts, leadingCharacters(text, room)];
}

/**
 * The longest start of `text` within `limit` UTF-16 units that ends between two user-perceived
 * characters (a surrogate pair, a base letter and its combining marks, an emoji sequence stay
 * whole); at least the first character, even when it alone is longer.
 */
export function leadingCharacters(text: string, limit: number): string {
  let end = 0;
  for (const character of graphemes(text)) {
    if (end + character.length > limit && end > 0) break;
    end += character.length;
    if (end >= limit) break;
  }
  return text.slice(0, end);
}

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
function* graphemes(text: string): Generator<string> {
  for (const { segment } of segmenter.segment(text)) yield segment;
}

/** The length of the Markdown once `blocks` are joined after `length` characters of it (as joinBlocks counts). */
export function joinedLength(length: number, blocks: Iterable<string>): number {
  let total = length;
  for (const text of blocks) total += (total ? 2 : 0) + text.length;
  return total;
}

/** The comment that opens each page of a PDF read. */
export const pageMarker = (page: number): string => `<!-- page ${page} -->`;
const isPageMarker = (block: string): boolean => /^<!-- page \d+ -->$/.test(block);

const joined = (parts: readonly string[]) => (parts.length ? `${parts.join('\n\n')}\n` : '');
