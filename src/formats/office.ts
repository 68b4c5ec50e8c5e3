// Office documents converted by the document backend (LibreOffice, installed or in WebAssembly):
// every file goes through the same steps — paths, content check, a staged output — and all
// files of a request reach the backend in one call (one queue entry, as few LibreOffice
// invocations as possible). A file that fails fails alone and leaves nothing behind. The matrix
// is each family's export filters (src/documents/formats.ts).

import path from 'node:path';
import { ApiError, toApiError } from '../../core/errors.js';
import { backendExtension, formatOfExtension, type DocumentFamily } from '../../core/input-formats.js';
import type { ConversionJob } from '../documents/backend.js';
import { allowedFormats, familyOfExtension, supportedInputExtensions, type OutputFormat } from '../documents/formats.js';
import { checkDocumentContent, markupBudget } from '../document-checks/content-check.js';
import { decryptedInput } from '../document-checks/office-decrypt.js';
import { resolveInputPath, resolveOutputPath } from '../files/paths.js';
import { stageOutput, type StagedOutput } from '../files/staging.js';
import { mapBounded } from '../jobs/bounded.js';
import type { OperationContext } from '../operations/operation.js';
import { type ConvertItem, type ConvertTarget, type Converter, type ItemResult } from './converter.js';

export const officeConverter: Converter = {
  priority: 10,
  backend: async (context) => (await context.engines.documents.backend()).name,
  targets: (format) => (format.family === undefined ? [] : allowedFormats(format.family)),
  accepts: (_info, target) => target !== 'md',
  refusal: ({ shownName, extension }, target, matrix) => {
    const family = familyOfExtension(extension);
    if (family && allowedFormats(family).includes(target as OutputFormat)) return undefined;
    const kind = formatOfExtension(extension);
    if (kind) return new ApiError('UNSUPPORTED_CONVERSION', `Cannot convert .${extension} to ${target}; .${extension} converts to ${matrix(kind).join(', ')}`);
    return new ApiError(
      'UNSUPPORTED_CONVERSION',
      `Unsupported input type "${extension ? `.${extension}` : path.basename(shownName)}"; supported: ${supportedInputExtensions()
        .map((e) => `.${e}`)
        .join(', ')}`,
    );
  },
  convert: convertItems,
};

/** Converts every item it can; one result per item, in order. */
async function convertItems(items: readonly ConvertItem[], target: ConvertTarget, context: OperationContext): Promise<ItemResult[]> {
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

/** An item the matrix allows (refusal judged it), checked and its output resolved. */
async function prepareItem(
  item: ConvertItem,
  index: number,
  { format, pdfa: level, password: officePassword }: ConvertTarget,
  { engines, paths, config }: OperationContext,
): Promise<PreparedItem> {
  const { extension } = item.info;
  const family = familyOfExtension(extension) as DocumentFamily;
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
      job: { input, extension: backendExtension(extension), family, format: format as OutputFormat, pdfa: level, shownName: item.input, outputShown: target },
      target,
      ...(decrypted && { cleanup: decrypted.remove }),
    };
  } catch (err) {
    await decrypted?.remove();
    throw err;
  }
}
