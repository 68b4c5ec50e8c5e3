// OFD (GB/T 33190, China's fixed-layout format: e-invoices, official documents): the one module
// of the service that knows it. Its registry entry is core/input-formats.ts's (detection: a zip
// whose root holds OFD.xml); its engine is wasm/ofd/ (drawn by the PDF worker, read by the reader
// worker, wasm/shared/format-engines.ts). Here: its converter — pdf, md and txt, never by the
// office backend, so no LibreOffice is needed — each answer carrying the document's custom data
// (an e-invoice's fields) as `fields`.

import { ApiError } from '../../core/errors.js';
import type { FileRef } from '../../core/file-ref.js';
import { resolveInputPath, resolveOutputPath } from '../files/paths.js';
import { withStagedOutputs, writeStaged } from '../files/staging.js';
import type { OperationContext } from '../operations/operation.js';
import { readInputToFile } from '../operations/read.js';
import { oneByOne, type Converter } from './converter.js';
import type { InputInfo } from './stream-info.js';

const KIND = 'ofd';
/** What an OFD converts to. */
const FORMATS = ['pdf', 'md', 'txt'] as const;
/** Bytes an OFD package may decompress to: its XML, fonts and pictures (a zip bomb → TOO_LARGE). */
const MAX_PACKAGE_BYTES = 256 * 1024 * 1024;

const isNamed = (info: InputInfo) => info.named?.kind === KIND;

export const ofdConverter: Converter = {
  priority: 0,
  backend: () => Promise.resolve('docwasm-ofd'),
  targets: (format) => (format.kind === KIND ? FORMATS : []),
  /** Judged by content, except for names whose extension says they are another kind docwasm reads (those keep their own checks and messages). */
  accepts: (info) => isNamed(info) || (info.named === undefined && info.content?.kind === KIND),
  refusal: (info, target) => {
    if (info.openError !== undefined) return info.openError;
    if (info.content?.kind !== KIND) return new ApiError('INVALID_INPUT', `${info.shownName} is not ${info.named?.mismatch ?? 'an OFD'}`);
    if (!(FORMATS as readonly string[]).includes(target))
      return new ApiError('UNSUPPORTED_CONVERSION', `Cannot convert .ofd to ${target}; an OFD converts to ${FORMATS.join(', ')}`);
    return undefined;
  },
  convert: oneByOne(async ({ input, output, info }, { format }, context) => {
    if (format === 'md') {
      const { outputPath, result } = await readInputToFile(input, output, context, info);
      return { outputPath, data: { pages: result.pages ?? 0, fields: result.fields ?? {}, signatures: result.signatures ?? [] } };
    }
    const ref = await resolveInputPath(context.paths, input);
    const outputPath = await resolveOutputPath(context.paths, output);
    const made = await withStagedOutputs(context.paths, [outputPath], ([temp]) =>
      format === 'pdf' ? drawPdf(ref, temp as FileRef, context) : writeText(ref, temp as FileRef, outputPath, context),
    );
    return { outputPath, data: { pages: made.pages, fields: made.fields, signatures: made.signatures ?? [] } };
  }),
};

function drawPdf(input: FileRef, output: FileRef, { engines, config, ...control }: OperationContext) {
  return engines.pdf.job(control, (tasks) => tasks.drawPdf({ kind: KIND, input, output, maxPixels: config.maxPixels, maxPackageBytes: MAX_PACKAGE_BYTES }));
}

async function writeText(input: FileRef, temp: FileRef, outputPath: string, { engines, ...control }: OperationContext) {
  const read = await engines.read.job(control, (tasks) => tasks.readText({ kind: KIND, input, maxPackageBytes: MAX_PACKAGE_BYTES }));
  await writeStaged(temp, read.text, outputPath);
  return { fields: read.fields, pages: read.pages, signatures: read.signatures };
}
