// PDFs for the PDF tool tests and benchmarks, written byte by byte (serializePdf) or with mupdf
// (photo pages); the results are always read back with poppler and qpdf, never with docwasm.

import * as mupdf from 'mupdf';
import { serializePdf } from './make-pdf.js';
import { photoPixmap, savedBytes } from './make-photo-pdf.js';

/**
 * One text page ("Described") with an Info dictionary (title, author, producer, creation date),
 * a CropBox of 500 x 800 inside an A4 MediaBox, and the given /Rotate.
 */
export function pdfWithInfo({ rotate = 0 } = {}): Buffer {
  const stream = 'BT /F1 24 Tf 72 700 Td (Described) Tj ET';
  return serializePdf(
    [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /CropBox [0 0 500 800] /Rotate ${rotate} /Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>`,
      `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
      "<< /Title (Old title) /Author (Ann Author) /Producer (Handmade) /CreationDate (D:20240131120000+01'00') >>",
    ],
    ' /Info 6 0 R',
  );
}

/** Pages of the given MediaBox sizes (points), each with one text line "Size N". */
export function pdfOfSizes(sizes: readonly [number, number][]): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${sizes.map((_, i) => `${4 + i * 2} 0 R`).join(' ')}] /Count ${sizes.length} >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  sizes.forEach(([width, height], i) => {
    const stream = `BT /F1 12 Tf 20 20 Td (Size ${i + 1}) Tj ET`;
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${width} ${height}] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + i * 2} 0 R >>`);
    objects.push(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
  });
  return serializePdf(objects);
}

/**
 * The smallest sensible PDF (one empty 9 x 9 pt page, 325 bytes): mupdf's compressed save
 * (object streams, xref stream) is larger, so compress must keep these very bytes.
 */
export function tinyPdf(): Buffer {
  return serializePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 9 9] >>',
  ]);
}

/**
 * A photo book: `pages` pages, each with its own photo-like image (smooth waves plus grain, as
 * make-photo-pdf.ts draws them, the phase varying per page) of `width` x `height` pixels drawn
 * on 540 x 405 pt (far above 150 dpi), Flate-compressed as a scanner or a naive exporter would
 * store it, and a line of text. About 5 MB a page at 2000 x 1500.
 */
export function makePhotoBook(pages: number, width = 2000, height = 1500): Uint8Array {
  const doc = new mupdf.PDFDocument();
  try {
    const font = doc.addSimpleFont(new mupdf.Font('Helvetica'));
    for (let page = 0; page < pages; page++) {
      const pixmap = photoPixmap(width, height, page);
      const image = doc.addImage(new mupdf.Image(pixmap));
      pixmap.destroy();
      const resources = doc.addObject({ XObject: { Photo: image }, Font: { F1: font } });
      doc.insertPage(
        -1,
        doc.addPage([0, 0, 612, 792], 0, resources, `q 540 0 0 405 36 250 cm /Photo Do Q BT /F1 20 Tf 72 720 Td (Photo book page ${page + 1}) Tj ET`),
      );
    }
    return savedBytes(doc);
  } finally {
    doc.destroy();
  }
}
