// CSV files as one table (the first row its header), parsed by papaparse (quotes, embedded
// newlines, the delimiter detected among , ; tab |). Rows are taken one at a time and counted
// against the cell budget, so a file of millions of rows stops at TOO_LARGE, not out of memory.

import type { RootContent } from 'mdast';
import Papa from 'papaparse';
import { table, type CellSource } from './blocks.js';
import { cellBudget } from './limits.js';
import { blocksToHtml } from './render.js';

export function readCsv(text: string): RootContent[] {
  const cells = cellBudget();
  const rows: CellSource[][] = [];
  let failure: unknown;
  Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), {
    skipEmptyLines: 'greedy',
    delimitersToGuess: [',', ';', '\t', '|'],
    step: ({ data }, parser) => {
      try {
        cells.spend(data.length);
        rows.push(
          data.map((value) => ({
            blocks: value.trim() ? [{ type: 'paragraph', children: [{ type: 'text', value: value.trim() }] }] : [],
            colSpan: 1,
            rowSpan: 1,
          })),
        );
      } catch (err) {
        failure = err;
        parser.abort();
      }
    },
  });
  if (failure) throw failure;
  return rows.length ? [table(rows, blocksToHtml)] : [];
}
