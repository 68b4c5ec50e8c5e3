// What compress drops besides unused objects: page thumbnails (/Thumb: viewers draw their own
// from the page) and other applications' private data (/PieceInfo, which Illustrator fills with
// the whole editable artwork), as Acrobat's optimiser and Ghostscript's pdfwrite drop them.
// The document's metadata (Info, XMP) is the user's and stays.

import type * as mupdf from 'mupdf';

export function dropThumbnailsAndPrivateData(doc: mupdf.PDFDocument): void {
  doc.getTrailer().get('Root').delete('PieceInfo');
  for (let index = 0; index < doc.countPages(); index++) {
    const page = doc.findPage(index);
    page.delete('Thumb');
    page.delete('PieceInfo');
  }
}
