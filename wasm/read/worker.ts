// Reader worker: office documents, HTML and CSV read from their own XML/markup into the block
// model and rendered as Markdown here, so no document is parsed on the service's main thread.
// PDF pages arrive as blocks from the PDF worker and are rendered here too; OCR'd pages arrive as
// their lines and boxes and go through the PDF page model here (ocr-page.ts).

import type { RootContent } from 'mdast';
import type { FileRef } from '../../core/file-ref.js';
import { defineTask, documentException, serveTasks } from '../shared/task.js';
import { readInputFile, writeOutputFile } from '../shared/io.js';
import type { EditableCounts, EditableModel } from './editable/model.js';
import { writeDocx } from './editable/docx.js';
import { writeXlsx } from './editable/xlsx.js';
import { scanStyle, type ScanPages } from './editable/scan-style.js';
import { readBlocks } from './document.js';
import { renderMarkdown, renderedBlocks, type Rendered } from './render.js';
import { ocrPagesBlocks } from './ocr-page.js';
import { formatEngine, hasFormatEngine, packageLimits } from '../shared/format-engines.js';
import type { OcrPageLayout } from '../../core/ocr-layout.js';
import type { DocumentSignature } from '../../core/document-signature.js';

export interface ReadFileTask {
  input: FileRef;
  /**
   * The input's kind, as the service judged it by content (core/input-formats.ts); undefined: a
   * zip of no kind docwasm reads.
   */
  kind: string | undefined;
  maxCharacters: number;
  /** Decompressed bytes of XML a package may hold. */
  maxPackageBytes: number;
}

export interface ReadFileResult extends Rendered {
  kind: string;
  /** A format read by an engine of its own: the document's custom data (an e-invoice's fields), name → value. */
  fields?: Record<string, string>;
  /** A format read by an engine of its own: its page count. */
  pages?: number;
  /** A format read by an engine of its own: its signatures, checked. */
  signatures?: DocumentSignature[];
}

/** The plain text of a format with an engine of its own (convert to txt). */
export interface ReadTextTask {
  kind: string;
  input: FileRef;
  maxPackageBytes: number;
}

export interface RenderTask {
  blocks: RootContent[];
  maxCharacters: number;
}

export interface RenderPagesTask {
  /** Each page's blocks. */
  pages: RootContent[][];
}

/** Pages read by OCR: where their lines are, and the engine's text (read as it is for vertical columns). */
export interface OcrPagesTask {
  pages: { layout: OcrPageLayout; text: string }[];
}

export interface WriteEditableTask {
  model: EditableModel;
  format: 'docx' | 'xlsx';
  output: FileRef;
}

const ocrBlocks = (pages: OcrPagesTask['pages']) =>
  ocrPagesBlocks(
    pages.map((p) => p.layout),
    pages.map((p) => p.text),
  );

/**
 * Every task here reads a document's content (its file, or blocks and OCR lines taken from it):
 * a reader's own exception is INVALID_INPUT for that document, here once for all readers.
 */
const readerTask = <I, O>(run: (input: I) => Promise<O> | O) => defineTask(run, { describeUnexpected: documentException('The document') });

const tasks = {
  readFile: readerTask(async ({ input, kind, maxCharacters, maxPackageBytes }: ReadFileTask): Promise<ReadFileResult> => {
    const bytes = readInputFile(input);
    const limits = packageLimits(maxPackageBytes);
    if (kind !== undefined && hasFormatEngine(kind)) return { kind, ...(await formatEngine(kind).markdown(bytes, maxCharacters, limits)) };
    return { kind: kind ?? 'zip', ...renderMarkdown(readBlocks(bytes, kind, limits), maxCharacters) };
  }),
  /** The plain text of a format with an engine of its own (convert to txt), and its custom data. */
  readText: readerTask(({ kind, input, maxPackageBytes }: ReadTextTask) => formatEngine(kind).text(readInputFile(input), packageLimits(maxPackageBytes))),
  render: readerTask(({ blocks, maxCharacters }: RenderTask): Rendered => renderMarkdown(blocks, maxCharacters)),
  /** Each page's blocks as Markdown, to be joined with other pages' (core/markdown-join.ts). */
  renderPages: readerTask(({ pages }: RenderPagesTask): string[][] => pages.map((blocks) => [...renderedBlocks(blocks)])),
  /** An image read by OCR as Markdown, its lines through the PDF page model. */
  renderOcrPage: readerTask(({ page, maxCharacters }: { page: OcrPagesTask['pages'][number]; maxCharacters: number }): Rendered =>
    renderMarkdown(ocrBlocks([page])[0] ?? [], maxCharacters),
  ),
  /** Scanned PDF pages read by OCR, each page's blocks as Markdown (as renderPages). */
  renderOcrPages: readerTask(({ pages }: OcrPagesTask): string[][] => ocrBlocks(pages).map((blocks) => [...renderedBlocks(blocks)])),
  /** Pages read by OCR as the block model itself (an editable document's pages), judged together, with their text style. */
  ocrPageModels: readerTask(({ pages }: OcrPagesTask): ScanPages => {
    const blocks = ocrBlocks(pages);
    return {
      blocks,
      ...scanStyle(
        pages.map((p) => p.layout),
        blocks,
      ),
    };
  }),
  /** An editable document (convert of a PDF or scan to DOCX or XLSX) written to `output` from the block model. */
  writeEditable: readerTask(async ({ model, format, output }: WriteEditableTask): Promise<EditableCounts> => {
    const { bytes, counts } = format === 'docx' ? await writeDocx(model) : await writeXlsx(model);
    writeOutputFile(output, bytes);
    return counts;
  }),
};

export type ReadTasks = typeof tasks;
export default serveTasks(tasks);
