// OCR on the OCR engine (src/engines/ocr-engine.ts): PP-OCR (onnxruntime-web) and tesseract.js
// with the language data installed as npm packages plus the --tessdata dir. `engine: auto`
// reads with PP-OCR when the languages include Chinese (where tesseract is weak) and with
// tesseract otherwise; PP-OCR hands pages it finds mostly Latin to tesseract. Languages are
// validated before any engine starts.
// The input is an image or a PDF (by content); an output ending in .pdf is a searchable PDF
// instead of text.

import { z } from 'zod';
import { extensionOf, resolveInputWithHead, resolveOutputPath } from '../files/paths.js';
import { withStagedOutputs, writeStaged } from '../files/staging.js';
import { DEFAULT_LANGUAGE } from '../ocr/language-store.js';
import { writeImagesPdf } from '../scans/images-pdf.js';
import { readPdfPages, type PageReading } from '../scans/pdf-ocr.js';
import { selectPdfPages } from '../scans/pdf-pages.js';
import type { FileRef } from '../../core/file-ref.js';
import type { PageRange } from '../../core/page-ranges.js';
import { sniffType } from '../../core/sniff.js';
import { defineOperation, type OperationContext, type OperationResult } from './operation.js';
import { filePath, ocrEngine, pageRanges, password } from './fields.js';
import { resolveEngine } from '../engines/ocr-engine.js';
import type { OcrEngineChoice, OcrEngineName } from '../../wasm/ocr/worker.js';

interface OcrRequest {
  input: FileRef;
  outputPath: string | undefined;
  codes: string[];
  ranges: PageRange[] | undefined;
  dpi: number;
  password: string | undefined;
  skipText: boolean;
  engine: OcrEngineChoice;
}

export const ocr = defineOperation({
  id: 'ocr',
  engines: ['ocr', 'pdf', 'image'],
  writes: 'files',
  idempotent: false,
  summary: 'Read the text of an image or a PDF (OCR); optionally write a searchable PDF',
  input: z.object({
    input: filePath.describe('image (JPEG, PNG, WebP, AVIF, BMP, GIF, TIFF) or PDF to read; absolute, or relative to the base dir'),
    language: z
      .string()
      .min(1)
      .max(200)
      .default(DEFAULT_LANGUAGE)
      .describe('installed language codes joined by "+", in priority order (see GET /api/health → ocr.languages)'),
    output: filePath
      .optional()
      .describe('also write the text to this file (UTF-8); ending in .pdf: a searchable PDF instead (the input with an invisible text layer)'),
    pages: pageRanges.optional().describe('PDF pages to read, comma-separated N or N-M (default: all); ignored for images'),
    dpi: z.number().int().min(72).max(600).default(300).describe('resolution PDF pages are rendered at for reading (72–600)'),
    password: password.optional(),
    skipText: z.boolean().default(false).describe('PDF pages that already have text are not read again (their text is returned as it is)'),
    engine: ocrEngine.describe(
      'auto: PP-OCR when the languages include Chinese (pages it reads as mostly Latin go to tesseract), tesseract otherwise; paddle: PP-OCR only; tesseract: tesseract only',
    ),
  }),
  run: async ({ input, language, output, pages, dpi, password, skipText, engine }, context) => {
    const codes = context.engines.ocr.parseLanguages(language);
    const { ref: inputRef, head } = await resolveInputWithHead(context.paths, input, 1024);
    const outputPath = output === undefined ? undefined : await resolveOutputPath(context.paths, output);
    const request: OcrRequest = { input: inputRef, outputPath, codes, ranges: pages, dpi, password, skipText, engine: resolveEngine(engine, codes) };
    const isPdf = sniffType(head) === 'pdf';
    return isPdf ? readPdf(request, context) : readImage(request, context);
  },
});

export const OCR_OPERATIONS = [ocr];

/** The engines that read the pages, joined by '+'; the one asked for when no page was read. */
function enginesUsed(used: readonly (OcrEngineName | undefined)[], requested: OcrEngineChoice): string {
  const names = [...new Set(used.filter((name) => name !== undefined))].sort();
  return names.length > 0 ? names.join('+') : requested === 'tesseract' ? 'tesseract' : 'paddle';
}

