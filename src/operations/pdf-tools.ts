// The PDF toolkit: info, metadata, decrypt, rotate, rearrange, watermark, compress, PDF/A —
// each one PDF in (opened with `password` when encrypted) and, but for info, one PDF out.

import { z } from 'zod';
import { resolveOutputPath } from '../files/paths.js';
import type { FileRef } from '../../core/file-ref.js';
import type { TaskClient } from '../jobs/engine-pool.js';
import { PDFA_LEVELS } from '../../core/pdfa.js';
import { METADATA_FIELDS } from '../../core/pdf-metadata.js';
import type { PdfTasks } from '../../wasm/pdf/worker.js';
import { defineOperation, type OperationContext } from './operation.js';
import { CONTROL_CHARACTER, engineText, filePath, NON_XML_CHARACTER, pageOrder, pageRanges, password, quality } from './fields.js';
import { resolvePdfInput } from './pdf.js';

interface Edit {
  input: string;
  output: string;
  password?: string | undefined;
}

/** Runs one edit task: the input checked as a PDF, the output staged. */
export async function editPdf<R>(
  body: Edit,
  { engines, paths, ...control }: OperationContext,
  run: (tasks: TaskClient<PdfTasks>, io: { input: FileRef; output: FileRef; password?: string | undefined }) => Promise<R>,
): Promise<{ result: R; outputPath: string }> {
  const input = await resolvePdfInput(paths, body.input);
  const outputPath = await resolveOutputPath(paths, body.output);
  const result = await engines.pdf.jobWriting(control, paths, [outputPath], (tasks, [output]) => run(tasks, { input, output, password: body.password }));
  return { result, outputPath };
}

export const io = { input: filePath, output: filePath, password: password.optional() };

export const info = defineOperation({
  id: 'pdf/info',
  engines: ['pdf'],
  writes: 'nothing',
  idempotent: true,
  summary: 'Page count, version, encryption, metadata and page sizes of a PDF',
  input: z.object({ input: filePath, password: password.optional() }),
  run: async ({ input, password: pw }, { engines, paths, ...control }) => {
    const ref = await resolvePdfInput(paths, input);
    const data = await engines.pdf.job(control, (tasks) => tasks.info({ input: ref, password: pw }));
    return { message: `${data.pages} page(s), PDF ${data.pdfVersion}${data.encrypted ? ', encrypted' : ''}`, data: { ...data } };
  },
});

/** Written to the Info dictionary and, when the PDF has one, the XMP packet (XML, which cannot hold most control characters). */
const metadataText = engineText()
  .max(10_000)
  .refine((value) => !NON_XML_CHARACTER.test(value), 'must not contain control characters other than tab, line feed and carriage return');

const metadataFields = Object.fromEntries(
  METADATA_FIELDS.map((field) => [field, metadataText.optional().describe(`new ${field}; an empty string clears it`)]),
) as Record<(typeof METADATA_FIELDS)[number], z.ZodOptional<z.ZodString>>;

export const metadata = defineOperation({
  id: 'pdf/metadata',
  engines: ['pdf'],
  writes: 'files',
  idempotent: false,
  summary: 'Set or clear title, author, subject, keywords and creator; keep the rest',
  input: z.object({ ...io, ...metadataFields }).refine((body) => METADATA_FIELDS.some((field) => body[field] !== undefined), {
    message: `give at least one of ${METADATA_FIELDS.join(', ')}`,
    path: ['title'],
  }),
  run: async (body, context) => {
    const update = Object.fromEntries(METADATA_FIELDS.flatMap((field) => (body[field] === undefined ? [] : [[field, body[field]]])));
    const { outputPath } = await editPdf(body, context, (tasks, files) => tasks.metadata({ ...files, options: update }));
    return { message: `Set ${Object.keys(update).join(', ')}`, outputPath, data: { fields: Object.keys(update) } };
  },
});

export const decrypt = defineOperation({
  id: 'pdf/decrypt',
  engines: ['pdf'],
  writes: 'files',
  idempotent: false,
  summary: 'Remove the encryption of a PDF (given its password)',
  input: z.object({ input: filePath, output: filePath, password }),
  run: async (body, context) => {
    const { result, outputPath } = await editPdf(body, context, (tasks, files) => tasks.decrypt({ ...files, password: body.password, options: {} }));
    return {
      message: result.wasEncrypted ? 'Decrypted' : 'The PDF was not encrypted; copied as it is',
      outputPath,
      data: { wasEncrypted: result.wasEncrypted },
    };
  },
});

