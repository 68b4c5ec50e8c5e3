// PDF pages to image files and image files to PDF pages. Rendering is mupdf's in the PDF
// pool (one job per page, several pages at once), encoding the image engine's codecs; PDFs of
// images are written page by page (src/scans/images-pdf.ts).

import path from 'node:path';
import { z } from 'zod';
import { fileStem, resolveInputPath, resolveOutputPath } from '../files/paths.js';
import { mapBounded } from '../jobs/bounded.js';
import { withLazyStaging, withStagedOutputs } from '../files/staging.js';
import { writeImagesPdf } from '../scans/images-pdf.js';
import { selectPdfPages } from '../scans/pdf-pages.js';
import { pipelineInOrder } from '../jobs/bounded.js';
import { defineOperation } from './operation.js';
import { filePath, filePaths, pageRanges, password, quality } from './fields.js';
import { resolvePdfInput } from './pdf.js';

const EXTENSIONS = { png: 'png', jpeg: 'jpg', webp: 'webp' } as const;

/** "jpg" is taken for "jpeg", as the image operations take a .jpg output for JPEG. */
const imageFormat = z
  .enum(['png', 'jpeg', 'jpg', 'webp'])
  .default('png')
  .transform((format) => (format === 'jpg' ? 'jpeg' : format));

export const toImages = defineOperation({
  id: 'pdf/to-images',
  engines: ['pdf'],
  writes: 'files',
  idempotent: true,
  summary: 'Render PDF pages to image files, one per page',
  input: z.object({
    input: filePath,
    outputDir: filePath.optional().describe("where the images go (default: the input's directory)"),
    format: imageFormat,
    dpi: z.number().int().min(36).max(600).default(150).describe('resolution in dots per inch (36–600)'),
    pages: pageRanges.optional().describe('pages to render, comma-separated N or N-M (default: all)'),
    quality: quality.default(85).describe('1–100 for JPEG and WebP'),
    password: password.optional(),
  }),
  run: async ({ input, outputDir, format, dpi, pages: ranges, quality, password }, { engines, paths, config, ...control }) => {
    const inputRef = await resolvePdfInput(paths, input);
    const dir = outputDir === undefined ? path.dirname(inputRef.path) : await resolveOutputPath(paths, outputDir);
    const selection = await selectPdfPages(engines, control, {
      input: inputRef,
      password,
      ranges,
      dpi,
      maxPixels: config.maxPixels,
      maxPages: config.maxPages,
    });
    const digits = String(selection.pageCount).length;
    const outputs = selection.pages.map((page) => path.join(dir, `${fileStem(inputRef.path)}_${String(page).padStart(digits, '0')}.${EXTENSIONS[format]}`));
    // Each page's temp file is made as the page is rendered: a cancel finds only those to remove.
    await withLazyStaging(paths, control.signal, async (stage) => {
      const render = async (page: number, i: number, pageControl: typeof control) => {
        const output = await stage(outputs[i] as string);
        return engines.pdf.job(pageControl, (tasks) => tasks.renderToFile({ input: inputRef, password, page, dpi, format, quality, output }));
      };
      await pipelineInOrder(selection.pages, { limit: config.workers + 1 }, control, render, (_, i) => {
        control.progress?.(i + 1, outputs.length);
      });
    });
    return { message: `Rendered ${outputs.length} page(s) to ${format.toUpperCase()} at ${dpi} dpi`, outputPath: dir, data: { files: outputs, format, dpi } };
  },
});

export const fromImages = defineOperation({
  id: 'pdf/from-images',
  engines: ['pdf', 'image'],
  writes: 'files',
  idempotent: true,
  summary: 'Make a PDF of images, one page per image (JPEG kept as it is)',
  input: z.object({
    files: filePaths('image'),
    output: filePath,
    pageSize: z
      .enum(['fit', 'a4', 'letter'])
      .default('fit')
      .describe("fit: the image's size at its declared resolution (else 96 dpi); a4/letter: centred within 36 pt margins, never enlarged"),
  }),
  run: async ({ files, output, pageSize }, { engines, paths, config, ...control }) => {
    const inputs = await mapBounded(files, (file) => resolveInputPath(paths, file));
    const outputPath = await resolveOutputPath(paths, output);
    await withStagedOutputs(paths, [outputPath], ([temp]) =>
      writeImagesPdf(inputs, temp, outputPath, pageSize, { engines, maxPixels: config.maxPixels, parallel: config.workers + 1, control }),
    );
    return { message: `Made a PDF of ${inputs.length} page(s)`, outputPath, data: { pages: inputs.length, pageSize } };
  },
});

export const SCAN_OPERATIONS = [toImages, fromImages];
