// pdf/stamp: a line of text or an image drawn above the page content (so it shows on scans,
// where a watermark under an opaque image would be hidden), at a position of the page.

import { z } from 'zod';
import { ApiError } from '../../core/errors.js';
import { resolveInputWithHead } from '../files/paths.js';
import { sniffType } from '../../core/sniff.js';
import { STAMP_POSITIONS } from '../../core/stamp.js';
import type { PathPolicy } from '../files/paths.js';
import type { FileRef } from '../../core/file-ref.js';
import { defineOperation } from './operation.js';
import { CONTROL_CHARACTER, engineText, filePath, pageRanges } from './fields.js';
import { editPdf, io } from './pdf-tools.js';

/** Image kinds mupdf draws into a PDF. */
const STAMP_IMAGE_TYPES = ['png', 'jpeg', 'gif', 'bmp', 'tiff'] as const;

async function resolveStampImage(paths: PathPolicy, raw: string): Promise<FileRef> {
  const { ref, head } = await resolveInputWithHead(paths, raw, 64);
  const type = sniffType(head);
  if (!type || !(STAMP_IMAGE_TYPES as readonly string[]).includes(type))
    throw new ApiError('UNSUPPORTED_FORMAT', `The stamp image must be ${STAMP_IMAGE_TYPES.join(', ')}: ${raw}`);
  return ref;
}

export const stamp = defineOperation({
  id: 'pdf/stamp',
  engines: ['pdf'],
  writes: 'files',
  idempotent: false,
  summary: 'Stamp text (as real, searchable text) or an image above the page content at a position',
  input: z
    .object({
      ...io,
      text: engineText()
        .min(1)
        .max(1_000)
        .refine((value) => !CONTROL_CHARACTER.test(value), 'must not contain control characters (the stamp is one line of text)')
        .optional()
        .describe('the stamp text (CJK included), one line; or give image'),
      image: filePath.optional().describe('a PNG, JPEG, GIF, BMP or TIFF to stamp; or give text'),
      imageWidth: z.number().positive().max(14_400).optional().describe("points; default: the image's own size at its resolution (else 96 dpi)"),
      pages: pageRanges.optional().describe('pages to stamp, split syntax (default: all)'),
      position: z.enum(STAMP_POSITIONS).default('bottom-right'),
      margin: z.number().min(0).max(1_000).default(36).describe('points between the stamp and the page edges it is placed against'),
      fontSize: z.number().positive().max(1_000).default(24).describe('points'),
      opacity: z.number().min(0).max(1).default(1),
      rotation: z.number().min(-360).max(360).default(0).describe("degrees, counter-clockwise, about the stamp's centre"),
    })
    .refine((body) => (body.text === undefined) !== (body.image === undefined), { message: 'give exactly one of text, image', path: ['text'] }),
  run: async (body, context) => {
    const image = body.image === undefined ? undefined : await resolveStampImage(context.paths, body.image);
    const options = {
      ...(body.text !== undefined && { text: body.text }),
      ...(image && { image, maxImagePixels: context.config.maxPixels }),
      ...(body.imageWidth !== undefined && { imageWidth: body.imageWidth }),
      position: body.position,
      margin: body.margin,
      fontSize: body.fontSize,
      opacity: body.opacity,
      rotation: body.rotation,
      ...(body.pages && { ranges: body.pages }),
    };
    const { outputPath } = await editPdf(body, context, (tasks, files) => tasks.stamp({ ...files, options }));
    return {
      message: `Stamped ${body.text === undefined ? 'the image' : `"${body.text}"`} at ${body.position}`,
      outputPath,
      data: { position: body.position, ...(body.text !== undefined && { text: body.text }) },
    };
  },
});

export const PDF_STAMP_OPERATIONS = [stamp];
