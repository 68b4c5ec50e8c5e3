// What a writer of editable documents (convert of a PDF or a scan to DOCX or XLSX) is given: the
// pages as `read` laid them out — the same blocks (mdast) that become its Markdown — with each
// page's size and margins and the text style measured over the whole document. Nothing here
// reads the PDF again.

import type { RootContent } from 'mdast';
import { htmlTableCells, type CellSource } from '../blocks.js';
import type { PagePicture } from '../../pdf/page-pictures.js';
import type { RunningText } from '../../pdf/read-task.js';

export interface EditablePage {
  blocks: RootContent[];
  /** Points, as the page is shown. */
  width: number;
  height: number;
  /** Points from each edge to the text; absent: the writer's defaults. */
  margins?: { top: number; right: number; bottom: number; left: number } | undefined;
  /** The PDF's number of the page (what its running page number counts). */
  number?: number;
  /** The pictures the page's `image` blocks name (url `picture:<index>`). */
  pictures?: readonly PagePicture[] | undefined;
  /** Running lines at the top and bottom of the page: its header and footer. */
  header?: RunningText | undefined;
  footer?: RunningText | undefined;
}

export interface EditableModel {
  pages: EditablePage[];
  /** The body text's size in points, and its font as the PDF names it (absent for scans). */
  body?: { size: number; font: string } | undefined;
  /** Heading sizes in points, by level (index 0: level 1). */
  headingSizes?: number[] | undefined;
}

/** What a writer made, for `data`. */
export interface EditableCounts {
  paragraphs: number;
  headings: number;
  tables: number;
  images: number;
  sheets?: number;
}

/** A table block's cells with their spans (a GFM table's as plain cells); undefined: not a table. */
export function tableCells(block: RootContent): readonly CellSource[][] | undefined {
  if (block.type === 'html') return htmlTableCells(block);
  if (block.type !== 'table') return undefined;
  return block.children.map((row) =>
    row.children.map((cell) => ({ blocks: cell.children.length ? [{ type: 'paragraph', children: cell.children }] : [], colSpan: 1, rowSpan: 1 })),
  );
}

/** A cell's text: its blocks' text, paragraphs on lines of their own. */
export function cellText(cell: CellSource): string {
  return cell.blocks.map(plainText).join('\n');
}

/** The text of any node, its children's joined. */
export function plainText(node: RootContent | { children?: unknown; value?: unknown }): string {
  if ('value' in node && typeof node.value === 'string') return node.value;
  if ('children' in node && Array.isArray(node.children)) return (node.children as RootContent[]).map(plainText).join('');
  return '';
}
