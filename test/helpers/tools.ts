// Independent checks with native tools (qpdf, poppler), never with docwasm's own engines.

import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';

/** Debian's python3 (python3-docx, python3-openpyxl: scripts/test-tools.txt), not a user's pyenv. */
export const PYTHON = '/usr/bin/python3';
/** Where Debian's tesseract-ocr-eng and tesseract-ocr-chi-sim put their data: what a user's tesseract CLI reads. */
export const DEBIAN_TESSDATA = '/usr/share/tesseract-ocr/5/tessdata';

export function qpdfCheck(file: string, password?: string): boolean {
  const args = [...(password ? [`--password=${password}`] : []), '--check', file];
  return spawnSync('qpdf', args).status === 0;
}

export function pageCount(file: string, password?: string): number {
  return Number(
    execFileSync('qpdf', [...(password ? [`--password=${password}`] : []), '--show-npages', file])
      .toString()
      .trim(),
  );
}

/** Page texts in order, via poppler's pdftotext (form feed between pages). */
export function pdfPageTexts(file: string, password?: string): string[] {
  const output = execFileSync('pdftotext', [...(password ? ['-upw', password] : []), '-layout', file, '-']).toString();
  return output
    .split('\f')
    .map((page) => page.trim())
    .filter((page) => page !== '');
}

export function requiresPassword(file: string): boolean {
  // qpdf --requires-password: exit 0 = a password is required, 2 = not encrypted, 3 = encrypted without password.
  return spawnSync('qpdf', ['--requires-password', file]).status === 0;
}

export function outlineTitles(file: string): { title: string; page: number }[] {
  const json = JSON.parse(execFileSync('qpdf', ['--json', '--json-key=outlines', file]).toString()) as {
    outlines: { title: string; destpageposfrom1: number }[];
  };
  return json.outlines.map((o) => ({ title: o.title, page: o.destpageposfrom1 }));
}

export function sha256(file: string): string {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}
