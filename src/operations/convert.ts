// `/api/convert` and `/api/convert/batch`: the fields, and the answers. Which converter takes
// each file, and whether the matrix allows the pair, the format registry judges once
// (src/formats/registry.ts); a file that fails fails alone and leaves nothing behind.

import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import { ApiError } from '../../core/errors.js';
import { extensionOf, fileStem, resolveOutputPath } from '../files/paths.js';
import { OUTPUT_FORMATS } from '../documents/formats.js';
import { PDFA_LEVELS, type PdfaLevel } from '../../core/pdfa.js';
import { convertAll, convertOne, describeMatrix } from '../formats/registry.js';
import { defineOperation } from './operation.js';
import { editableOptions } from './convert-editable.js';
import { filePath, filePaths, formatOfOutput } from './fields.js';

const TARGET_FORMATS = [...OUTPUT_FORMATS, 'md'] as const;
const format = z.enum(TARGET_FORMATS).describe(`output format; allowed per input type: ${describeMatrix()} (md: Markdown)`);
type TargetFormat = z.output<typeof format>;

interface Item {
  /** The input as the user named it. */
  input: string;
  /** The output, unresolved (as named, or derived from the input's stem). */
  output: string;
}

const pdfa = z.enum(PDFA_LEVELS).optional().describe('with format "pdf": export PDF/A of this level');
const pdfaOnlyForPdf = (body: { format: TargetFormat; pdfa?: PdfaLevel | undefined }) => body.pdfa === undefined || body.format === 'pdf';
const PDFA_ONLY_FOR_PDF = 'pdfa applies to format "pdf" only';
// A fresh object each time: zod's refine rewrites the params it is given (message → error).
const pdfaIssue = () => ({ message: PDFA_ONLY_FOR_PDF, path: ['pdfa'] });

/** `format` given, or named by the output's extension. */
const targetOf = ({ format: given, output }: { format?: TargetFormat | undefined; output: string }): TargetFormat | undefined =>
  given ?? (formatOfOutput(output, TARGET_FORMATS) as TargetFormat | undefined);

/** Why a convert request names no format: the output's extension is none, or none at all. */
function missingFormat(output: string): string {
  const extension = extensionOf(output);
  const formats = TARGET_FORMATS.join(', ');
  if (extension === '') return `is required (or give an output with a known extension: ${TARGET_FORMATS.map((f) => `.${f}`).join(', ')})`;
  return `is required: the output's extension .${extension} is not a known format; the formats of convert are ${formats}`;
}

const convertInput = z
  .object({
    input: filePath,
    output: filePath,
    format: format.optional().describe(`${format.description ?? ''}; default: the output's extension when it is one of these`),
    pdfa,
    ...editableOptions,
  })
  .superRefine((body, ctx) => {
    const target = targetOf(body);
    if (target === undefined) ctx.addIssue({ code: 'custom', path: ['format'], message: missingFormat(body.output) });
    else if (!pdfaOnlyForPdf({ format: target, pdfa: body.pdfa })) ctx.addIssue({ code: 'custom', ...pdfaIssue() });
  });

export const convert = defineOperation({
  id: 'convert',
  // PDFs and scans are read (md) and rebuilt (docx, odt, xlsx)
  engines: ['documents', 'pdf', 'ocr'],
  writes: 'files',
  idempotent: true,
  summary: 'Convert one document: office formats by LibreOffice; a PDF or a scan rebuilt as an editable docx/odt, its tables as xlsx',
  input: convertInput,
  run: async ({ input, output, format: given, pdfa: level, ...options }, context) => {
    const target = targetOf({ format: given, output }) as TargetFormat;
    const started = performance.now();
    const made = await convertOne(input, output, { format: target, pdfa: level, options, password: options.password }, context);
    return {
      message: `Converted to ${target}`,
      outputPath: made.outputPath,
      data: { ...made.data, durationMs: Math.round(performance.now() - started) },
    };
  },
});

export const convertBatch = defineOperation({
  id: 'convert/batch',
  // PDFs and scans are read (md) and rebuilt (docx, odt, xlsx)
  engines: ['documents', 'pdf', 'ocr'],
  writes: 'files',
  idempotent: true,
  summary: 'Convert several documents (office files, PDFs, scans) to one format in one go',
  input: z
    .object({
      files: filePaths('file'),
      format,
      outputDir: filePath.optional().describe("where the outputs go (default: each input's own directory)"),
      pdfa,
      ...editableOptions,
    })
    .refine(pdfaOnlyForPdf, pdfaIssue()),
  run: async ({ files, format: target, outputDir, pdfa: level, ...options }, context) => {
    const started = performance.now();
    const dir = outputDir === undefined ? undefined : await resolveOutputPath(context.paths, outputDir);
    const items = files.map((input) => ({
      input,
      output: path.join(dir ?? path.dirname(path.resolve(context.paths.baseDir, input)), `${fileStem(input)}.${target}`),
    }));
    rejectDuplicateOutputs(items);
    const made = await convertAll(items, { format: target, pdfa: level, options, password: options.password }, context);
    const results = made.map(({ input, success, outputPath, error, code }) => ({ input, success, outputPath, error, code }));
    const succeeded = results.filter((r) => r.success).length;
    const failed = results.length - succeeded;
    return {
      success: failed === 0,
      message: `Converted ${succeeded} of ${results.length} file(s) to ${target}`,
      ...(dir !== undefined && { outputPath: dir }),
      data: { total: results.length, succeeded, failed, format: target, durationMs: Math.round(performance.now() - started), results },
    };
  },
});

export const CONVERT_OPERATIONS = [convert, convertBatch];

function rejectDuplicateOutputs(items: readonly Item[]): void {
  // Case-insensitive file systems (macOS, Windows) would make x.pdf and X.pdf one file.
  const fold = process.platform === 'darwin' || process.platform === 'win32' ? (p: string) => p.toLowerCase() : (p: string) => p;
  const seen = new Map<string, number>();
  for (const [i, item] of items.entries()) {
    const earlier = seen.get(fold(item.output));
    if (earlier !== undefined) {
      throw new ApiError(
        'VALIDATION_ERROR',
        `files[${earlier}] (${items[earlier]?.input}) and files[${i}] (${item.input}) would both be written to ${item.output}`,
      );
    }
    seen.set(fold(item.output), i);
  }
}
