// PDF worker: loads the configured PdfEngine once (kept warm by the pool) and runs its tasks,
// reading inputs and writing the staged outputs itself.

import { RECYCLE_AFTER } from '../../core/recycle.js';
import type { FileRef } from '../../core/file-ref.js';
import type { PageRange } from '../../core/page-ranges.js';
import { ownedBuffers } from '../../core/transfer.js';
import { ApiError, defineTask, documentException, serveTasks } from '../shared/task.js';
import { readInputFile, writeOutputFile } from '../shared/io.js';
import { poolWorkerData } from '../shared/worker-data.js';
import type { MetadataUpdate } from '../../core/pdf-metadata.js';
import type {
  CompressOptions,
  EncryptOptions,
  FillOptions,
  PdfEngine,
  SignOptions,
  PdfSink,
  RedactOptions,
  RotateOptions,
  StampOptions,
  WatermarkOptions,
} from './engine.js';
import type { PdfaLevel } from '../../core/pdfa.js';
import * as scan from './scan-tasks.js';
import { readPdfMarkdown, readPdfModel, type ReadMarkdownTask } from './read-task.js';
import { checkPdfBudget } from './stream-budget.js';
import { formatEngine, packageLimits } from '../shared/format-engines.js';

/**
 * A document of a format with an engine of its own (wasm/shared/format-engines.ts) drawn as a
 * PDF, always with mupdf, whichever engine serves the PDF tools.
 */
export interface DrawPdfTask {
  /** The input's kind, as the service judged it (core/input-formats.ts). */
  kind: string;
  input: FileRef;
  output: FileRef;
  maxPixels: number;
  /** Bytes the package may decompress to (zip bombs → TOO_LARGE). */
  maxPackageBytes: number;
}

export interface PdfWorkerData {
  engine: 'mupdf' | 'cpdf';
  maxDecompressedBytes: number;
}

const { engine: engineName, maxDecompressedBytes } = poolWorkerData<PdfWorkerData>();
const engine: PdfEngine = engineName === 'cpdf' ? (await import('./cpdf-engine.js')).cpdfEngine : (await import('./mupdf-engine.js')).mupdfEngine;

/** Every task reads at least one PDF; `password` opens an encrypted one. */
interface Reads {
  password?: string | undefined;
}

export interface MergeTask extends Reads {
  inputs: FileRef[];
  output: FileRef;
}

export interface SplitTask extends Reads {
  input: FileRef;
  ranges: PageRange[];
  outputs: FileRef[];
}

export interface EncryptTask extends EncryptOptions, Reads {
  input: FileRef;
  output: FileRef;
}

/** One PDF in, one PDF out, with the operation's own options. */
export interface EditTask<O> extends Reads {
  input: FileRef;
  output: FileRef;
  options: O;
}

function writeTo(outputs: readonly FileRef[]): PdfSink {
  const write = (pdf: Uint8Array | Iterable<Uint8Array>, index: number) => writeOutputFile(outputs[index] as FileRef, pdf);
  return Object.assign(write, { chunks: write });
}

/** Reads the inputs, remembering whether they were large enough to grow the WASM heap for good. */
let bytesRead = 0;
function read(file: FileRef): Uint8Array {
  const bytes = readInputFile(file);
  bytesRead += bytes.length;
  return bytes;
}

/**
 * mupdf opens damaged files lazily and reports what it cannot repair (page-tree cycles, broken
 * objects) later, while grafting or saving, as a plain Error from WASM: that is a damaged input,
 * not an engine fault. Programming errors (TypeError, RangeError, …) stay INTERNAL_ERROR.
 */
function damagedInput(err: unknown): ApiError | undefined {
  if (isMupdfNullAccess(err)) return new ApiError('INVALID_INPUT', 'The PDF is damaged beyond repair (an object it needs is missing)');
  return err instanceof Error && err.constructor === Error ? new ApiError('INVALID_INPUT', `The PDF is damaged beyond repair (${err.message})`) : undefined;
}

/** mupdf.js dereferencing an object a damaged file lacks (a catalog, a page dictionary). */
function isMupdfNullAccess(err: unknown): boolean {
  return err instanceof TypeError && /node_modules[\\/]mupdf[\\/]/.test(err.stack?.split('\n')[1] ?? '');
}

/**
 * As read, for tasks that interpret the content (compress, PDF/A): the document is held to its
 * decompressed-bytes budget first. The cpdf engine does neither task (BACKEND_UNAVAILABLE,
 * before reading), so its answer is left to it.
 */
function readBudgeted(file: FileRef, password: string | undefined): Uint8Array {
  const bytes = read(file);
  if (engine.name !== 'cpdf') checkPdfBudget(bytes, password, maxDecompressedBytes);
  return bytes;
}

function pdfTask<I, O>(
  run: (input: I) => O | Promise<O>,
  transfer?: (output: O) => ArrayBuffer[],
  describeUnexpected: (err: unknown) => ApiError | undefined = damagedInput,
) {
  return defineTask(
    (input: I) => {
      bytesRead = 0;
      return run(input);
    },
    { describeUnexpected, shouldRecycle: () => bytesRead > RECYCLE_AFTER.pdfInputBytes, ...(transfer && { transfer }) },
  );
}

