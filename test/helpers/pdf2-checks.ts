// Independent readings for the PDF tools redact, stamp, forms and sign
// (docs/pdf-redact-forms-stamp-sign.md): poppler and qpdf, never docwasm's engines.

import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';

/** All text of a PDF, by pdftotext. */
export function allText(file: string): string {
  return execFileSync('pdftotext', [file, '-']).toString();
}

/** The whole file with every stream decompressed and no object streams (qpdf --qdf), as latin1 text. */
export function decompressed(file: string): string {
  const out = `${file}.qdf`;
  const result = spawnSync('qpdf', ['--qdf', '--object-streams=disable', file, out]);
  if (result.status !== 0 && result.status !== 3) throw new Error(`qpdf --qdf failed: ${result.stderr.toString()}`);
  try {
    return fs.readFileSync(out).toString('latin1');
  } finally {
    fs.rmSync(out, { force: true });
  }
}

/** The darkest grey level (0 black – 1 white) within a box of page `page` rendered at 72 dpi, by pdftoppm and ImageMagick. */
export function darkestIn(file: string, page: number, box: { x: number; y: number; width: number; height: number }): number {
  const prefix = `${file}.render`;
  execFileSync('pdftoppm', ['-r', '72', '-gray', '-f', String(page), '-l', String(page), '-singlefile', '-png', file, prefix]);
  try {
    const crop = `${Math.round(box.width)}x${Math.round(box.height)}+${Math.round(box.x)}+${Math.round(box.y)}`;
    return Number(
      execFileSync('convert', [`${prefix}.png`, '-crop', crop, '-format', '%[fx:minima]', 'info:'])
        .toString()
        .trim(),
    );
  } finally {
    fs.rmSync(`${prefix}.png`, { force: true });
  }
}

/** The colour of one pixel of page `page` rendered at 72 dpi (one pixel a point), by pdftoppm and ImageMagick. */
export function pixelAt(file: string, page: number, x: number, y: number): string {
  const prefix = `${file}.render`;
  execFileSync('pdftoppm', ['-r', '72', '-f', String(page), '-l', String(page), '-singlefile', '-png', file, prefix]);
  try {
    return execFileSync('convert', [`${prefix}.png`, '-format', `%[pixel:p{${x},${y}}]`, 'info:'])
      .toString()
      .trim();
  } finally {
    fs.rmSync(`${prefix}.png`, { force: true });
  }
}

/** qpdf's JSON view of a PDF (objects, outlines, acroform...). */
export function qpdfJson(file: string, ...keys: string[]): Record<string, unknown> {
  const args = ['--json', ...keys.map((key) => `--json-key=${key}`), file];
  return JSON.parse(execFileSync('qpdf', args, { maxBuffer: 256 * 1024 * 1024 }).toString()) as Record<string, unknown>;
}
