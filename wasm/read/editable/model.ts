// What a writer of editable documents (convert of a PDF or a scan to DOCX or XLSX) is given: the
// pages as `read` laid them out — the same blocks (mdast) that become its Markdown — with each
// page's size and margins and the text style measured over the whole document. Nothing here
// reads the PDF again.

import type { RootContent } from 'mdast';
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