/** Reading a PDF as Markdown: as every reader's, its own exception on a document is INVALID_INPUT (wasm/shared/task.ts). */
const pdfReaderException = (err: unknown): ApiError => damagedInput(err) ?? documentException('The PDF')(err);

const tasks = {
  merge: pdfTask(({ inputs, output, password }: MergeTask) => engine.merge(inputs.map(read), writeTo([output]), password)),
  split: pdfTask(({ input, ranges, outputs, password }: SplitTask) => {
    engine.split(read(input), ranges, writeTo(outputs), password);
    return { files: outputs.length };
  }),
  encrypt: pdfTask(({ input, output, password, ...options }: EncryptTask) => {
    engine.encrypt(read(input), options, writeTo([output]), password);
    return {};
  }),
  info: pdfTask(({ input, password }: Reads & { input: FileRef }) => engine.info(read(input), password)),
  metadata: pdfTask(({ input, output, options, password }: EditTask<MetadataUpdate>) => {
    engine.setMetadata(read(input), options, writeTo([output]), password);
    return {};
  }),
  decrypt: pdfTask(({ input, output, password }: EditTask<object> & { password: string }) => engine.decrypt(read(input), password, writeTo([output]))),
  rotate: pdfTask(({ input, output, options, password }: EditTask<RotateOptions>) => {
    engine.rotate(read(input), options, writeTo([output]), password);
    return {};
  }),
  rearrange: pdfTask(({ input, output, options, password }: EditTask<{ ranges: PageRange[] }>) =>
    engine.rearrange(read(input), options.ranges, writeTo([output]), password),
  ),
  watermark: pdfTask(({ input, output, options, password }: EditTask<WatermarkOptions>) => {
    engine.watermark(read(input), options, writeTo([output]), password);
    return {};
  }),
  compress: pdfTask(({ input, output, options, password }: EditTask<CompressOptions>) =>
    engine.compress(readBudgeted(input, password), options, writeTo([output]), password),
  ),
  toPdfa: pdfTask(async ({ input, output, options, password }: EditTask<{ level: PdfaLevel }>) => {
    await engine.toPdfa(readBudgeted(input, password), options.level, writeTo([output]), password);
    return {};
  }),
  stamp: pdfTask(({ input, output, options: { image, ...options }, password }: EditTask<Omit<StampOptions, 'image'> & { image?: FileRef }>) => {
    engine.stamp(read(input), { ...options, ...(image && { image: read(image) }) }, writeTo([output]), password);
    return {};
  }),
  formFields: pdfTask(({ input, password }: Reads & { input: FileRef }) => engine.formFields(read(input), password)),
  fill: pdfTask(({ input, output, options, password }: EditTask<FillOptions>) => engine.fillForm(read(input), options, writeTo([output]), password)),
  flatten: pdfTask(({ input, output, options, password }: EditTask<{ annotations: boolean }>) =>
    engine.flatten(read(input), options, writeTo([output]), password),
  ),
  sign: pdfTask(({ input, output, options: { certificate, ...options }, password }: EditTask<Omit<SignOptions, 'certificate'> & { certificate: FileRef }>) =>
    engine.sign(read(input), { ...options, certificate: read(certificate) }, writeTo([output]), password),
  ),
  signatures: pdfTask(({ input, password, trustRoots }: Reads & { input: FileRef; trustRoots: string[] }) =>
    engine.signatures(read(input), trustRoots, password),
  ),
  redact: pdfTask(({ input, output, options, password }: EditTask<RedactOptions>) => engine.redact(read(input), options, writeTo([output]), password)),
  selectPages: pdfTask((task: scan.SelectPagesTask) => scan.selectPages(task, read, maxDecompressedBytes)),
  pageImages: pdfTask((task: scan.PageImagesTask) => scan.pageImages(task, read, maxDecompressedBytes)),
  // The page's grey pixels (~9 MB at 300 dpi) move to the main thread, and on to the OCR thread.
  renderForOcr: pdfTask(
    (task: scan.RenderForOcrTask) => scan.renderForOcr(task, read, maxDecompressedBytes),
    (rendered) => ('image' in rendered ? ownedBuffers(rendered.image.pixels) : []),
  ),
  renderToFile: pdfTask((task: scan.RenderToFileTask) => scan.renderToFile(task, read, maxDecompressedBytes)),
  addTextLayers: pdfTask((task: scan.TextLayerTask) => scan.addTextLayers(task, read)),
  readMarkdown: pdfTask((task: ReadMarkdownTask) => readPdfMarkdown(task, read, maxDecompressedBytes), undefined, pdfReaderException),
  /** The pages' blocks as the model, for convert's editable documents (DOCX, XLSX). */
  readModel: pdfTask((task: scan.SelectPagesTask) => readPdfModel(task, read, maxDecompressedBytes), undefined, pdfReaderException),
  drawPdf: pdfTask(({ kind, input, output, maxPixels, maxPackageBytes }: DrawPdfTask) =>
    formatEngine(kind).pdf(read(input), maxPixels, writeTo([output]), packageLimits(maxPackageBytes)),
  ),
};

export type PdfTasks = typeof tasks;
export default serveTasks(tasks);
