// Reading a document as Markdown, for people, scripts and AI agents: `/api/read` answers the
// text (no file needed), `convert` with format "md" writes it. Office files are read from their
// own XML (no LibreOffice), PDFs from their text layer with scanned pages read by OCR.

import { z } from 'zod';
import { resolveInputPath, resolveOutputPath } from '../files/paths.js';
import { withStagedOutputs, writeStaged } from '../files/staging.js';
import { DEFAULT_LANGUAGE } from '../ocr/language-store.js';
import { readDocument, type ReadResult } from '../reading/read-document.js';
import type { StreamInfo } from '../formats/stream-info.js';
import type { FileRef } from '../../core/file-ref.js';
import { INPUT_FORMATS } from '../../core/input-formats.js';
import type { PageRange } from '../../core/page-ranges.js';
import { defineOperation, type OperationContext } from './operation.js';
import { filePath, ocrEngine, pageRanges, password } from './fields.js';

export const DEFAULT_MAX_CHARACTERS = 200_000;
/** The contract's largest cut: a Markdown file written by convert holds the whole document up to this. */
export const MAX_READ_CHARACTERS = 5_000_000;

export const maxCharacters = z
  .number()
  .int()
  .min(1)
  .max(MAX_READ_CHARACTERS)
  .default(DEFAULT_MAX_CHARACTERS)
  .describe(
    'cut the Markdown at a block boundary before this many characters, or the first block between two characters when it alone is longer (sets data.truncated)',
  );

export const read = defineOperation({
  id: 'read',
  summary: `Read a document's content as Markdown (${INPUT_FORMATS.map((f) => f.kind).join(', ')}${INPUT_FORMATS.flatMap((f) => (f.readNote ? [` — ${f.readNote}`] : [])).join('')}): call this to look inside a file`,
  // PDFs and their scans, OCR of images, LibreOffice for legacy .doc/.xls/.ppt/.rtf.
  engines: ['pdf', 'ocr', 'documents'],
  // With `output` it also writes the Markdown there.
  writes: 'files',
  idempotent: true,
  answersWithText: true,
  input: z.object({
    input: filePath.describe('the document to read; absolute, or relative to the base dir'),
    output: filePath.optional().describe('also write the Markdown to this file (UTF-8)'),
    pages: pageRanges.optional().describe('PDF pages to read, comma-separated N or N-M (default: all)'),
    password: password.optional(),
    language: z.string().min(1).max(200).default(DEFAULT_LANGUAGE).describe('OCR languages for scanned pages and images, joined by "+"'),
    engine: ocrEngine.describe("OCR engine for scanned pages and images, as /api/ocr's engine"),
    maxCharacters,
  }),
  run: async ({ input, output, pages, password: pdfPassword, language, engine, maxCharacters: limit }, context) => {
    const codes = context.engines.ocr.parseLanguages(language);
    const inputRef = await resolveInputPath(context.paths, input);
    const outputPath = output === undefined ? undefined : await resolveOutputPath(context.paths, output);
    const request = { input: inputRef, shownName: input, ranges: pages, password: pdfPassword, codes, engine, maxCharacters: limit };
    const result = outputPath === undefined ? await readDocument(request, context) : await readToFile(request, outputPath, context);
    return {
      message: `Read ${result.format} as Markdown (${result.markdown.length} characters${result.truncated ? ', truncated' : ''})`,
      text: result.markdown,
      ...(outputPath !== undefined && { outputPath }),
      data: readData(result),
    };
  },
});

export const READ_OPERATIONS = [read];

interface FileReadRequest {
  input: FileRef;
  shownName: string;
  judged?: StreamInfo;
  ranges?: PageRange[] | undefined;
  password?: string | undefined;
  codes: string[];
  maxCharacters: number;
}

/** Reads and writes the Markdown to `outputPath` atomically. */
export function readToFile(request: FileReadRequest, outputPath: string, context: OperationContext): Promise<ReadResult> {
  return withStagedOutputs(context.paths, [outputPath], async ([temp]) => {
    const result = await readDocument(request, context);
    await writeStaged(temp as FileRef, result.markdown, outputPath);
    return result;
  });
}

/**
 * Reads `input` as Markdown into `output`, both as the user named them: the one path of every
 * Markdown output of convert (every input format), with the whole document's bound. `judged`:
 * what convert's dispatch found the input to be (src/formats/stream-info.ts), not judged again.
 */
export async function readInputToFile(
  input: string,
  output: string,
  context: OperationContext,
  judged?: StreamInfo,
): Promise<{ outputPath: string; result: ReadResult }> {
  const codes = context.engines.ocr.parseLanguages(DEFAULT_LANGUAGE);
  const ref = await resolveInputPath(context.paths, input);
  const outputPath = await resolveOutputPath(context.paths, output);
  const request = { input: ref, shownName: input, codes, maxCharacters: MAX_READ_CHARACTERS, ...(judged && { judged }) };
  const result = await readToFile(request, outputPath, context);
  return { outputPath, result };
}

export function readData(result: ReadResult): Record<string, unknown> {
  return {
    format: result.format,
    ...(result.pages !== undefined && { pages: result.pages }),
    characters: result.markdown.length,
    truncated: result.truncated,
    ocrPages: result.ocrPages,
    ...(result.fields && { fields: result.fields }),
    ...(result.signatures && { signatures: result.signatures }),
  };
}
