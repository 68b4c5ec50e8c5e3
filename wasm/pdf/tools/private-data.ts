// What compress drops besides unused objects: page thumbnails (/Thumb: viewers draw their own
// from the page) and other applications' private data (/PieceInfo, which Illustrator fills with
// the whole editable artwork), as Acrobat's optimiser and Ghostscript's pdfwrite drop them.
// The document's metadata (Info, XMP) is the user's and stays.

import type * as mupdf from 'mupdf';

export function dropThumbnailsAndPrivateData(doc: mupdf.PDFDocument): void {
  doc.getTrailer().get('Root').delete('PieceInfo');
  dropThumbnails(doc);
  for (let index = 0; index < doc.countPages(); index++) doc.findPage(index).delete('PieceInfo');
}

/** Every page's /Thumb (compress drops them as unused; redaction because they show the pages as they were). */
export function dropThumbnails(doc: mupdf.PDFDocument): void {
  for (let index = 0; index < doc.countPages(); index++) doc.findPage(index).delete('Thumb');
}
