// CSV files as one table (the first row its header), parsed by papaparse (quotes, embedded
// newlines, the delimiter detected among , ; tab |).

import type { RootContent } from 'mdast';
import Papa from 'papaparse';
import { table, type CellSource } from './blocks.js';
import { blocksToHtml } from './render.js';

export function readCsv(text: string): RootContent[] {
  const { data } = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { skipEmptyLines: 'greedy', delimitersToGuess: [',', ';', '\t', '|'] });
  if (!data.length) return [];
  const rows: CellSource[][] = data.map((row) => row.map((value) => ({ blocks: value.trim() ? [{ type: 'paragraph', children: [{ type: 'text', value: value.trim() }] }] : [], colSpan: 1, rowSpan: 1 })));
  return [table(rows, blocksToHtml)];
}