const wantsPdf = (outputPath: string | undefined): outputPath is string => outputPath !== undefined && extensionOf(outputPath) === 'pdf';
const countCharacters = (text: string) => [...text].filter((c) => c.trim() !== '').length;

async function readImage({ input, outputPath, codes, engine }: OcrRequest, { engines, paths, config, ...control }: OperationContext): Promise<OperationResult> {
  const started = Date.now();
  const searchable = wantsPdf(outputPath);
  const recognize = () => engines.ocr.recognize({ image: input, maxPixels: config.maxPixels }, { codes, layout: searchable, engine }, control);
  const result = !outputPath
    ? await recognize()
    : await withStagedOutputs(paths, [outputPath], async ([temp]) => {
        const recognized = await recognize();
        if (searchable && recognized.layout) {
          const [placement] = await writeImagesPdf([input], temp, outputPath, 'fit', {
            engines,
            maxPixels: config.maxPixels,
            parallel: 1,
            control: { signal: control.signal },
          });
          const pages = [{ page: 1, layout: recognized.layout, rect: placement?.rect }];
          await engines.pdf.job(control, (tasks) => tasks.addTextLayers({ input: temp, output: temp, pages }));
        } else {
          await writeStaged(temp, recognized.text, outputPath);
        }
        return recognized;
      });
  return {
    message: `Recognised ${countCharacters(result.text)} character(s)${searchable ? '; wrote a searchable PDF' : ''}`,
    text: result.text,
    ...(outputPath && { outputPath }),
    data: {
      language: codes.join('+'),
      engine: result.engine,
      confidence: result.confidence,
      durationMs: Date.now() - started,
      ...(searchable && { pages: 1 }),
    },
  };
}

async function readPdf(
  { input, outputPath, codes, ranges, dpi, password, skipText, engine }: OcrRequest,
  { engines, paths, config, ...control }: OperationContext,
): Promise<OperationResult> {
  const started = Date.now();
  const searchable = wantsPdf(outputPath);
  const selection = await selectPdfPages(engines, control, { input, password, ranges, dpi, maxPixels: config.maxPixels, maxPages: config.maxPages });
  const read = () => readPdfPages(engines, config.workers, control, { input, password, selection, dpi, codes, skipText, layout: searchable, engine });
  let readings: PageReading[];
  if (!outputPath) readings = await read();
  else {
    readings = await withStagedOutputs(paths, [outputPath], async ([temp]) => {
      const pages = await read();
      if (searchable) {
        const layers = pages.flatMap(({ page, layout }) => (layout ? [{ page, layout }] : []));
        await engines.pdf.job(control, (tasks) => tasks.addTextLayers({ input, password, output: temp, pages: layers }));
      } else {
        await writeStaged(temp, pages.map((p) => p.text).join('\f'), outputPath);
      }
      return pages;
    });
  }
  const text = readings.map((p) => p.text).join('\f');
  return {
    message: `Recognised ${countCharacters(text)} character(s) on ${readings.length} page(s)${searchable ? '; wrote a searchable PDF' : ''}`,
    text,
    ...(outputPath && { outputPath }),
    data: {
      language: codes.join('+'),
      engine: enginesUsed(
        readings.map((reading) => reading.engine),
        engine,
      ),
      confidence: meanConfidence(readings),
      durationMs: Date.now() - started,
      pages: readings.map(({ page, text: pageText, confidence, engine: pageEngine }) => ({
        page,
        characters: countCharacters(pageText),
        confidence,
        ...(pageEngine && { engine: pageEngine }),
        ...(confidence === null && { skipped: true }),
      })),
    },
  };
}

/** Confidence over the pages read, weighted by their characters; null when none was read. */
function meanConfidence(readings: readonly PageReading[]): number | null {
  let weighted = 0;
  let characters = 0;
  for (const { text, confidence } of readings) {
    if (confidence === null) continue;
    const count = Math.max(1, countCharacters(text));
    weighted += confidence * count;
    characters += count;
  }
  return characters === 0 ? null : Math.round((weighted / characters) * 10) / 10;
}
