// info on mupdf: metadata from the Info dictionary, page sizes from the page objects (no page
// is loaded or parsed, so 1,000 pages cost little).

import type * as mupdf from 'mupdf';
import type { PageSize, PdfInfo } from '../engine.js';
import { pdfDateToIso } from './pdf-date.js';

export const MAX_PAGE_SIZES = 1000;

export type DocumentMetadata = Omit<PdfInfo, 'pages' | 'pdfVersion' | 'encrypted' | 'pageSizes'>;

export function readInfo(doc: mupdf.PDFDocument, encrypted: boolean): PdfInfo {
  const pages = doc.countPages();
  return {
    pages,
    pdfVersion: versionString(doc.getVersion()),
    encrypted,
    ...readMetadata(doc),
    pageSizes: Array.from({ length: Math.min(pages, MAX_PAGE_SIZES) }, (_, i) => viewedSize(doc.findPage(i))),
  };
}

export function readMetadata(doc: mupdf.PDFDocument): DocumentMetadata {
  const text = (key: string) => infoString(doc, key);
  const date = (key: string) => {
    const value = text(key);
    return value === null ? null : pdfDateToIso(value);
  };
  return {
    title: text('Title'),
    author: text('Author'),
    subject: text('Subject'),
    keywords: text('Keywords'),
    creator: text('Creator'),
    producer: text('Producer'),
    creationDate: date('CreationDate'),
    modDate: date('ModDate'),
  };
}

function infoString(doc: mupdf.PDFDocument, key: string): string | null {
  return doc.getMetaData(`info:${key}`) ?? null;
}

/** mupdf reports 17 for PDF 1.7, 20 for 2.0. */
function versionString(version: number): string {
  return `${Math.floor(version / 10)}.${version % 10}`;
}

function viewedSize(page: mupdf.PDFObject): PageSize {
  const box = boxOf(page, 'CropBox') ?? boxOf(page, 'MediaBox') ?? ([0, 0, 612, 792] as Box);
  const [x0, y0, x1, y1] = box;
  const width = round2(Math.abs(x1 - x0));
  const height = round2(Math.abs(y1 - y0));
  return quarterTurns(pageRotation(page)) % 2 === 1 ? { width: height, height: width } : { width, height };
}

export function pageRotation(page: mupdf.PDFObject): number {
  const rotate = page.getInheritable('Rotate');
  return rotate.isNumber() ? rotate.asNumber() : 0;
}

function quarterTurns(degrees: number): number {
  return ((Math.round(degrees / 90) % 4) + 4) % 4;
}

type Box = [number, number, number, number];

function boxOf(page: mupdf.PDFObject, key: string): Box | undefined {
  const box = page.getInheritable(key);
  if (!box.isArray() || box.length !== 4) return undefined;
  const numbers = [0, 1, 2, 3]
    .map((i) => box.get(i))
    .filter((n) => n.isNumber())
    .map((n) => n.asNumber());
  return numbers.length === 4 ? (numbers as Box) : undefined;
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}
