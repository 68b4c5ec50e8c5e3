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
 * boundary instead, so a document with text never reads as nothing (issue 28 item 9). Every
 * character of the Markdown counts, its final line end included (issue 41 item 13: a cut at 50
 * answered 51), counted as `data.characters` counts them: UTF-16 units.
 */
export function joinBlocks(blocks: Iterable<string>, maxCharacters: number): Rendered {
  // Room for the blocks and the blank lines between them: the line end that closes the text is counted too.
  const room = maxCharacters - 1;
  const parts: string[] = [];
  let length = 0;
  let hasText = false;
  let skipped = false;
  for (const text of blocks) {
    const added = (parts.length ? 2 : 0) + text.length;
    if (length + added > room) {
      if (hasText) return { markdown: joined(parts), truncated: true };
      // A page marker that does not fit is left out: the text after it is what is cut in.
      if (isPageMarker(text)) {
        skipped = true;
        continue;
      }
      return { markdown: firstBlockCut(parts, length, text, maxCharacters), truncated: true };
    }
    parts.push(text);
    length += added;
    hasText ||= !isPageMarker(text);
  }
  return { markdown: joined(parts), truncated: skipped };
}

/**
 * The markers taken so far and as much of `text` as fits with its line end, whole characters; the
 * markers go when they leave no room. When not even one character fits with a line end
 * (`maxCharacters` 1), the text is that character alone.
 */
function firstBlockCut(parts: readonly string[], length: number, text: string, maxCharacters: number): string {
  const room = maxCharacters - 1 - length - (parts.length ? 2 : 0);
  const withMarkers = leadingCharacters(text, room);
  if (withMarkers !== '') return joined([...parts, withMarkers]);
  const alone = leadingCharacters(text, maxCharacters - 1);
  return alone === '' ? leadingCharacters(text, maxCharacters) : joined([alone]);
}

/**
 * The longest start of `text` within `limit` UTF-16 units that ends between two user-perceived
 * characters (a surrogate pair, a base letter and its combining marks, an emoji sequence stay
 * whole). When the first such character alone is longer than `limit` (an emoji sequence), whole
 * code points instead: a surrogate pair is never split, and the text never passes `limit` (empty
 * when its first code point alone does).
 */
export function leadingCharacters(text: string, limit: number): string {
  const within = (pieces: Iterable<string>) => {
    let end = 0;
    for (const piece of pieces) {
      if (end + piece.length > limit) break;
      end += piece.length;
    }
    return text.slice(0, end);
  };
  return within(graphemes(text)) || within(text);
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
