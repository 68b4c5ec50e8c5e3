// Reader worker: office documents, HTML and CSV read from their own XML/markup into the block
// model and rendered as Markdown here, so no document is parsed on the service's main thread.
// PDF pages and OCR text arrive as blocks from the other engines and are rendered here too.

import type { RootContent } from 'mdast';
import type { FileRef } from '../../src/shared/file-ref.js';
import { defineTask, serveTasks } from '../shared/task.js';
import { readInputFile } from '../shared/io.js';
import { readBlocks, type MarkupKind } from './document.js';
import { renderMarkdown, renderedBlocks, type Rendered } from './render.js';

export interface ReadFileTask {
  input: FileRef;
  /** What a file that is not a zip package is; zips are judged by their parts. */
  textKind?: 'html' | 'csv' | undefined;
  maxCharacters: number;
  /** Decompressed bytes of XML a package may hold. */
  maxPackageBytes: number;
}

export interface ReadFileResult extends Rendered {
  kind: MarkupKind;
}

export interface RenderTask {
  blocks: RootContent[];
  maxCharacters: number;
}

export interface RenderPagesTask {
  /** Each page's blocks. */
  pages: RootContent[][];
}

const tasks = {
  readFile: defineTask(({ input, textKind, maxCharacters, maxPackageBytes }: ReadFileTask): ReadFileResult => {
    const { kind, blocks } = readBlocks(readInputFile(input), textKind, { maxTotalBytes: maxPackageBytes, maxEntries: 20_000 });
    return { kind, ...renderMarkdown(blocks, maxCharacters) };
  }),
  render: defineTask(({ blocks, maxCharacters }: RenderTask): Rendered => renderMarkdown(blocks, maxCharacters)),
  /** Each page's blocks as Markdown, to be joined with other pages' (src/shared/markdown-join.ts). */
  renderPages: defineTask(({ pages }: RenderPagesTask): string[][] => pages.map((blocks) => [...renderedBlocks(blocks)])),
};

export type ReadTasks = typeof tasks;
export default serveTasks(tasks);
