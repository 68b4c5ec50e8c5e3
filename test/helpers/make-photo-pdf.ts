// A PDF of large photo-like images (smooth gradients plus grain, which JPEG compresses the way
// it does photographs) drawn far above 150 dpi, with a line of text per page: the compress
// fixture. Built with mupdf; the tests read the results with poppler only.

import * as mupdf from 'mupdf';

export interface PhotoPdf {
  bytes: Uint8Array;
  /** Pixel size of both images. */
  width: number;
  height: number;
}

export function makePhotoPdf(width = 2400, height = 1800): PhotoPdf {
  const doc = new mupdf.PDFDocument();
  try {
    const pixmap = photoPixmap(width, height);
    const raw = doc.addImage(new mupdf.Image(pixmap)); // Flate-compressed samples
    const jpeg = doc.addImage(new mupdf.Image(pixmap.asJPEG(95, false)));
    const font = doc.addSimpleFont(new mupdf.Font('Helvetica'));
    const resources = doc.addObject({ XObject: { Raw: raw, Jpeg: jpeg }, Font: { F1: font } });
    // Raw drawn 400x300 pt (432 dpi), Jpeg 200x150 pt (864 dpi) and 540x405 pt (320 dpi).
    doc.insertPage(
      -1,
      doc.addPage(
        [0, 0, 612, 792],
        0,
        resources,
        'q 400 0 0 300 100 380 cm /Raw Do Q q 200 0 0 150 100 120 cm /Jpeg Do Q BT /F1 20 Tf 72 740 Td (Photo page one) Tj ET',
      ),
    );
    doc.insertPage(-1, doc.addPage([0, 0, 612, 792], 0, resources, 'q 540 0 0 405 36 200 cm /Jpeg Do Q BT /F1 20 Tf 72 740 Td (Photo page two) Tj ET'));
    const buffer = doc.saveToBuffer('compress=yes');
    const bytes = buffer.asUint8Array().slice();
    buffer.destroy();
    return { bytes, width, height };
  } finally {
    doc.destroy();
  }
}

/** Photo-like RGB pixels (waves plus grain); `phase` varies the picture, 0 by default. */
export function photoPixmap(width: number, height: number, phase = 0): mupdf.Pixmap {
  const pixmap = new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, [0, 0, width, height], false);
  const samples = pixmap.getPixels();
  let seed = 12345 + phase * 7919;
  const grain = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return (seed >> 16) % 24;
  };
  let i = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const wave = (Math.sin(x * 0.013 + phase) + Math.cos(y * 0.021 - phase) + Math.sin((x + y) * 0.007)) * 40;
      samples[i++] = 120 + wave + grain();
      samples[i++] = 100 + wave * 0.8 + grain();
      samples[i++] = 90 - wave * 0.6 + grain();
    }
  }
  return pixmap;
}

/**
 * One page with a photo-like RGB image of `width` x `height` px whose alpha fades out towards
 * its edges (a soft mask), drawn 360 x 270 pt (far above 150 dpi) over a text line.
 */
export function makeMaskedPhotoPdf(width = 1800, height = 1350): Uint8Array {
  const doc = new mupdf.PDFDocument();
  try {
    const photo = photoPixmap(width, height, 3);
    const withAlpha = new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, [0, 0, width, height], true);
    const rgb = photo.getPixels();
    const rgba = withAlpha.getPixels();
    for (let y = 0, i = 0; y < height; y++) {
      for (let x = 0; x < width; x++, i++) {
        const edge = Math.min(x, y, width - 1 - x, height - 1 - y) / (Math.min(width, height) / 4);
        const alpha = Math.round(255 * Math.min(1, edge));
        // mupdf pixmaps with alpha hold premultiplied samples.
        for (let c = 0; c < 3; c++) rgba[i * 4 + c] = Math.round(((rgb[i * 3 + c] as number) * alpha) / 255);
        rgba[i * 4 + 3] = alpha;
      }
    }
    photo.destroy();
    const image = doc.addImage(new mupdf.Image(withAlpha));
    withAlpha.destroy();
    const font = doc.addSimpleFont(new mupdf.Font('Helvetica'));
    const resources = doc.addObject({ XObject: { Photo: image }, Font: { F1: font } });
    doc.insertPage(-1, doc.addPage([0, 0, 612, 792], 0, resources, 'BT /F1 20 Tf 72 500 Td (Under the photo) Tj ET q 360 0 0 270 126 400 cm /Photo Do Q'));
    return savedBytes(doc);
  } finally {
    doc.destroy();
  }
}

/** The document saved (compressed) as bytes in JS memory; mupdf's buffer is freed. */
export function savedBytes(doc: mupdf.PDFDocument): Uint8Array {
  const buffer = doc.saveToBuffer('compress=yes');
  try {
    return buffer.asUint8Array().slice();
  } finally {
    buffer.destroy();
  }
}
