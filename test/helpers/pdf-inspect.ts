// Independent readings of PDFs for the PDF tool tests: poppler (pdfinfo, pdftotext, pdfimages,
// pdffonts) and qpdf, never docwasm's own engines.

import { execFileSync, spawnSync } from 'node:child_process';

const passwordArgs = (password?: string) => (password ? ['-upw', password] : []);

/** pdfinfo's "Key: value" lines; pass `pages` to get the per-page lines too. */
export function pdfinfo(file: string, { password, pages }: { password?: string; pages?: number } = {}): Record<string, string> {
  const range = pages ? ['-f', '1', '-l', String(pages)] : [];
  const output = execFileSync('pdfinfo', [...passwordArgs(password), ...range, file]).toString();
  const fields: Record<string, string> = {};
  for (const line of output.split('\n')) {
    const match = /^([^:]+):\s*(.*)$/.exec(line);
    if (match) fields[(match[1] as string).trim()] = (match[2] as string).trim();
  }
  return fields;
}

/** `Page rot` of each page, from pdfinfo. */
export function pageRotations(file: string, pages: number): number[] {
  const info = pdfinfo(file, { pages });
  return Array.from({ length: pages }, (_, i) => Number(info[`Page ${String(i + 1).padStart(4)} rot`]));
}

export function pageText(file: string, page: number, password?: string): string {
  const args = [...passwordArgs(password), '-f', String(page), '-l', String(page), file, '-'];
  return execFileSync('pdftotext', args).toString().replace(/\f/g, '').trim();
}

export interface ListedImage {
  page: number;
  width: number;
  height: number;
  encoding: string;
  /** Bytes, from pdfimages' size column. */
  bytes: number;
}

export function listImages(file: string): ListedImage[] {
  const lines = execFileSync('pdfimages', ['-list', file]).toString().trim().split('\n').slice(2);
  return lines.map((line) => {
    const cols = line.trim().split(/\s+/);
    return { page: Number(cols[0]), width: Number(cols[3]), height: Number(cols[4]), encoding: cols[8] as string, bytes: sizeInBytes(cols[14] as string) };
  });
}

function sizeInBytes(size: string): number {
  const match = /^([\d.]+)([BKMG]?)$/.exec(size);
  if (!match) return Number.NaN;
  const unit = { '': 1, B: 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 }[match[2] as string] ?? 1;
  return Number(match[1]) * unit;
}

export interface ListedFont {
  name: string;
  type: string;
  embedded: boolean;
}

export function listFonts(file: string): ListedFont[] {
  const lines = execFileSync('pdffonts', [file]).toString().trim().split('\n').slice(2);
  return lines.map((line) => {
    // The name may be empty or hold spaces: the yes/no columns are the fixed landmarks.
    const match = /^(.*?)\s{2,}(\S.*?)\s+(\S+)\s+(yes|no)\s+(yes|no)\s+(yes|no)\s+\d+\s+\d+\s*$/.exec(line);
    return { name: match?.[1]?.trim() ?? line, type: match?.[2] ?? '', embedded: match?.[4] === 'yes' };
  });
}

/** The document as qpdf's QDF text (uncompressed, no object streams), for looking at dictionaries. */
export function qdfText(file: string, password?: string): string {
  const args = [...(password ? [`--password=${password}`] : []), '--qdf', '--object-streams=disable', file, '-'];
  return execFileSync('qpdf', args, { maxBuffer: 512 * 1024 * 1024 }).toString('latin1');
}

export function isEncrypted(file: string): boolean {
  // qpdf --is-encrypted: exit 0 = encrypted, 2 = not.
  return spawnSync('qpdf', ['--is-encrypted', file]).status === 0;
}

/** qpdf --check with warnings counted as failures. */
export function qpdfCheckStrict(file: string): { ok: boolean; output: string } {
  const result = spawnSync('qpdf', ['--check', file]);
  return { ok: result.status === 0, output: `${result.stdout}${result.stderr}` };
}

/**
 * The page's text in content-stream order with all white space removed: how to find rotated
 * text, which pdftotext otherwise breaks into pieces (one glyph a line for diagonal text).
 */
export function compactRawText(file: string, page: number): string {
  const args = ['-raw', '-f', String(page), '-l', String(page), file, '-'];
  return execFileSync('pdftotext', args).toString().replace(/\s+/g, '');
}
