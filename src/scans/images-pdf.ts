// Writes a PDF of one page per image, in order, straight into a staged file: JPEGs are read
// here and kept as they are; every other image is one job of the image engine (decoded and
// deflated there, several at a time), with its own time limit.

import { ApiError } from '../../core/errors.js';
import type { Engines } from '../engines/engines.js';
import { readChecked, readInputHead } from '../files/paths.js';
import { openStaged } from '../files/staging.js';
import type { JobControl } from '../jobs/policy.js';
import { fileError } from '../../core/file-errors.js';
import { sniffType } from '../../core/sniff.js';
import { writeImagePage, type ImagePlacement, type PageSizeName, type PdfImage } from './image-pages.js';
import { jpegPdfImage } from './jpeg-image.js';
import { PdfFileWriter, ref, type PdfRef } from './pdf-file-writer.js';
import { pipelineInOrder } from '../jobs/bounded.js';
import type { FileRef } from '../../core/file-ref.js';

export interface ImagesPdfJob {
  engines: Engines;
  maxPixels: number;
  /** Images prepared at once (the image engine's threads, plus one being written). */
  parallel: number;
  control: JobControl;
}

export async function writeImagesPdf(
  files: readonly FileRef[],
  temp: FileRef,
  target: string,
  pageSize: PageSizeName,
  job: ImagesPdfJob,
): Promise<ImagePlacement[]> {
  const file = await openStaged(temp, target);
  try {
    const writer = new PdfFileWriter(file);
    const pagesRef = writer.reserve();
    const kids: PdfRef[] = [];
    const placements: ImagePlacement[] = [];
    const prepare = (input: FileRef, _: number, control: JobControl) => pdfImageOf(input, { ...job, control });
    await pipelineInOrder(files, { limit: job.parallel }, job.control, prepare, async (image) => {
      const { page, placement } = await writeImagePage(writer, pagesRef, image, pageSize);
      kids.push(page);
      placements.push(placement);
      job.control.progress?.(kids.length, files.length);
    });
    await writer.object(`<< /Type /Pages /Kids [${kids.map(ref).join(' ')}] /Count ${kids.length} >>`, pagesRef);
    await writer.finish(await writer.object(`<< /Type /Catalog /Pages ${ref(pagesRef)} >>`));
    return placements;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code && !(err instanceof ApiError)) throw fileError(err, { role: 'output', shown: target });
    throw err;
  } finally {
    await file.close();
  }
}

async function pdfImageOf(input: FileRef, { engines, maxPixels, control }: ImagesPdfJob): Promise<PdfImage> {
  if (sniffType(await readInputHead(input, 64)) === 'jpeg') return jpegPdfImage(await readChecked(input), input.path, maxPixels);
  const pixels = await engines.image.job(control, (tasks) => tasks.pdfImage({ input, maxPixels }));
  return {
    width: pixels.width,
    height: pixels.height,
    orientation: 1, // the image engine's decoders already applied any orientation
    resolution: pixels.resolution,
    dictionary: `/ColorSpace /${pixels.colorSpace} /BitsPerComponent 8 /Filter /FlateDecode`,
    data: pixels.data,
    softMask: pixels.alpha && { dictionary: '/ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode', data: pixels.alpha },
  };
}
