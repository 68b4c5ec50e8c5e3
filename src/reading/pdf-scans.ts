// The scans of a PDF read (pages without a text layer) read with OCR until the Markdown passes
// the read's cut. Pages are read a few at a time, a new one started as soon as one finishes, and
// counted in page order: a page's characters count once every page before it is known, and no
// page is started once the count passes the cut, so the scans past it are not read.

import type { Engines } from '../engines/engines.js';
import type { JobControl } from '../jobs/policy.js';
import { readPdfPage, type PageOcrRequest } from '../scans/pdf-ocr.js';
import { pipelineInOrder } from '../jobs/bounded.js';
import { NO_LINES } from '../../core/ocr-layout.js';
import { joinBlocks, joinedLength, pageMarker, type Rendered } from '../../core/markdown-join.js';
import type { PdfPageMarkdown } from '../../wasm/pdf/read-task.js';

export interface ScanReadContext extends JobControl {
  engines: Engines;
  /** OCR threads: one page each is read at a time, and one more is rendered. */
  workers: number;
}

export interface ScansRead extends Rendered {
  /** The scans read, up to the page whose Markdown passes the cut. */
  ocrPages: number[];
}

/** `progress` counts the scans read, in page order. */
export async function readScansToCut(
  laid: readonly PdfPageMarkdown[],
  request: Omit<PageOcrRequest, 'dpi' | 'skipText' | 'layout'>,
  maxCharacters: number,
  { engines, workers, progress, ...control }: ScanReadContext,
): Promise<ScansRead> {
  const known = laid.map((p) => (p.needsOcr ? undefined : p.blocks));
  const scans = laid.flatMap((p, index) => (p.needsOcr ? [index] : []));
  let counted = 0;
  let length = 0;
  // Pages counted in order while their Markdown is known; true once it passes the cut.
  const passesCut = () => {
    for (let blocks = known[counted]; blocks && length <= maxCharacters; blocks = known[counted]) {
      length = joinedLength(length, [pageMarker((laid[counted] as PdfPageMarkdown).page), ...blocks]);
      counted++;
    }
    return length > maxCharacters;
  };
  const readScan = async (index: number, _: number, pageControl: JobControl) => {
    const page = (laid[index] as PdfPageMarkdown).page;
    const reading = await readPdfPage(engines, pageControl, { ...request, dpi: 300, skipText: false, layout: true }, page);
    const layout = reading.layout ?? NO_LINES;
    const [blocks] = await engines.read.job(pageControl, (tasks) => tasks.renderOcrPages({ pages: [{ layout, text: reading.text }] }));
    return blocks ?? [];
  };
  if (!passesCut()) {
    // As many pages under way as OCR threads, and one more being rendered.
    const limit = workers + 1;
    await pipelineInOrder(scans, { limit, ahead: 2 * limit }, control, readScan, (blocks, k) => {
      known[scans[k] as number] = blocks;
      progress?.(k + 1, scans.length);
      return passesCut();
    });
  }
  const rendered = joinBlocks(
    laid.flatMap((p, index) => [pageMarker(p.page), ...(known[index] ?? [])]),
    maxCharacters,
  );
  return { ...rendered, ocrPages: scans.filter((index) => known[index]).map((index) => (laid[index] as PdfPageMarkdown).page) };
}
