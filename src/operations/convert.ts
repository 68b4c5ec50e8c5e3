// Document conversion on the document backend (LibreOffice). `/api/convert` is a batch of one:
// every file goes through the same steps — matrix, paths, content check, a staged output — and
// all files of a request reach the backend in one call (one queue entry, as few LibreOffice
// invocations as possible). A file that fails fails alone and leaves nothing behind.

import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import { ApiError, toApiError } from '../../core/errors.js';
import { mapBounded } from '../jobs/bounded.js';
import { extensionOf, fileStem, resolveInputPath, resolveOutputPath } from '../files/paths.js';
import { stageOutput, type StagedOutput } from '../files/staging.js';
import type { ConversionJob } from '../documents/backend.js';
import { checkDocumentContent, markupBudget } from '../document-checks/content-check.js';
import { decryptedInput } from '../document-checks/office-decrypt.js';
import { allowedFormats, familyOfExtension, OUTPUT_FORMATS, supportedInputExtensions, type OutputFormat } from '../documents/formats.js';
import { backendExtension, formatOfExtension, readableExtensions, type DocumentFamily } from '../../core/input-formats.js';
import { convertTargets, describeMatrix } from './convert-targets.js';
import { PDFA_LEVELS, type PdfaLevel } from '../../core/pdfa.js';
import { CancelledError } from '../../core/job-errors.js';
import { defineOperation, type OperationContext } from './operation.js';
import { readInputToFile } from './read.js';
import { convertOfd, isOfdInput } from './convert-ofd.js';
import { convertEditable, editableOptions, isRebuiltInput, type EditableOptions } from './convert-editable.js';

import { filePath, filePaths, formatOfOutput } from './fields.js';

const TARGET_FORMATS = [...OUTPUT_FORMATS, 'md'] as const;
const format = z.enum(TARGET_FORMATS).describe(`output format; allowed per input type: ${describeMatrix()} (md: Markdown)`);
type TargetFormat = z.output<typeof format>;

export interface ItemResult {
  input: string;
  success: boolean;
  outputPath?: string;
  error?: string;
  code?: string;
}

