// How alike two PDFs look: each page rendered by poppler (pdftoppm) and compared with SSIM
// (ssim.js, full resolution: its default downsampling would hide JPEG artefacts). Used by the
// compress tests and the compress bench row to weigh our output against Ghostscript's.

import { execFileSync } from 'node:child_process';
import { ssim } from 'ssim.js';
import { pdfinfo } from './pdf-inspect.js';

/** A page's pixels, RGBA, as ssim.js takes them. */
export interface Rendered {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

/**
 * Mean SSIM over the pages of each candidate against the same pages of `reference`, rendered
 * at `dpi` (the reference is rendered once).
 */
export function pageSimilarities(reference: string, candidates: readonly string[], dpi = 150): number[] {
  const pages = Number(pdfinfo(reference).Pages);
  const totals = candidates.map(() => 0);
  for (let page = 1; page <= pages; page++) {
    const original = renderPage(reference, page, dpi);
    candidates.forEach((candidate, i) => (totals[i] = (totals[i] as number) + ssim(original, renderPage(candidate, page, dpi), { downsample: false }).mssim));
  }
  return totals.map((total) => total / pages);
}

/** One page as RGBA, from pdftoppm's binary PPM (P6) output. */
function renderPage(file: string, page: number, dpi: number): Rendered {
  const ppm = execFileSync('pdftoppm', ['-r', String(dpi), '-f', String(page), '-l', String(page), file], { maxBuffer: 1024 ** 3 });
  return ppmToRgba(ppm, `page ${page} of ${file}`);
}

/** pdftoppm's binary PPM (P6) as RGBA pixels. */
export function ppmToRgba(ppm: Buffer, what: string): Rendered {
  const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(ppm.subarray(0, 64).toString('latin1'));
  if (!header) throw new Error(`pdftoppm gave no PPM for ${what}`);
  const width = Number(header[1]);
  const height = Number(header[2]);
  const data = new Uint8ClampedArray(width * height * 4);
  for (let i = 0, at = header[0].length; i < width * height; i++, at += 3) {
    data[i * 4] = ppm[at] as number;
    data[i * 4 + 1] = ppm[at + 1] as number;
    data[i * 4 + 2] = ppm[at + 2] as number;
    data[i * 4 + 3] = 255;
  }
  return { data, width, height };
}
