// Markdown of a document from the Markdown of its blocks: blank lines between them, cut at the
// last whole block within `maxCharacters`. Shared by the reader worker, which renders whole
// documents, and the PDF read, whose pages are rendered by the PDF worker as it lays them out.

export interface Rendered {
  markdown: string;
  truncated: boolean;
}

/** Takes blocks only while they fit, so a lazy iterable stops rendering at the cut. */
export function joinBlocks(blocks: Iterable<string>, maxCharacters: number): Rendered {
  const parts: string[] = [];
  let length = 0;
  for (const text of blocks) {
    const added = (parts.length ? 2 : 0) + text.length;
    if (length + added > maxCharacters) return { markdown: joined(parts), truncated: true };
    parts.push(text);
    length += added;
  }
  return { markdown: joined(parts), truncated: false };
}

/** The length of the Markdown once `blocks` are joined after `length` characters of it (as joinBlocks counts). */
export function joinedLength(length: number, blocks: Iterable<string>): number {
  let total = length;
  for (const text of blocks) total += (total ? 2 : 0) + text.length;
  return total;
}

/** The comment that opens each page of a PDF read. */
export const pageMarker = (page: number): string => `<!-- page ${page} -->`;

const joined = (parts: readonly string[]) => (parts.length ? `${parts.join('\n\n')}\n` : '');
