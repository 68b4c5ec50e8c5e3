// OCR on tesseract.js with the language data installed as npm packages (eng, chi_sim) plus the
// --tessdata dir. Languages are validated before any engine starts.

import { z } from 'zod';
import { resolveInputPath, resolveOutputPath } from '../files/paths.js';
import { withStagedOutputs, writeStaged } from '../files/staging.js';
import { DEFAULT_LANGUAGE } from '../ocr/language-store.js';
import type { FileRef } from '../shared/file-ref.js';
import { defineOperation } from './operation.js';
import { filePath } from './fields.js';

/** Time kept back from the job's deadline so the worker answers TIMEOUT itself and stays warm. */
const deadlineMargin = (limitMs: number) => Math.min(1_000, limitMs / 10);

export const ocr = defineOperation({
  id: 'ocr',
  summary: 'Read the text of an image (OCR)',
  input: z.object({
    input: filePath.describe('image to read (JPEG, PNG, WebP, AVIF, BMP, GIF, TIFF); absolute, or relative to the base dir'),
    language: z
      .string()
      .min(1)
      .max(200)
      .default(DEFAULT_LANGUAGE)
      .describe('installed language codes joined by "+", in priority order (see GET /api/health → ocr.languages)'),
    output: filePath.optional().describe('also write the text to this file (UTF-8); absolute, or relative to the base dir'),
  }),
  run: async ({ input, language, output }, { engines, paths, config, ...control }) => {
    const { pool, languages } = engines.ocr;
    const codes = languages.parse(language);
    const inputPath = await resolveInputPath(paths, input);
    const outputPath = output === undefined ? undefined : await resolveOutputPath(paths, output);
    const started = Date.now();
    const result = await pool.job(control, async (tasks, deadline) => {
      const recognize = async () => {
        const langPath = await languages.prepare(codes);
        const at = deadline.at - deadlineMargin(deadline.limitMs);
        return tasks.recognize({ input: inputPath, codes, langPath, maxPixels: config.maxPixels, deadline: { at, limitSeconds: deadline.limitMs / 1000 } });
      };
      if (!outputPath) return recognize();
      return withStagedOutputs(paths, [outputPath], async ([temp]) => {
        const recognized = await recognize();
        await writeStaged(temp as FileRef, recognized.text, outputPath);
        return recognized;
      });
    });
    return {
      message: `Recognised ${[...result.text].filter((c) => c.trim() !== '').length} character(s)`,
      text: result.text,
      ...(outputPath && { outputPath }),
      data: { language: codes.join('+'), confidence: result.confidence, durationMs: Date.now() - started },
    };
  },
});

export const OCR_OPERATIONS = [ocr];
