// pdf/redact: what lies under the given areas, and every match of the given strings and
// patterns, is removed from the pages (not covered) and from annotations, form values,
// bookmarks and metadata; matches the service's OCR reads in the pages' images are blanked
// there (redact-ocr.ts).

import { z } from 'zod';
import { isPreset, matchersOf, patternMatcher, REDACT_PRESETS } from '../../core/redact-patterns.js';
import { defineOperation } from './operation.js';
import { engineText, ocrEngine } from './fields.js';
import { resolvePdfInput } from './pdf.js';
import { matchesInImages } from './redact-ocr.js';
import { editPdf, io } from './pdf-tools.js';

const area = z.object({
  page: z.number().int().min(1).describe('1-based page number'),
  x: z.number().finite().describe('points from the left edge of the page as shown'),
  y: z.number().finite().describe('points from the top edge of the page as shown'),
  width: z.number().positive().finite(),
  height: z.number().positive().finite(),
});

/** A preset name, or a regular expression that compiles with the `u` flag. */
const pattern = engineText()
  .min(1)
  .max(1_000)
  .refine((value) => isPreset(value) || compiles(value), `must be a preset (${REDACT_PRESETS.join(', ')}) or a valid regular expression`)
  .describe(`a preset (${REDACT_PRESETS.join(', ')}) or a regular expression (JavaScript syntax, Unicode mode)`);

function compiles(source: string): boolean {
  try {
    patternMatcher(source);
    return true;
  } catch {
    return false;
  }
}

const fill = z
  .union([z.literal('black'), z.string().regex(/^#[0-9a-fA-F]{6}$/, "must be 'black' or #rrggbb")])
  .default('black')
  .describe("colour of the boxes painted where content was removed: 'black' or #rrggbb");

function rgbOf(colour: string): [number, number, number] {
  if (colour === 'black') return [0, 0, 0];
  return [1, 3, 5].map((at) => parseInt(colour.slice(at, at + 2), 16) / 255) as [number, number, number];
}

export const redact = defineOperation({
  id: 'pdf/redact',
  engines: ['pdf', 'ocr'],
  writes: 'files',
  idempotent: true,
  summary: 'Remove (not cover) text, images and drawings under areas or matching strings and patterns (email, phone, cn-id, credit-card, iban)',
  input: z
    .object({
      ...io,
      areas: z.array(area).max(10_000).optional().describe('rectangles to remove, in points, origin at the top-left corner of the page'),
      text: z.array(engineText().min(1).max(1_000)).max(1_000).optional().describe('exact strings to remove (case-sensitive)'),
      patterns: z.array(pattern).max(100).optional(),
      fill,
      engine: ocrEngine.describe("OCR that reads the text of the pages' images, where matches are blanked too: as /api/ocr's engine"),
    })
    .refine((body) => (body.areas?.length ?? 0) + (body.text?.length ?? 0) + (body.patterns?.length ?? 0) > 0, {
      message: 'give at least one of areas, text, patterns',
      path: ['areas'],
    }),
  run: async (body, context) => {
    const text = body.text ?? [];
    const patterns = body.patterns ?? [];
    const matchers = matchersOf({ text, patterns });
    // Text in images: read with OCR first, on the pages that have images, from the input as it is.
    const input = await resolvePdfInput(context.paths, body.input);
    const inImages = await matchesInImages(context, input, body.password, matchers, body.engine);
    const options = { areas: body.areas ?? [], imageAreas: inImages.areas, text, patterns, fill: rgbOf(body.fill) };
    const { result, outputPath } = await editPdf(body, context, (tasks, files) => tasks.redact({ ...files, options }));
    const read = inImages.pages.length > 0 ? `; read ${inImages.pages.length} page(s) with OCR` : '';
    return {
      message: `Removed ${result.redactions} redaction(s) on ${result.pages.length} page(s)${read}`,
      outputPath,
      data: { ...result, ocrPages: inImages.pages },
    };
  },
});

export const PDF_REDACT_OPERATIONS = [redact];
