// OFD (GB/T 33190, China's fixed-layout format: e-invoices, official documents): the one module
// of the service that knows it. Its declaration is core/input-formats.ts's (detection: a zip
// whose root holds OFD.xml; converted to pdf, md and txt by code of its own, never by the office
// backend, so no LibreOffice is needed), which src/formats/own-code.ts makes its converter from;
// its engine is wasm/ofd/ (drawn by the PDF worker, read by the reader worker). Here: the
// conversion, each answer carrying the document's custom data (an e-invoice's fields) as `fields`.

import type { FileRef } from '../../../core/file-ref.js';
import { resolveInputPath, resolveOutputPath } from '../../files/paths.js';
import { withStagedOutputs, writeStaged } from '../../files/staging.js';
import type { OperationContext } from '../../operations/operation.js';
import { readInputToFile } from '../../operations/read.js';
import { oneByOne } from '../converter.js';
import type { FormatModule } from '../own-code.js';

const KIND = 'ofd';
/** Bytes an OFD package may decompress to: its XML, fonts and pictures (a zip bomb → TOO_LARGE). */
const MAX_PACKAGE_BYTES = 256 * 1024 * 1024;

export const convert: FormatModule['convert'] = oneByOne(async ({ input, output, info }, { format }, context) => {
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
});

function drawPdf(input: FileRef, output: FileRef, { engines, config, ...control }: OperationContext) {
  return engines.pdf.job(control, (tasks) => tasks.drawPdf({ kind: KIND, input, output, maxPixels: config.maxPixels, maxPackageBytes: MAX_PACKAGE_BYTES }));
}

async function writeText(input: FileRef, temp: FileRef, outputPath: string, { engines, ...control }: OperationContext) {
  const read = await engines.read.job(control, (tasks) => tasks.readText({ kind: KIND, input, maxPackageBytes: MAX_PACKAGE_BYTES }));
  await writeStaged(temp, read.text, outputPath);
  return { fields: read.fields, pages: read.pages, signatures: read.signatures };
}