export const rotate = defineOperation({
  id: 'pdf/rotate',
  engines: ['pdf'],
  writes: 'files',
  idempotent: false,
  summary: 'Rotate pages clockwise by 90, 180 or 270 degrees',
  input: z.object({
    ...io,
    degrees: z.union([z.literal(90), z.literal(180), z.literal(270)]).describe("clockwise, added to each page's rotation"),
    pages: pageRanges.optional().describe('pages to rotate, split syntax (default: all)'),
  }),
  run: async (body, context) => {
    const { outputPath } = await editPdf(body, context, (tasks, files) =>
      tasks.rotate({ ...files, options: { degrees: body.degrees, ...(body.pages && { ranges: body.pages }) } }),
    );
    return { message: `Rotated ${body.pages ? 'the selected pages' : 'every page'} by ${body.degrees}°`, outputPath, data: { degrees: body.degrees } };
  },
});

export const rearrange = defineOperation({
  id: 'pdf/rearrange',
  engines: ['pdf'],
  writes: 'files',
  idempotent: false,
  summary: 'Keep exactly the listed pages in the listed order (reorder, delete, duplicate)',
  input: z.object({ ...io, pages: pageOrder }),
  run: async (body, context) => {
    const { result, outputPath } = await editPdf(body, context, (tasks, files) => tasks.rearrange({ ...files, options: { ranges: body.pages } }));
    return { message: `Wrote ${result.pages} page(s)`, outputPath, data: { pages: result.pages } };
  },
});

export const watermark = defineOperation({
  id: 'pdf/watermark',
  engines: ['pdf'],
  writes: 'files',
  idempotent: false,
  summary: 'Stamp text across the middle of pages, as real (searchable) text',
  input: z.object({
    ...io,
    text: engineText()
      .min(1)
      .max(1_000)
      .refine((value) => !CONTROL_CHARACTER.test(value), 'must not contain control characters (the watermark is one line of text)')
      .describe('the watermark text (CJK included), one line'),
    pages: pageRanges.optional().describe('pages to stamp, split syntax (default: all)'),
    opacity: z.number().min(0).max(1).default(0.3),
    fontSize: z.number().positive().max(1_000).default(48).describe('points'),
    rotation: z.number().min(-360).max(360).default(45).describe('degrees, counter-clockwise'),
  }),
  run: async (body, context) => {
    const options = { text: body.text, opacity: body.opacity, fontSize: body.fontSize, rotation: body.rotation, ...(body.pages && { ranges: body.pages }) };
    const { outputPath } = await editPdf(body, context, (tasks, files) => tasks.watermark({ ...files, options }));
    return { message: 'Watermarked', outputPath, data: { text: body.text } };
  },
});

export const compress = defineOperation({
  id: 'pdf/compress',
  engines: ['pdf'],
  writes: 'files',
  idempotent: false,
  summary: 'Make a PDF smaller: downsample and re-encode images, recompress streams; never larger',
  input: z.object({
    ...io,
    quality: quality.default(70).describe('JPEG quality of re-encoded photos'),
    maxDpi: z.number().int().min(50).max(600).default(150).describe('images drawn above this resolution are downsampled to it'),
  }),
  run: async (body, context) => {
    const { result, outputPath } = await editPdf(body, context, (tasks, files) =>
      tasks.compress({ ...files, options: { quality: body.quality, maxDpi: body.maxDpi } }),
    );
    const message = result.unchanged
      ? 'Could not make the PDF smaller; the original bytes were kept'
      : `Compressed ${result.inputBytes} → ${result.outputBytes} bytes`;
    return { message, outputPath, data: { ...result } };
  },
});

export const toPdfa = defineOperation({
  id: 'pdf/to-pdfa',
  engines: ['pdf'],
  writes: 'files',
  idempotent: false,
  summary: 'Convert a PDF to PDF/A (archival): fonts embedded, output intent, XMP identification',
  input: z.object({ ...io, level: z.enum(PDFA_LEVELS).default('2b') }),
  run: async (body, context) => {
    const { outputPath } = await editPdf(body, context, (tasks, files) => tasks.toPdfa({ ...files, options: { level: body.level } }));
    return { message: `Converted to PDF/A-${body.level}`, outputPath, data: { level: body.level } };
  },
});

export const PDF_TOOL_OPERATIONS = [info, metadata, decrypt, rotate, rearrange, watermark, compress, toPdfa];
