// The pictures a page draws, for an editable document (convert of a PDF to DOCX): each image
// the page paints, as PNG, with where it stands on the page in points. One pass of the page
// through a mupdf Device that only listens for images (nothing is rendered). A picture as large
// as most of the page is its background or a scan under a text layer, not a picture of the text,
// and one a few points wide is a rule or a dot: both are left out, as is one the page sets text
// over (behindText). The pictures of one document
// share a byte budget so a PDF of a thousand photos cannot fill the worker's memory; past it,
// pictures are left out.

import * as mupdf from 'mupdf';

export interface PagePicture {
  png: Uint8Array;
  /** Points, on the page as shown. */
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Smaller than this either way (points): a rule, a dot, a bullet drawn as an image. */
const MIN_SIDE = 12;
/** Covering this share of the page or more: a background or a scan, not a picture in the text. */
const BACKGROUND_SHARE = 0.8;

/**
 * Whether the page sets text over the picture (a line's middle inside it): a panel behind a box
 * of text or a bar behind a heading, the page's background there. In the flow it would push its
 * text down by its height; it is left out as a page's background is.
 */
export function behindText(picture: PagePicture, lines: readonly { x: number; right: number; top: number; bottom: number }[]): boolean {
  return lines.some((line) => {
    const [x, y] = [(line.x + line.right) / 2, (line.top + line.bottom) / 2];
    return x > picture.left && x < picture.left + picture.width && y > picture.top && y < picture.top + picture.height;
  });
}

/** The PNG bytes pictures may take over one document. */
export class PictureBudget {
  constructor(private left: number) {}

  take(bytes: number): boolean {
    if (bytes > this.left) return false;
    this.left -= bytes;
    return true;
  }
}

/** The unit square mapped by `ctm`: the box the image fills on the page. */
function placed(ctm: mupdf.Matrix): { left: number; top: number; right: number; bottom: number } {
  const [a, b, c, d, e, f] = ctm;
  const xs = [e, e + a, e + c, e + a + c];
  const ys = [f, f + b, f + d, f + b + d];
  return { left: Math.min(...xs), top: Math.min(...ys), right: Math.max(...xs), bottom: Math.max(...ys) };
}

/** The image as PNG, in grey or RGB (PNG holds neither CMYK nor other colour spaces). */
function pngOf(image: mupdf.Image): Uint8Array {
  let pixmap = image.toPixmap();
  try {
    const space = pixmap.getColorSpace();
    if (space && !space.isGray() && !space.isRGB()) {
      const rgb = pixmap.convertToColorSpace(mupdf.ColorSpace.DeviceRGB, true);
      pixmap.destroy();
      pixmap = rgb;
    }
    return pixmap.asPNG();
  } finally {
    pixmap.destroy();
  }
}

/** The page's pictures in the order it paints them. */
export function pagePictures(page: mupdf.PDFPage, budget: PictureBudget): PagePicture[] {
  const [x0, y0, x1, y1] = page.getBounds();
  const pageArea = (x1 - x0) * (y1 - y0);
  const pictures: PagePicture[] = [];
  const device = new mupdf.Device({
    fillImage: (image, ctm) => {
      try {
        const box = placed(ctm);
        const width = box.right - box.left;
        const height = box.bottom - box.top;
        if (width < MIN_SIDE || height < MIN_SIDE || width * height >= pageArea * BACKGROUND_SHARE || image.getImageMask()) return;
        const png = pngOf(image);
        if (budget.take(png.byteLength)) pictures.push({ png, left: box.left - x0, top: box.top - y0, width, height });
      } catch {
        // An image mupdf cannot decode is left out, as a viewer leaves a hole.
      } finally {
        image.destroy();
      }
    },
  });
  try {
    page.run(device, mupdf.Matrix.identity);
    device.close();
  } finally {
    device.destroy();
  }
  return pictures;
}
