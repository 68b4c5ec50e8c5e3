// The one renderer: the block model (mdast) to CommonMark with GFM tables, footnotes and
// strikethrough, by mdast-util-to-markdown, which owns escaping. Every block, and every table
// cell written as HTML, is made inert first (inert.ts). Long documents are cut at a block
// boundary once `maxCharacters` would be passed (core/markdown-join.ts).

import type { BlockContent, Root, RootContent, Table, Text } from 'mdast';
import { markdownTable } from 'markdown-table';
import { gfmToMarkdown } from 'mdast-util-gfm';
import type { Element } from 'hast';
import { toHast } from 'mdast-util-to-hast';
import { toHtml } from 'hast-util-to-html';
import { defaultHandlers, toMarkdown, type Handle, type Options } from 'mdast-util-to-markdown';
import { joinBlocks, type Rendered } from '../../core/markdown-join.js';
import { cellLines } from './cell-lines.js';
import { inertBlocks } from './inert.js';

/**
 * Text that no Markdown construct can mistake for syntax in any position: letters, digits, any
 * other character outside ASCII but white space (Markdown's syntax is all ASCII: CJK punctuation
 * such as ：（） is text), inner spaces, `,%/`, a dot between digits (no list marker, no
 * autolink) and a hyphen between two letters or digits (no list item, no rule); its alternatives
 * never match the same character, so a long line that fails is refused in linear time. The library's
 * escaping tries some fifty patterns on every text node (85 ms for a 4,000-cell sheet, most of
 * its rendering; half of an e-invoice's); such text is written as it is, which is what the
 * escaping would give.
 */
const PLAIN_TEXT =
  /^(?:[\p{L}\p{N}]|[^\0-\x7f\p{L}\p{N}\s])(?:[\p{L}\p{N} ,%/]|[^\0-\x7f\p{L}\p{N}\s]|(?<=\d)\.(?=\d)|(?<=[\p{L}\p{N}])-(?=[\p{L}\p{N}]))*(?<! )$/u;

const text: Handle = (node: Text, parent, state, info) => (PLAIN_TEXT.test(node.value) ? node.value : defaultHandlers.text(node, parent, state, info));

// Columns are not padded to align: padding costs characters (tokens) and misaligns CJK anyway.
const GFM = gfmToMarkdown({ tablePipeAlign: false });
const gfmTable = GFM.extensions?.find((extension) => extension.handlers?.table)?.handlers?.table as Handle;

/**
 * A table whose cells are plain text (or empty) goes straight to markdown-table with the options
 * the GFM table handler gives it; only tables with richer cells take that handler's per-cell
 * phrasing pass, most of the time a large sheet took to render.
 */
const table: Handle = (node: Table, parent, state, info) => {
  const matrix = plainCells(node);
  if (!matrix) return gfmTable(node, parent, state, info);
  const head = matrix[0];
  const columns = node.align?.length || matrix.reduce((widest, row) => Math.max(widest, row.length), 0);
  while (head && head.length < columns) head.push('');
  return markdownTable(matrix, { align: node.align ?? null, alignDelimiters: false, fillRows: false, padding: true });
};

function plainCells(node: Table): string[][] | undefined {
  const matrix: string[][] = [];
  for (const row of node.children) {
    const cells: string[] = [];
    for (const cell of row.children) {
      const only = cell.children[0];
      if (cell.children.length === 0) cells.push('');
      else if (cell.children.length === 1 && only?.type === 'text' && PLAIN_TEXT.test(only.value)) cells.push(only.value);
      else return undefined;
    }
    matrix.push(cells);
  }
  return matrix;
}

const OPTIONS: Options = {
  extensions: [GFM],
  handlers: { text, table },
  bullet: '-',
  emphasis: '*',
  strong: '*',
  fences: true,
  listItemIndent: 'one',
  rule: '-',
};

export type { Rendered };

export const renderMarkdown = (blocks: Iterable<RootContent>, maxCharacters: number): Rendered => joinBlocks(renderedBlocks(blocks), maxCharacters);

/** Each block's Markdown, lazily; blocks that write nothing are left out. */
export function* renderedBlocks(blocks: Iterable<RootContent>): Generator<string> {
  for (const block of blocks) {
    const text = toMarkdown({ type: 'root', children: inertBlocks(block) } satisfies Root, OPTIONS).trimEnd();
    if (text !== '') yield text;
  }
}

/** Blocks as HTML, for the inside of an HTML table cell. */
export function blocksToHtml(cellBlocks: readonly BlockContent[]): string {
  const blocks = cellBlocks.flatMap((block) => inertBlocks(block) as BlockContent[]);
  // Text blocks are lines (cell-lines.ts), each without a <p>. A line's phrasing goes through a
  // paragraph (a root would put a line end between every two inline nodes).
  const lines = cellLines(blocks);
  if (lines) return lines.map((line) => toHtml((toHast({ type: 'paragraph', children: line }) as Element).children)).join('<br>');
  return toHtml(toHast({ type: 'root', children: [...blocks] })).replace(/\n/g, '');
}
