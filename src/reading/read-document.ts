// Reading any supported document as Markdown, by the reader its kind names in the table of
// input formats (core/input-formats.ts), its kind judged once here (src/formats/stream-info.ts)
// and told to the reader worker: office packages, HTML, CSV and the formats with engines of
// their own in the reader worker; legacy .doc/.xls/.ppt/.rtf first turned into their OOXML twin by the document backend
// (sandboxed, as for conversion); PDFs laid out by the PDF worker with their scanned pages read
// by OCR; images read by OCR. Every path ends in the one renderer of the reader worker.

import type { OcrEngineChoice } from '../../wasm/ocr/worker.js';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ApiError } from '../../core/errors.js';
import type { Engines } from '../engines/engines.js';
import type { JobControl } from '../jobs/policy.js';
import type { Config } from '../config.js';
import type { FileRef } from '../../core/file-ref.js';
import { NO_LINES } from '../../core/ocr-layout.js';
import type { PageRange } from '../../core/page-ranges.js';
import { checkDocumentContent, markupBudget } from '../document-checks/content-check.js';
import type { OutputFormat } from '../documents/formats.js';
import { formatOfExtension, readableExtensions, type DocumentFamily } from '../../core/input-formats.js';
import { detectFormat, type StreamInfo } from '../formats/stream-info.js';
import { createPrivateOutput, trackTempDir } from '../files/staging.js';
import { readScansToCut } from './pdf-scans.js';
import type { DocumentSignature } from '../../core/document-signature.js';

export interface ReadRequest {
  input: FileRef;
  /** The input as the user named it (its extension says what a text file is). */
  shownName: string;
  /** What the input is, when the caller has judged it already (convert's dispatch); else judged here, once. */
  judged?: StreamInfo | undefined;
  ranges?: PageRange[] | undefined;
  password?: string | undefined;
  /** OCR language codes, already validated. */
  codes: string[];
  /** OCR engine for scanned pages and images (auto when absent). */
  engine?: OcrEngineChoice | undefined;
  maxCharacters: number;
}

export interface ReadResult {
  markdown: string;
  truncated: boolean;
  /** The input's kind: docx, xlsx, …, pdf, html, csv, image. */
  format: string;
  pages?: number;
  ocrPages: number[];
  /** A format read by an engine of its own: the document's custom data (an e-invoice's fields), name → value. */
  fields?: Record<string, string>;
  /** A format read by an engine of its own: its signatures, checked (CONTRACT v0.5). */
  signatures?: DocumentSignature[];
}

export interface ReadContext extends JobControl {
  engines: Engines;
  config: Config;
}

const OOXML_TWIN: Readonly<Record<DocumentFamily, OutputFormat>> = { text: 'docx', spreadsheet: 'xlsx', presentation: 'pptx' };
/**
 * XML a document package may decompress to before it is TOO_LARGE (zip bombs). Parsed, XML takes
 * up to ~40 times its size in memory, so the reader's node budget (wasm/read/limits.ts) stops
 * dense XML well before this; the cap bounds the text a part may hold.
 */
const MAX_PACKAGE_BYTES = 64 * 1024 * 1024;
export async function readDocument(request: ReadRequest, context: ReadContext): Promise<ReadResult> {
  const { sniffed, content, named, extension } = request.judged ?? (await detectFormat(request.input, request.shownName));
  // By content where it has a signature (a ZIP by its parts, told to the reader worker; an OLE
  // container goes to the office backend as its name says, checked against its content there);
  // text formats by their name.
  if (sniffed === 'zip') return readMarkup(request.input, content?.kind, request, context);
  if (sniffed === 'ole') return readLegacy(request, extension, context);
  const format = content ?? (sniffed === undefined && named && 'byName' in named.signature ? named : undefined);
  switch (format?.reader) {
    case 'pdf':
      return readPdf(request, context);
    case 'ocr':
      return readImage(request, context);
    case 'office-twin':
      return readLegacy(request, extension, context);
    case 'markup':
      return readMarkup(request.input, format.kind, request, context);
  }
  if (named?.mismatch !== undefined) throw new ApiError('INVALID_INPUT', `${request.shownName} is not ${named.mismatch}`);
  throw new ApiError(
    'UNSUPPORTED_CONVERSION',
    `${request.shownName} is not a document that can be read as Markdown; readable: ${readableExtensions()
      .map((e) => `.${e}`)
      .join(', ')}`,
  );
}

