// A PDF's words as poppler's `pdftotext -bbox` finds them: the read tests check the layout another
// program made with an independent tool before they read it, so a test that fails says whether
// the layout moved or the reading did.

import { execFileSync } from 'node:child_process';

export interface PdfWord {
  x: number;
  right: number;
  top: number;
  bottom: number;
  /** As pdftotext writes it, HTML entities (`&quot;`, `&lt;`) and all. */
  text: string;
}

const WORD = /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g;

/** Each page's words, in pdftotext's order. */
export function pageWords(pdf: string): PdfWord[][] {
  const html = execFileSync('pdftotext', ['-bbox', pdf, '-'], { encoding: 'utf8' });
  return html
    .split('<page ')
    .slice(1)
    .map((page) =>
      [...page.matchAll(WORD)].map((m) => ({ x: Number(m[1]), top: Number(m[2]), right: Number(m[3]), bottom: Number(m[4]), text: m[5] as string })),
    );
}

/** The words of every page, one list. */
export const pdfWords = (pdf: string): PdfWord[] => pageWords(pdf).flat();
