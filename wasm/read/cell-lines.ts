// The text of a table cell written as HTML, as lines: a paragraph or a heading (in a cell it
// titles the cell, not the document) is a line, a list item a line after its marker (`- `, `1. `),
// a code block one line per line of code. The renderer joins them with <br>, as a cell shows
// them, where <p>, <h3>, <ul> and <pre> spent characters on markup (a list of three items: 30
// against 8) and a code block's line ends were lost (a cell's HTML is written on one line). A
// cell holding any other block (a nested list, a quote, a rule) has no lines: it keeps its HTML.

import type { BlockContent, List, PhrasingContent } from 'mdast';

/** One line of a cell: the phrasing written on it. */
export type CellLine = PhrasingContent[];

/** The cell's blocks as lines, or undefined when one of them is not text on lines. */
export function cellLines(blocks: readonly BlockContent[]): CellLine[] | undefined {
  const lines: CellLine[] = [];
  for (const block of blocks) {
    const made = linesOf(block);
    if (!made) return undefined;
    for (const line of made) lines.push(line);
  }
  return lines;
}

function linesOf(block: BlockContent): CellLine[] | undefined {
  switch (block.type) {
    case 'paragraph':
    case 'heading':
      return [block.children];
    case 'code':
      return block.value.split('\n').map((line): CellLine => (line ? [{ type: 'inlineCode', value: line }] : []));
    case 'list':
      return listLines(block);
    default:
      return undefined;
  }
}

/** A list whose items hold only paragraphs: each item's first line after its marker. A list holding a list has no lines (its nesting would be lost). */
function listLines(list: List): CellLine[] | undefined {
  const lines: CellLine[] = [];
  let number = list.start ?? 1;
  for (const item of list.children) {
    const paragraphs: CellLine[] = [];
    for (const block of item.children) {
      if (block.type !== 'paragraph') return undefined;
      paragraphs.push(block.children);
    }
    const task = item.checked === true ? '[x] ' : item.checked === false ? '[ ] ' : '';
    const marker: PhrasingContent = { type: 'text', value: `${list.ordered ? `${number++}.` : '-'} ${task}` };
    const [first = [], ...rest] = paragraphs;
    lines.push([marker, ...first], ...rest);
  }
  return lines;
}