/** What every file of a request becomes. */
interface Target {
  format: TargetFormat;
  pdfa?: PdfaLevel | undefined;
  /** Opens an encrypted .docx/.xlsx/.pptx (src/document-checks/office-decrypt.ts). */
  password?: string | undefined;
  /** For PDFs and images rebuilt as editable documents. */
  options?: EditableOptions;
}

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
  run: async (body, context) => {
    const { input, output, pdfa: level, password: officePassword } = body;
    const target = targetOf(body) as TargetFormat;
    const started = performance.now();
    if (await isOfdInput(input, context)) {
      const made = await convertOfd(input, output, target, context);
      return {
        message: `Converted to ${target}`,
        outputPath: made.outputPath,
        data: {
          format: target,
          backend: 'docwasm-ofd',
          durationMs: Math.round(performance.now() - started),
          pages: made.pages,
          fields: made.fields,
          signatures: made.signatures,
        },
      };
    }
    if (target !== 'md' && (await isRebuiltInput(input, context))) {
      const made = await convertEditable(input, output, target, body, context);
      return {
        message: `Converted to ${target}`,
        outputPath: made.outputPath,
        data: { ...made.data, backend: 'docwasm-reader', durationMs: Math.round(performance.now() - started) },
      };
    }
    const [result] =
      target === 'md'
        ? await readItemsToFiles([{ input, output }], context)
        : await convertItems([{ input, output }], { format: target, pdfa: level, password: officePassword }, context);
    if (!result?.success) throw new ApiError((result?.code as ApiError['code'] | undefined) ?? 'INTERNAL_ERROR', result?.error ?? 'No conversion result');
    const backend = target === 'md' ? 'docwasm-reader' : (await context.engines.documents.backend()).name;
    return {
      message: `Converted to ${target}`,
      outputPath: result.outputPath as string,
      data: { format: target, backend, durationMs: Math.round(performance.now() - started) },
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
    const results = await convertEach(items, { format: target, pdfa: level, options, password: options.password }, context);
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

/**
 * OFD inputs first, each on its own (they need no office backend), and PDFs and images rebuilt
 * as editable documents, then the rest as one batch of the backend (or of the reader, for
 * Markdown); one result per item, in input order.
 */
async function convertEach(items: readonly Item[], target: Target, context: OperationContext): Promise<ItemResult[]> {
  const results: (ItemResult | undefined)[] = items.map(() => undefined);
  const rest: { item: Item; index: number }[] = [];
  let done = 0;
  for (const [index, item] of items.entries()) {
    try {
      const made = (await isOfdInput(item.input, context))
        ? await convertOfd(item.input, item.output, target.format, context)
        : target.format !== 'md' && (await isRebuiltInput(item.input, context))
          ? await convertEditable(item.input, item.output, target.format, target.options ?? {}, { ...context, progress: undefined })
          : undefined;
      if (!made) {
        rest.push({ item, index });
        continue;
      }
      results[index] = { input: item.input, success: true, outputPath: made.outputPath };
    } catch (err) {
      if (err instanceof CancelledError) throw err;
      const e = toApiError(err);
      results[index] = { input: item.input, success: false, error: e.message, code: e.code };
    }
    context.progress?.(++done, items.length);
  }
  if (rest.length > 0) {
    const others = rest.map((r) => r.item);
    const control = { ...context, progress: (finished: number) => context.progress?.(done + finished, items.length) };
    const made = target.format === 'md' ? await readItemsToFiles(others, control) : await convertItems(others, target, control);
    for (const [k, r] of rest.entries()) results[r.index] = made[k];
  }
  return results as ItemResult[];
}

/** Converts every item it can; one result per item, in order. */
async function convertItems(items: readonly Item[], target: Target, context: OperationContext): Promise<ItemResult[]> {
  const results: ItemResult[] = items.map((item) => ({ input: item.input, success: false }));
  const fail = (index: number, err: unknown) => {
    const e = toApiError(err);
    results[index] = { input: items[index]?.input as string, success: false, error: e.message, code: e.code };
  };
  // Per-file checks first: a bad file fails alone, before any conversion starts.
  const ready: PreparedItem[] = [];
  await mapBounded(items, async (item, index) => {
    try {
      ready.push(await prepareItem(item, index, target, context));
    } catch (err) {
      fail(index, err);
    }
  });
  // Progress counts files: those that failed their checks are done already.
  const reportDone = (done: number) => context.progress?.(done, items.length);
  reportDone(items.length - ready.length);
  if (ready.length === 0) return results;
  ready.sort((a, b) => a.index - b.index);
  try {
    await convertPrepared(ready, results, fail, reportDone, items.length, context);
  } finally {
    await Promise.all(ready.map((item) => item.cleanup?.()));
  }
  return results;
}

/** The office's part: outputs staged, the files converted in one job, each output committed or its failure recorded. */
async function convertPrepared(
  ready: readonly PreparedItem[],
  results: ItemResult[],
  fail: (index: number, err: unknown) => void,
  reportDone: (done: number) => void,
  total: number,
  context: OperationContext,
): Promise<void> {
  await context.engines.documents.job(context, async (backend) => {
    const staged: (PreparedItem & { output: StagedOutput })[] = [];
    try {
      for (const item of ready)
        await stageOutput(context.paths, item.target).then(
          (output) => staged.push({ ...item, output }),
          (err: unknown) => fail(item.index, err),
        );
      if (staged.length === 0) return;
      const settledBefore = total - staged.length;
      const control = { ...context, progress: (done: number) => reportDone(settledBefore + done) };
      const outcomes = await backend.convert(
        staged.map((s) => ({ ...s.job, output: s.output.temp })),
        control,
      );
      for (const [k, s] of staged.entries()) {
        const outcome = outcomes[k];
        if (!outcome?.ok) fail(s.index, outcome ? new ApiError(outcome.code, outcome.message) : new ApiError('INTERNAL_ERROR', 'No conversion result'));
        else
          await s.output.commit().then(
            () => (results[s.index] = { input: s.job.shownName, success: true, outputPath: s.target }),
            (err: unknown) => fail(s.index, err),
          );
      }
    } finally {
      await Promise.all(staged.map((s) => s.output.discard()));
    }
  });
}

interface PreparedItem {
  index: number;
  job: Omit<ConversionJob, 'output'>;
  /** The resolved output path. */
  target: string;
  /** Removes the decrypted copy the job reads, if it reads one. */
  cleanup?: () => Promise<void>;
}

async function prepareItem(
  item: Item,
  index: number,
  { format, pdfa: level, password: officePassword }: Target,
  { engines, paths, config }: OperationContext,
): Promise<PreparedItem> {
  if (format === 'md') throw new ApiError('INTERNAL_ERROR', 'Markdown is read, not converted by the backend');
  const { extension, family } = checkMatrix(item.input, format);
  await engines.documents.backend();
  const checked = await resolveInputPath(paths, item.input);
  // An encrypted Office package is decrypted first; the plain copy is then checked like any input.
  const decrypted = officePassword === undefined ? undefined : await decryptedInput(checked, officePassword, item.input);
  const input = decrypted?.ref ?? checked;
  try {
    await checkDocumentContent(input, extension, family, item.input, markupBudget(config.officeMemoryMb * 1024 * 1024), officePassword !== undefined);
    const target = await resolveOutputPath(paths, item.output);
    // A variant (.xlsm, .dotx) goes to the backend as its kind's own extension; macros never run.
    return {
      index,
      job: { input, extension: backendExtension(extension), family, format, pdfa: level, shownName: item.input, outputShown: target },
      target,
      ...(decrypted && { cleanup: decrypted.remove }),
    };
  } catch (err) {
    await decrypted?.remove();
    throw err;
  }
}

/** The support matrix, decided once: UNSUPPORTED_CONVERSION when the input's extension does not allow `format`. */
function checkMatrix(input: string, target: OutputFormat): { extension: string; family: DocumentFamily } {
  const extension = extensionOf(input);
  const family = familyOfExtension(extension);
  if (family && allowedFormats(family).includes(target)) return { extension, family };
  const kind = formatOfExtension(extension);
  if (kind)
    throw new ApiError('UNSUPPORTED_CONVERSION', `Cannot convert .${extension} to ${target}; .${extension} converts to ${convertTargets(kind).join(', ')}`);
  throw new ApiError(
    'UNSUPPORTED_CONVERSION',
    `Unsupported input type "${extension ? `.${extension}` : path.basename(input)}"; supported: ${supportedInputExtensions()
      .map((e) => `.${e}`)
      .join(', ')}`,
  );
}

/** Reads each item as Markdown into its output; one result per item, in order, progress per file. */
async function readItemsToFiles(items: readonly Item[], context: OperationContext): Promise<ItemResult[]> {
  let done = 0;
  const readOne = async (item: Item): Promise<ItemResult> => {
    try {
      const extension = extensionOf(item.input);
      if (!readableExtensions().includes(extension)) {
        throw new ApiError(
          'UNSUPPORTED_CONVERSION',
          `Cannot read .${extension} as Markdown; readable: ${readableExtensions()
            .map((e) => `.${e}`)
            .join(', ')}`,
        );
      }
      const { outputPath } = await readInputToFile(item.input, item.output, context);
      return { input: item.input, success: true, outputPath };
    } catch (err) {
      if (err instanceof CancelledError) throw err;
      const e = toApiError(err);
      return { input: item.input, success: false, error: e.message, code: e.code };
    } finally {
      context.progress?.(++done, items.length);
    }
  };
  // One file per engine thread at a time: a batch of scans must not fill the OCR queue.
  return mapBounded(items, readOne, Math.max(1, context.config.workers));
}

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
