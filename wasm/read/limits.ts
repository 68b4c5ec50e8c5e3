// What one read may cost, whatever the document says: how deep its elements nest, how many XML
// nodes it builds, how many table cells it writes out (repeated rows and columns included) and
// how many grid slots an HTML table's spans cover. Each is checked while the work is done, so
// a small file that asks for more is TOO_LARGE in the time it takes to reach the limit.

import { ApiError } from '../../core/errors.js';

/**
 * Elements nested in one another (XML of office parts, HTML). libxml2 refuses XML deeper than
 * 256 and browsers stop nesting HTML at 512; real documents stay far below. Below this depth
 * every recursive step (ours and the unified libraries') fits the worker's stack many times over.
 */
export const MAX_NESTING = 512;

/**
 * XML elements and text nodes one document may build, over all its parts. A node costs about
 * 340 bytes of heap (measured: 4 MB of docx paragraphs built 450,000 nodes in 154 MB), so this
 * holds the parsed parts under ~350 MB; a sheet of ~250,000 cells, a docx of ~100,000
 * paragraphs fit (the default 200,000 characters of Markdown are ~20,000 cells).
 */
export const MAX_XML_NODES = 1_000_000;

/** Table cells a document may be written with, repeated rows and columns counted as written out. */
export const MAX_CELLS = 500_000;

/** Grid slots (rows × columns, spans included) of one HTML table. */
export const MAX_TABLE_SLOTS = 1_000_000;

/**
 * List levels written nested; deeper entries stay at the deepest level. Word and PowerPoint
 * have 9 levels, LibreOffice 10. Each level re-indents everything inside it when written.
 */
export const MAX_LIST_DEPTH = 10;

export const nestedTooDeep = (what: string): ApiError => new ApiError('TOO_LARGE', `${what} nests elements more than ${MAX_NESTING} levels deep; refused`);

/** A countdown shared by everything one read builds of a kind (cells, nodes). */
export class Budget {
  private left: number;

  constructor(
    private readonly limit: number,
    private readonly describe: (limit: number) => string,
  ) {
    this.left = limit;
  }

  /** Takes `count` from the budget, or throws TOO_LARGE once it would go below zero. */
  spend(count: number): void {
    this.left -= count;
    if (this.left < 0) throw new ApiError('TOO_LARGE', this.describe(this.limit));
  }
}

export const cellBudget = (): Budget =>
  new Budget(MAX_CELLS, (limit) => `The document's tables hold more than ${limit.toLocaleString('en-US')} cells (repeated rows and columns counted); refused`);
