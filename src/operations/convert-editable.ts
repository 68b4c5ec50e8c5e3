// PDFs and images as inputs of convert to docx, odt and xlsx: rebuilt from their reading as
// documents a person edits (src/reading/editable.ts), never by the office backend's PDF import
// (one text box per line). Which inputs and formats is the input-format table's word
// (core/input-formats.ts, `rebuiltAs`), judged by the format registry (src/formats/editable.ts);
// the options here are those of `read`.

import { z } from 'zod';
import type { EditableFormat } from '../../core/input-formats.js';
import { resolveInputPath, resolveOutputPath } from '../files/paths.js';
import type { StreamInfo } from '../formats/stream-info.js';
import { DEFAULT_LANGUAGE } from '../ocr/language-store.js';
import { writeEditable, type EditableData } from '../reading/editable.js';
import type { OperationContext } from './operation.js';
import { ocrEngine, pageRanges, password } from './fields.js';

/** convert's fields for PDFs and images, as `read` takes them. */
export const editableOptions = {
  pages: pageRanges.optional().describe('PDF inputs: the pages to convert, comma-separated N or N-M (default: all)'),
  password: password
    .optional()
    .describe(
      'password of an encrypted PDF, or of an encrypted .docx, .xlsx or .pptx (Office 2010 and later encryption, decrypted before the office converts it); other encrypted documents answer PASSWORD_REQUIRED',
    ),
  language: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe(`PDF and image inputs: OCR languages for scanned pages and images, joined by "+" (default ${DEFAULT_LANGUAGE})`),
  engine: ocrEngine.optional().describe("PDF and image inputs: the OCR engine for scanned pages and images, as /api/ocr's engine"),
};

export type EditableOptions = z.output<z.ZodObject<typeof editableOptions>>;

/** A PDF or image converted to `format` (the registry has judged the pair, and `judged` what the input is). */
export async function convertEditable(
  input: string,
  output: string,
  format: EditableFormat,
  options: EditableOptions,
  context: OperationContext,
  judged?: StreamInfo,
): Promise<{ outputPath: string; data: EditableData }> {
  const codes = context.engines.ocr.parseLanguages(options.language ?? DEFAULT_LANGUAGE);
  const ref = await resolveInputPath(context.paths, input);
  const outputPath = await resolveOutputPath(context.paths, output);
  const request = { input: ref, shownName: input, ranges: options.pages, password: options.password, codes, engine: options.engine, judged };
  const data = await writeEditable(request, format, outputPath, context);
  return { outputPath, data };
}
