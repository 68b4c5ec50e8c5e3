// OFD read as Markdown: the custom data (an e-invoice's fields) as a table first, then each page's
// text in reading order after its `<!-- page N -->` comment (wasm/ofd/text.ts).

import { joinBlocks, pageMarker, type Rendered } from '../../core/markdown-join.js';
import { readOfd } from './open.js';
import type { OfdSignature } from './signatures.js';
import { fieldsTable, pageBlocks, pageLines } from './text.js';
import type { PackageLimits } from '../read/package.js';
import { renderedBlocks } from '../read/render.js';

export interface OfdRead extends Rendered {
  fields: Record<string, string>;
  pages: number;
  signatures: OfdSignature[];
}

/** The text alone: each page's lines, pages apart by a form feed (as OCR's text of several pages). */
export function readOfdText(bytes: Uint8Array, limits?: PackageLimits): Omit<OfdRead, keyof Rendered> & { text: string } {
  const document = readOfd(bytes, 'text', limits);
  const text = document.pages.map((page) => pageLines(page).join('\n')).join('\n\f');
  return { text: text === '' ? '' : `${text}\n`, fields: document.fields, pages: document.pages.length, signatures: document.signatures };
}

export function readOfdMarkdown(bytes: Uint8Array, maxCharacters: number, limits?: PackageLimits): OfdRead {
  const document = readOfd(bytes, 'text', limits);
  const table = fieldsTable(document.fields);
  const pages = pageBlocks(document);
  function* blocks(): Generator<string> {
    if (table) yield* renderedBlocks([table]);
    for (const [index, page] of pages.entries()) {
      yield pageMarker(index + 1);
      yield* renderedBlocks(page);
    }
  }
  return { ...joinBlocks(blocks(), maxCharacters), fields: document.fields, pages: document.pages.length, signatures: document.signatures };
}
