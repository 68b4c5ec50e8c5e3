// PDFs and images as inputs of convert to docx, odt and xlsx: rebuilt from their reading as
// documents a person edits (src/reading/editable.ts), never by the office backend's PDF import
// (one text box per line). Which inputs and formats is the input-format table's word
// (core/input-formats.ts, `rebuiltAs`); the options here are those of `read`.

import { z } from 'zod';
import { ApiError } from '../../core/errors.js';
import { EDITABLE_FORMATS, formatOfExtension, formatOfSniffed, type EditableFormat } from '../../core/input-formats.js';
import { sniffType } from '../../core/sniff.js';
import { extensionOf, readInputHead, resolveInputPath, resolveOutputPath } from '../files/paths.js';
import { DEFAULT_LANGUAGE } from '../ocr/language-store.js';
import { writeEditable, type EditableData } from '../reading/editable.js';
import { convertTargets } from './convert-targets.js';
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

const isEditable = (format: string): format is EditableFormat => (EDITABLE_FORMATS as readonly string[]).includes(format);

/**
 * Is the input a PDF or an image, that convert rebuilds? By content; a name that says so counts
 * too (a damaged .pdf is then INVALID_INPUT, not an unsupported type), as does a file that cannot
 * be opened under such a name (its own error follows).
 */
export async function isRebuiltInput(input: string, context: OperationContext): Promise<boolean> {
  const named = formatOfExtension(extensionOf(input))?.rebuiltAs !== undefined;
  try {
    const head = await readInputHead(await resolveInputPath(context.paths, input), 1024, input);
    return named || formatOfSniffed(sniffType(head))?.rebuiltAs !== undefined;
  } catch (err) {
    if (named) throw err;
    return false;
  }
}

/** A PDF or image converted to `format`: UNSUPPORTED_CONVERSION for one it does not rebuild in. */
export async function convertEditable(
  input: string,
  output: string,
  format: string,
  options: EditableOptions,
  context: OperationContext,
): Promise<{ outputPath: string; data: EditableData }> {
  if (!isEditable(format)) throw unsupported(input, format);
  const codes = context.engines.ocr.parseLanguages(options.language ?? DEFAULT_LANGUAGE);
  const ref = await resolveInputPath(context.paths, input);
  const outputPath = await resolveOutputPath(context.paths, output);
  const request = { input: ref, shownName: input, ranges: options.pages, password: options.password, codes, engine: options.engine };
  const data = await writeEditable(request, format, outputPath, context);
  return { outputPath, data };
}

/** The matrix's own words (convert-targets.ts): ".pdf converts to docx, odt, xlsx, md". */
function unsupported(input: string, format: string): ApiError {
  const extension = extensionOf(input);
  const kind = formatOfExtension(extension) ?? formatOfExtension('pdf');
  const targets = kind ? convertTargets(kind).join(', ') : '';
  return new ApiError(
    'UNSUPPORTED_CONVERSION',
    `Cannot convert ${input} to ${format}; ${kind?.extensions.includes(extension) ? `.${extension}` : 'a PDF'} converts to ${targets}`,
  );
}
