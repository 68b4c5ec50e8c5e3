// OCR of a PDF: each page rendered in grey by the PDF engine and read by the OCR engine, as
// two jobs with their own time limits, several pages at once (one per OCR thread, plus one
// being rendered). Pages stream through: at most that many rendered pages exist at a time.

import type { Engines } from '../engines/engines.js';
import type { JobControl } from '../jobs/policy.js';
import type { OcrPageLayout } from '../../core/ocr-layout.js';
import type { PageSelection } from '../../wasm/pdf/render.js';
import { pipelineInOrder } from '../jobs/bounded.js';
import type { FileRef } from '../../core/file-ref.js';
import type { OcrEngineChoice, OcrEngineName } from '../../wasm/ocr/worker.js';

/** What reading one page of a PDF with OCR needs. */
export interface PageOcrRequest {
  input: FileRef;
  password?: string | undefined;
  dpi: number;
  codes: string[];
  skipText: boolean;
  /** Keep where the words are (searchable PDF output). */
  layout: boolean;
  engine?: OcrEngineChoice | undefined;
}

export interface PdfOcrRequest extends PageOcrRequest {
  selection: PageSelection;
}

export interface PageReading {
  page: number;
  text: string;
  /** Null for a page skipped because it already had text. */
  confidence: number | null;
  layout?: OcrPageLayout | undefined;
  /** The engine that read the page; absent for a skipped page. */
  engine?: OcrEngineName;
}

export async function readPdfPages(engines: Engines, threads: number, control: JobControl, request: PdfOcrRequest): Promise<PageReading[]> {
  const { pages } = request.selection;
  const readings: PageReading[] = [];
  const readPage = (page: number, _: number, pageControl: JobControl) => readPdfPage(engines, pageControl, request, page);
  await pipelineInOrder(pages, { limit: threads + 1 }, control, readPage, (reading) => {
    readings.push(reading);
    control.progress?.(readings.length, pages.length);
  });
  return readings;
}

/** One page: rendered in grey by the PDF engine and read by the OCR engine, two jobs with their own time limits. */
export async function readPdfPage(engines: Engines, control: JobControl, request: PageOcrRequest, page: number): Promise<PageReading> {
  const { input, password, dpi, skipText, codes, layout, engine } = request;
  const rendered = await engines.pdf.job(control, (tasks) => tasks.renderForOcr({ input, password, page, dpi, skipText }));
  if ('existingText' in rendered) return { page, text: rendered.existingText, confidence: null };
  const result = await engines.ocr.recognize({ page: rendered.image }, { codes, layout, engine }, control);
  return { page, text: result.text, confidence: result.confidence, layout: result.layout, engine: result.engine };
}
