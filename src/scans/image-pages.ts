// One PDF page per image: where the image goes on the page and how it is drawn. A JPEG keeps
// its bytes (DCTDecode) and is turned upright by the drawing matrix from its EXIF orientation;
// other images arrive decoded and deflated by the image engine. `fit` pages take the image's
// declared resolution (96 dpi when it declares none); A4 and Letter centre it inside 36 pt
// margins, scaled down to fit but never up.

import type { Resolution } from '../../core/image-meta.js';
import { ref, type PdfFileWriter, type PdfRef } from './pdf-file-writer.js';

export type PageSizeName = 'fit' | 'a4' | 'letter';

const PAPER: Record<Exclude<PageSizeName, 'fit'>, [number, number]> = { a4: [595.276, 841.89], letter: [612, 792] };
const MARGIN = 36;
const DEFAULT_DPI = 96;

/** An image ready to be written into a PDF: its stream (and soft mask) and how it is meant to be shown. */
export interface PdfImage {
  /** Stored pixels, before orientation. */
  width: number;
  height: number;
  /** EXIF orientation 1–8. */
  orientation: number;
  resolution: Resolution | undefined;
  /** The image XObject's dictionary entries besides Type, Subtype, Width, Height and Length. */
  dictionary: string;
  data: Uint8Array;
  softMask?: { dictionary: string; data: Uint8Array } | undefined;
}

export interface ImagePlacement {
  /** Page size in points. */
  pageWidth: number;
  pageHeight: number;
  /** Where the image is shown, in page space (points, origin top left, y down). */
  rect: [number, number, number, number];
  /** Pixels of the image as shown (orientation applied). */
  shownWidth: number;
  shownHeight: number;
}

/** Unit-square transforms that show a stored image in its EXIF orientation (1–8). */
const ORIENTATION_MATRICES: Record<number, [number, number, number, number, number, number]> = {
  1: [1, 0, 0, 1, 0, 0],
  2: [-1, 0, 0, 1, 1, 0],
  3: [-1, 0, 0, -1, 1, 1],
  4: [1, 0, 0, -1, 0, 1],
  5: [0, -1, -1, 0, 1, 1],
  6: [0, -1, 1, 0, 0, 1],
  7: [0, 1, 1, 0, 0, 0],
  8: [0, 1, -1, 0, 1, 0],
};

export function placeImage(image: Pick<PdfImage, 'width' | 'height' | 'orientation' | 'resolution'>, pageSize: PageSizeName): ImagePlacement {
  const turned = image.orientation >= 5;
  const shownWidth = turned ? image.height : image.width;
  const shownHeight = turned ? image.width : image.height;
  const dpiX = (turned ? image.resolution?.y : image.resolution?.x) ?? DEFAULT_DPI;
  const dpiY = (turned ? image.resolution?.x : image.resolution?.y) ?? DEFAULT_DPI;
  const natural = { width: (shownWidth * 72) / dpiX, height: (shownHeight * 72) / dpiY };
  if (pageSize === 'fit') {
    return { pageWidth: natural.width, pageHeight: natural.height, rect: [0, 0, natural.width, natural.height], shownWidth, shownHeight };
  }
  const [pageWidth, pageHeight] = PAPER[pageSize];
  const scale = Math.min(1, (pageWidth - 2 * MARGIN) / natural.width, (pageHeight - 2 * MARGIN) / natural.height);
  const width = natural.width * scale;
  const height = natural.height * scale;
  const x = (pageWidth - width) / 2;
  const y = (pageHeight - height) / 2;
  return { pageWidth, pageHeight, rect: [x, y, x + width, y + height], shownWidth, shownHeight };
}

/** Writes the image, its page's content and the page; returns the page object and the placement. */
export async function writeImagePage(
  writer: PdfFileWriter,
  pages: PdfRef,
  image: PdfImage,
  pageSize: PageSizeName,
): Promise<{ page: PdfRef; placement: ImagePlacement }> {
  const placement = placeImage(image, pageSize);
  const { pageWidth, pageHeight, rect } = placement;
  const size = `/Width ${image.width} /Height ${image.height}`;
  const mask = image.softMask && (await writer.stream(`/Type /XObject /Subtype /Image ${size} ${image.softMask.dictionary}`, image.softMask.data));
  const xobject = await writer.stream(`/Type /XObject /Subtype /Image ${size} ${image.dictionary}${mask ? ` /SMask ${ref(mask)}` : ''}`, image.data);
  const [x0, y0, x1, y1] = rect;
  const box = [x1 - x0, 0, 0, y1 - y0, x0, pageHeight - y1];
  const orient = ORIENTATION_MATRICES[image.orientation] ?? ORIENTATION_MATRICES[1];
  const content = `q ${box.map(num).join(' ')} cm ${orient?.join(' ')} cm /Im0 Do Q\n`;
  const contents = await writer.stream('', Buffer.from(content, 'latin1'));
  const mediaBox = `[0 0 ${num(pageWidth)} ${num(pageHeight)}]`;
  const page = await writer.object(
    `<< /Type /Page /Parent ${ref(pages)} /MediaBox ${mediaBox} /Resources << /XObject << /Im0 ${ref(xobject)} >> >> /Contents ${ref(contents)} >>`,
  );
  return { page, placement };
}

function num(value: number): string {
  return String(Math.round(value * 1000) / 1000);
}
