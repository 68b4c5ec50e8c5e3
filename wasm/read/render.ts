// The one renderer: the block model (mdast) to CommonMark with GFM tables, footnotes and
// strikethrough, by mdast-util-to-markdown, which owns escaping. Long documents are cut at a
// block boundary once `maxCharacters` would be passed.

import type { BlockContent, Root, RootContent } from 'mdast';
import { gfmToMarkdown } from 'mdast-util-gfm';
import type { Element } from 'hast';
import { toHast } from 'mdast-util-to-hast';
import { toHtml } from 'hast-util-to-html';
import { toMarkdown, type Options } from 'mdast-util-to-markdown';

// Columns are not padded to align: padding costs characters (tokens) and misaligns CJK anyway.
const OPTIONS: Options = { extensions: [gfmToMarkdown({ tablePipeAlign: false })], bullet: '-', emphasis: '*', strong: '*', fences: true, listItemIndent: 'one', rule: '-' };

export interface Rendered {
  markdown: string;
  truncated: boolean;
}

export function renderMarkdown(blocks: readonly RootContent[], maxCharacters: number): Rendered {
  const parts: string[] = [];
  let length = 0;
  for (const block of blocks) {
    const text = toMarkdown({ type: 'root', children: [block] } satisfies Root, OPTIONS).trimEnd();
    if (text === '') continue;
    const added = (parts.length ? 2 : 0) + text.length;
    if (length + added > maxCharacters) return { markdown: joinBlocks(parts), truncated: true };
    parts.push(text);
    length += added;
  }
  return { markdown: joinBlocks(parts), truncated: false };
}

const joinBlocks = (parts: readonly string[]) => (parts.length ? `${parts.join('\n\n')}\n` : '');

/** Blocks as HTML, for the inside of an HTML table cell. */
export function blocksToHtml(blocks: readonly BlockContent[]): string {
  // One paragraph is written without its <p>. Its phrasing goes through the paragraph (a root
  // would put a line end between every two inline nodes).
  if (blocks.length === 1 && blocks[0]?.type === 'paragraph') return toHtml((toHast(blocks[0]) as Element).children);
  return toHtml(toHast({ type: 'root', children: [...blocks] })).replace(/\n/g, '');
}
