// Editable documents from PDFs and scans (contract v0.5): `convert` of a PDF or an image to DOCX,
// ODT or XLSX. The pages are the ones `read` lays out — the PDF worker's blocks, the scans' OCR
// lines through the same page model — and the reader worker writes the file from them
// (wasm/read/editable/). The writer runs there, not here, because a document of hundreds of pages
// would hold up the service's event loop while the library builds its XML and zips it; the model
// has to come back here anyway, as the scans' OCR is run from here. ODT is the DOCX converted by
// the office backend.

import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { RootContent } from 'mdast';
import { ApiError } from '../../core/errors.js';
import type { FileRef } from '../../core/file-ref.js';
import type { EditableFormat } from '../../core/input-formats.js';
import { NO_LINES } from '../../core/ocr-layout.js';
import type { EditableCounts, EditableModel, EditablePage } from '../../wasm/read/editable/model.js';
import { detectFormat } from '../formats/stream-info.js';
import { createPrivateOutput, trackTempDir, withStagedOutputs } from '../files/staging.js';
import type { JobControl } from '../jobs/policy.js';
import { readPdfPage } from '../scans/pdf-ocr.js';
import { pipelineInOrder } from '../jobs/bounded.js';
import type { ReadContext, ReadRequest } from './read-document.js';

/** What `read` is asked, but the cut: a document is rebuilt whole. */
export type EditableRequest = Omit<ReadRequest, 'maxCharacters'>;

/** `data` of the answer: what the document holds (`sheets` instead of `paragraphs` for XLSX). */
export interface EditableData {
  format: EditableFormat;
  pages: number;
  paragraphs?: number;
  sheets?: number;
  headings: number;
  tables: number;
  images: number;
  ocrPages: number[];
}

/** An A4 page, points: an image's page, standing as the image does. */
const A4 = { short: 595, long: 842 };

/** Writes `input` rebuilt as `format` to `outputPath` (staged: nothing is left on failure). */
export async function writeEditable(
  request: EditableRequest,
  format: EditableFormat,
  outputPath: string,
  context: ReadContext & { paths: Parameters<typeof withStagedOutputs>[0] },
): Promise<EditableData> {
  const { model, ocrPages } = await readModel(request, context);
  const counts = await withStagedOutputs(context.paths, [outputPath], ([temp]) =>
    format === 'odt' ? writeOdt(model, temp, request.shownName, context) : writeFile(model, format, temp, context),
  );
  const { paragraphs, sheets, headings, tables, images } = counts;
  return { format, pages: model.pages.length, ...(format === 'xlsx' ? { sheets } : { paragraphs }), headings, tables, images, ocrPages };
}

const writeFile = (model: EditableModel, format: 'docx' | 'xlsx', output: FileRef, { engines, ...control }: ReadContext): Promise<EditableCounts> =>
  engines.read.job(control, (tasks) => tasks.writeEditable({ model, format, output }));

/** The DOCX in a private temp dir, then the office backend's ODT of it into `output`. */
async function writeOdt(model: EditableModel, output: FileRef, shownName: string, context: ReadContext): Promise<EditableCounts> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'docwasm-editable-'));
  const tracked = trackTempDir(dir);
  try {
    const docx = await createPrivateOutput(path.join(dir, 'document.docx'));
    const counts = await writeFile(model, 'docx', docx, context);
    const [outcome] = await context.engines.documents.job(context, (backend) =>
      backend.convert([{ input: docx, extension: 'docx', family: 'text', format: 'odt', output, outputShown: output.path, shownName }], context),
    );
    if (!outcome?.ok) throw new ApiError(outcome?.code ?? 'INTERNAL_ERROR', outcome?.message ?? 'No conversion result');
    return counts;
  } finally {
    await tracked.remove();
  }
}

async function readModel(request: EditableRequest, context: ReadContext): Promise<{ model: EditableModel; ocrPages: number[] }> {
  const { content: format } = request.judged ?? (await detectFormat(request.input, request.shownName));
  if (format?.rebuiltAs?.length && format.reader === 'pdf') return readPdfModel(request, context);
  if (format?.rebuiltAs?.length && format.reader === 'ocr') return readImageModel(request, context);
  throw new ApiError('INVALID_INPUT', `${request.shownName} is neither a PDF nor an image by its content: only those are rebuilt as editable documents`);
}

