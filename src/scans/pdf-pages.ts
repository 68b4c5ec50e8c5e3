// Page selection for work on a PDF's pages: the pages asked for (each once, in order), their
// sizes, and the budgets checked before any page is rendered: pages per document (--max-pages)
// and the pixel limit for every page. The job's total becomes the number of pages.

import { ApiError } from '../../core/errors.js';
import type { Engines } from '../engines/engines.js';
import type { JobControl } from '../jobs/policy.js';
import type { PageRange } from '../../core/page-ranges.js';
import type { PageSelection } from '../../wasm/pdf/render.js';
import type { FileRef } from '../../core/file-ref.js';

export interface PdfPagesRequest {
  input: FileRef;
  password?: string | undefined;
  ranges?: PageRange[] | undefined;
  dpi: number;
  maxPixels: number;
  maxPages: number;
}

export async function selectPdfPages(
  engines: Engines,
  control: JobControl,
  { input, password, ranges, dpi, maxPixels, maxPages }: PdfPagesRequest,
): Promise<PageSelection> {
  const selection = await engines.pdf.job(control, (tasks) => tasks.selectPages({ input, password, ranges, maxPages }));
  selection.sizes.forEach((size, i) => {
    const width = Math.round((size.width * dpi) / 72);
    const height = Math.round((size.height * dpi) / 72);
    if (width * height > maxPixels) {
      const page = selection.pages[i] as number;
      throw new ApiError('TOO_LARGE', `Page ${page} at ${dpi} dpi would be ${width}×${height} (${width * height} pixels); the limit is ${maxPixels} pixels`);
    }
  });
  control.progress?.(0, selection.pages.length);
  return selection;
}