/** The reader worker reads `kind` (undefined: a zip of no kind docwasm reads, answered as such there). */
async function readMarkup(input: FileRef, kind: string | undefined, request: ReadRequest, { engines, ...control }: ReadContext): Promise<ReadResult> {
  const read = await engines.read.job(control, (tasks) =>
    tasks.readFile({ input, kind, maxCharacters: request.maxCharacters, maxPackageBytes: MAX_PACKAGE_BYTES }),
  );
  return {
    markdown: read.markdown,
    truncated: read.truncated,
    format: read.kind,
    ocrPages: [],
    ...(read.pages !== undefined && { pages: read.pages }),
    ...(read.fields && { fields: read.fields }),
    ...(read.signatures && { signatures: read.signatures }),
  };
}

/** .doc/.xls/.ppt/.rtf: the document backend writes the OOXML twin, which is then read. */
async function readLegacy(request: ReadRequest, extension: string, context: ReadContext): Promise<ReadResult> {
  // The name says the family; the content check refuses content of another kind (RTF named .doc).
  const named = formatOfExtension(extension);
  const family = named?.family;
  if (!named || !family)
    throw new ApiError('UNSUPPORTED_CONVERSION', `${request.shownName}: a legacy office file needs its extension (.doc, .xls, .ppt, .rtf) to be read`);
  await checkDocumentContent(request.input, extension, family, request.shownName, markupBudget(context.config.officeMemoryMb * 1024 * 1024));
  // A temp dir of the service's, as the pipeline's: removed here, or at shutdown if a job is cut short.
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'docwasm-read-'));
  const tracked = trackTempDir(dir);
  try {
    const twin = await createPrivateOutput(path.join(dir, `document.${OOXML_TWIN[family]}`));
    const [outcome] = await context.engines.documents.job(context, (backend) =>
      backend.convert(
        [{ input: request.input, extension, family, format: OOXML_TWIN[family], output: twin, outputShown: twin.path, shownName: request.shownName }],
        context,
      ),
    );
    if (!outcome?.ok) throw new ApiError(outcome?.code ?? 'INTERNAL_ERROR', outcome?.message ?? 'No conversion result');
    const read = await readMarkup(twin, OOXML_TWIN[family], request, context);
    return { ...read, format: named.kind };
  } finally {
    await tracked.remove();
  }
}

async function readPdf(request: ReadRequest, { engines, config, ...control }: ReadContext): Promise<ReadResult> {
  const { input, password, ranges, codes, engine, maxCharacters } = request;
  // The PDF worker lays pages out only until their Markdown passes the cut.
  const laid = await engines.pdf.job(control, (tasks) => tasks.readMarkdown({ input, password, ranges, maxPages: config.maxPages, maxCharacters }));
  // Progress counts pages: those with a text layer are done once laid out, and so are those past
  // the cut (nothing is left to do for them); scans as OCR reads them.
  const total = laid.selected;
  const scans = laid.pages.filter((p) => p.needsOcr).length;
  const laidOut = total - scans;
  control.progress?.(laidOut, total);
  const read = await readScansToCut(laid.pages, { input, password, codes, engine }, maxCharacters, {
    ...control,
    engines,
    workers: config.workers,
    progress: (done) => control.progress?.(laidOut + done, total),
  });
  if (read.ocrPages.length < scans) control.progress?.(total, total);
  return { markdown: read.markdown, truncated: read.truncated, format: 'pdf', pages: total, ocrPages: read.ocrPages };
}

async function readImage(request: ReadRequest, { engines, config, ...control }: ReadContext): Promise<ReadResult> {
  const { input, codes, engine, maxCharacters } = request;
  const recognized = await engines.ocr.recognize({ image: input, maxPixels: config.maxPixels }, { codes, layout: true, engine }, control);
  const page = { layout: recognized.layout ?? NO_LINES, text: recognized.text };
  const rendered = await engines.read.job(control, (tasks) => tasks.renderOcrPage({ page, maxCharacters }));
  return { ...rendered, format: 'image', ocrPages: [1] };
}