async function readPdfModel(request: EditableRequest, { engines, config, ...control }: ReadContext): Promise<{ model: EditableModel; ocrPages: number[] }> {
  const { input, password, ranges, codes, engine } = request;
  const laid = await engines.pdf.job(control, (tasks) => tasks.readModel({ input, password, ranges, maxPages: config.maxPages }));
  const scans = laid.pages.filter((p) => p.needsOcr).map((p) => p.page);
  const total = laid.pages.length;
  control.progress?.(total - scans.length, total);
  // The scans' OCR lines, then their blocks judged together (headings by the scans' own sizes).
  const layouts: { layout: typeof NO_LINES; text: string }[] = [];
  const limit = config.workers + 1;
  await pipelineInOrder(
    scans,
    { limit, ahead: 2 * limit },
    control,
    (page, _, pageControl: JobControl) => readPdfPage(engines, pageControl, { input, password, codes, engine, dpi: 300, skipText: false, layout: true }, page),
    (reading, k) => {
      layouts.push({ layout: reading.layout ?? NO_LINES, text: reading.text });
      control.progress?.(total - scans.length + k + 1, total);
    },
  );
  const scanned = scans.length ? await engines.read.job(control, (tasks) => tasks.ocrPageModels({ pages: layouts })) : undefined;
  const blocksOf = new Map<number, RootContent[]>(scans.map((page, k) => [page, scanned?.blocks[k] ?? []]));
  const scanMargins = new Map(scans.map((page, k) => [page, scanned?.margins[k]]));
  const margins = documentMargins(laid.pages.map((p) => p.margins ?? scanMargins.get(p.page)));
  const pages: EditablePage[] = laid.pages.map((p) => ({
    blocks: blocksOf.get(p.page) ?? p.blocks,
    width: p.width,
    height: p.height,
    // A page whose text starts lower than the others' keeps its own top: its first line stands where the PDF's does.
    margins: margins && { ...margins, top: Math.max(margins.top, (p.margins ?? scanMargins.get(p.page))?.top ?? margins.top) },
    number: p.page,
    pictures: p.pictures,
    header: p.header,
    footer: p.footer,
  }));
  // The body style is the text layer's; a PDF of scans only has the one measured on its scans.
  const model =
    scans.length === total ? { pages, body: scanned?.body, headingSizes: scanned?.headingSizes } : { pages, body: laid.body, headingSizes: laid.headingSizes };
  return { model, ocrPages: scans };
}

/** Points the longest line of a ragged-right page may stop short of its right margin. */
const RAGGED_RIGHT = 12;

/**
 * The document's margins: on each side the least any page leaves (a page's own text may stop
 * short of the bottom, or of the right on a short line); none when no page has text.
 */
function documentMargins(pages: readonly EditablePage['margins'][]): EditablePage['margins'] {
  const known = pages.filter((m) => m !== undefined);
  if (known.length === 0) return undefined;
  const least = (side: 'top' | 'right' | 'bottom' | 'left') => Math.min(...known.map((m) => m[side]));
  const [left, right] = [least('left'), least('right')];
  // Lines end short of the right margin by up to a word (ragged right): a right margin a little
  // wider than the left is the left's, or every line would break a word early.
  return { top: least('top'), right: right > left && right - left <= RAGGED_RIGHT ? left : right, bottom: least('bottom'), left };
}

async function readImageModel(request: EditableRequest, { engines, config, ...control }: ReadContext): Promise<{ model: EditableModel; ocrPages: number[] }> {
  const { input, codes, engine } = request;
  const recognized = await engines.ocr.recognize({ image: input, maxPixels: config.maxPixels }, { codes, layout: true, engine }, control);
  const layout = recognized.layout ?? NO_LINES;
  const scanned = await engines.read.job(control, (tasks) => tasks.ocrPageModels({ pages: [{ layout, text: recognized.text }] }));
  const landscape = layout.width > layout.height;
  const page = { blocks: scanned.blocks[0] ?? [], width: landscape ? A4.long : A4.short, height: landscape ? A4.short : A4.long };
  // Not the scan's measured style: the image's points are taken at 300 dpi, and its page is A4 whatever its dpi.
  return { model: { pages: [page] }, ocrPages: [1] };
}
