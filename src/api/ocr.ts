// OCR capability: /api/ocr on tesseract.js with the language data installed as npm packages
// (eng, chi_sim) plus the --tessdata dir. Runs in the shared EnginePool policy (BUSY,
// TIMEOUT, recycling); languages are validated here, before any engine starts.

import { statSync } from 'node:fs';
import fs from 'node:fs/promises';
import { z } from 'zod';
import type { Capability, ServiceDeps } from '../capability.js';
import { outputError, withStagedOutputs } from '../files/atomic.js';
import { resolveInputPath, resolveOutputPath } from '../files/paths.js';
import { postRoute } from '../http/route.js';
import { createEnginePool } from '../jobs/engine-pool.js';
import { packageVersion } from '../version.js';
import { DEFAULT_LANGUAGE, LanguageStore } from '../ocr/language-store.js';
import { discoverLanguages } from '../ocr/languages.js';
import type { RecognizeResult, RecognizeTask } from '../../wasm/ocr/worker.js';
import { filePath } from './schemas.js';

/** Time kept back from the pool's timeout so the worker answers TIMEOUT itself and stays warm. */
const deadlineMargin = (timeoutMs: number) => Math.min(1_000, timeoutMs / 10);

const ocrBody = z.object({
  input: filePath.describe('image to read (JPEG, PNG, WebP, AVIF, BMP, GIF, TIFF); absolute, or relative to the base dir'),
  language: z
    .string()
    .min(1)
    .max(200)
    .default(DEFAULT_LANGUAGE)
    .describe('installed language codes joined by "+", in priority order (see GET /api/health → ocr.languages)'),
  output: filePath.optional().describe('also write the text to this file (UTF-8); absolute, or relative to the base dir'),
});

export function createOcrCapability({ config, paths }: ServiceDeps): Capability {
  if (config.tessdata && !isDirectory(config.tessdata)) {
    process.stderr.write(`docwasm: --tessdata ${config.tessdata} is not a readable directory; only the bundled OCR languages are available\n`);
  }
  const languages = new LanguageStore(discoverLanguages(config.tessdata));
  const pool = createEnginePool(config, 'ocr');
  const engineVersion = packageVersion('tesseract.js');

  return {
    name: 'ocr',
    health: () => ({ available: languages.codes.length > 0, engine: 'tesseract.js', version: engineVersion, languages: languages.codes }),
    close: async () => {
      await pool.close();
      await languages.close();
    },
    routes: [
      postRoute({
        path: '/api/ocr',
        summary: 'Read the text of an image (OCR)',
        body: ocrBody,
        handle: async ({ input, language, output }) => {
          const codes = languages.parse(language);
          const inputPath = await resolveInputPath(paths, input);
          const outputPath = output === undefined ? undefined : await resolveOutputPath(paths, output);
          pool.assertCapacity();
          const started = Date.now();
          const run = async (): Promise<RecognizeResult> => {
            const langPath = await languages.prepare(codes);
            const deadline = { at: Date.now() + config.timeoutMs - deadlineMargin(config.timeoutMs), limitSeconds: config.timeoutMs / 1000 };
            const task: RecognizeTask = { input: inputPath, codes, langPath, maxPixels: config.maxPixels, deadline };
            return pool.run<RecognizeTask, RecognizeResult>('recognize', task);
          };
          const result = outputPath
            ? await withStagedOutputs([outputPath], async ([temp]) => {
                const recognized = await run();
                await fs.writeFile(temp as string, recognized.text, 'utf8').catch((err: unknown) => {
                  throw outputError(err, outputPath);
                });
                return recognized;
              })
            : await run();
          const durationMs = Date.now() - started;
          return {
            message: `Recognised ${[...result.text].filter((c) => c.trim() !== '').length} character(s)`,
            text: result.text,
            ...(outputPath && { outputPath }),
            data: { language: codes.join('+'), confidence: result.confidence, durationMs },
          };
        },
      }),
    ],
  };
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
