// A JPEG as a PDF image without decoding it: its bytes become a DCTDecode stream as they are.

import { ApiError } from '../../core/errors.js';
import { checkImageBudget } from '../../core/image-budget.js';
import { jpegFrame, jpegOrientation, jpegResolution } from '../../core/image-meta.js';
import type { PdfImage } from './image-pages.js';

const COLOR_SPACES: Record<number, string> = { 1: '/DeviceGray', 3: '/DeviceRGB', 4: '/DeviceCMYK' };

export function jpegPdfImage(jpeg: Uint8Array, name: string, maxPixels: number): PdfImage {
  const frame = jpegFrame(jpeg);
  const colorSpace = frame && COLOR_SPACES[frame.components];
  if (!frame || !colorSpace || frame.width < 1 || frame.height < 1) throw new ApiError('INVALID_INPUT', `The JPEG image ${name} is damaged or truncated`);
  if (frame.width * frame.height > maxPixels) {
    throw new ApiError(
      'TOO_LARGE',
      `The image ${name} is ${frame.width}×${frame.height} (${frame.width * frame.height} pixels); the limit is ${maxPixels} pixels`,
    );
  }
  // Kept as it is, the JPEG is decoded by whatever renders the PDF: its scans are budgeted here.
  checkImageBudget('jpeg', jpeg, maxPixels);
  // Adobe's CMYK JPEGs store inverted values; a Decode array turns them back, as viewers expect.
  const decode = frame.components === 4 && frame.adobe ? ' /Decode [1 0 1 0 1 0 1 0]' : '';
  return {
    width: frame.width,
    height: frame.height,
    orientation: jpegOrientation(jpeg),
    resolution: jpegResolution(jpeg),
    dictionary: `/ColorSpace ${colorSpace} /BitsPerComponent ${frame.bitsPerComponent} /Filter /DCTDecode${decode}`,
    data: jpeg,
  };
}
