// OFD inputs of convert (pdf, md, txt): drawn by the PDF worker (wasm/pdf/ofd-pdf.ts) or read by
// the reader worker (wasm/read/ofd.ts), never by the office backend, so no LibreOffice is needed.
// Each answer carries the document's custom data (an e-invoice's fields) as `fields`.

import { ApiError } from '../../core/errors.js';
import { extensionOf, resolveInputPath, resolveOutputPath } from '../files/paths.js';
import { formatOfExtension } from '../../core/input-formats.js';
import { withStagedOutputs, writeStaged } from '../files/staging.js';
import { packageFormatOf } from '../document-checks/content-check.js';
import type { FileRef } from '../../core/file-ref.js';
import type { OperationContext } from './operation.js';
import { readInputToFile } from './read.js';
import type { OfdSignature } from '../../wasm/ofd/signatures.js';

/** What an OFD converts to. */
export const OFD_FORMATS = ['pdf', 'md', 'txt'] as const;
/** Bytes an OFD package may decompress to: its XML, fonts and pictures (a zip bomb → TOO_LARGE). */
const MAX_OFD_PACKAGE_BYTES = 256 * 1024 * 1024;

export interface OfdConverted {
  outputPath: string;
  fields: Record<string, string>;
  pages: number;
  signatures: OfdSignature[];
}

/**
 * Is the input (as the user named it) an OFD? Judged by content, except for names whose
 * extension says they are another kind docwasm reads (those keep their own checks and messages).
 * A .ofd that is not one is INVALID_INPUT; another name that cannot be opened is left to the
 * checks of its own kind.
 */
export async function isOfdInput(input: string, context: OperationContext): Promise<boolean> {
  const extension = extensionOf(input);
  const named = extension === 'ofd';
  if (!named && formatOfExtension(extension) !== undefined) return false;
  let ofd: boolean;
  try {
    ofd = (await packageFormatOf(await resolveInputPath(context.paths, input), input))?.kind === 'ofd';
  } catch (err) {
    if (named) throw err;
    return false;
  }
  if (!ofd && named) throw new ApiError('INVALID_INPUT', `${input} is not an OFD (not a zip whose root holds OFD.xml)`);
  return ofd;
}

/** Converts one OFD to `format`; UNSUPPORTED_CONVERSION for a format an OFD does not convert to. */
export async function convertOfd(input: string, output: string, format: string, context: OperationContext): Promise<OfdConverted> {
  if (!(OFD_FORMATS as readonly string[]).includes(format))
    throw new ApiError('UNSUPPORTED_CONVERSION', `Cannot convert .ofd to ${format}; an OFD converts to ${OFD_FORMATS.join(', ')}`);
  if (format === 'md') {
    const { outputPath, result } = await readInputToFile(input, output, context);
    return { outputPath, fields: result.fields ?? {}, pages: result.pages ?? 0, signatures: result.signatures ?? [] };
  }
  const ref = await resolveInputPath(context.paths, input);
  const outputPath = await resolveOutputPath(context.paths, output);
  return withStagedOutputs(context.paths, [outputPath], async ([temp]) => {
    const made = format === 'pdf' ? await drawPdf(ref, temp as FileRef, context) : await writeText(ref, temp as FileRef, outputPath, context);
    return { outputPath, ...made };
  });
}

function drawPdf(input: FileRef, output: FileRef, { engines, config, ...control }: OperationContext) {
  return engines.pdf.job(control, (tasks) => tasks.ofdToPdf({ input, output, maxPixels: config.maxPixels, maxPackageBytes: MAX_OFD_PACKAGE_BYTES }));
}

async function writeText(input: FileRef, temp: FileRef, outputPath: string, { engines, ...control }: OperationContext) {
  const read = await engines.read.job(control, (tasks) => tasks.readOfdText({ input, maxPackageBytes: MAX_OFD_PACKAGE_BYTES }));
  await writeStaged(temp, read.text, outputPath);
  return { fields: read.fields, pages: read.pages, signatures: read.signatures };
}
