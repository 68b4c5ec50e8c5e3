// PDF capability: /api/pdf/merge, /api/pdf/split, /api/pdf/encrypt on the configured PdfEngine.

import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { Capability, ServiceDeps } from '../capability.js';
import { ApiError } from '../errors.js';
import { fileStem, resolveInputPath, resolveOutputPath, type PathPolicy } from '../files/paths.js';
import { readHead, sniffType } from '../shared/sniff.js';
import { postRoute } from '../http/route.js';
import { createEnginePool } from '../jobs/engine-pool.js';
import { packageVersion } from '../version.js';
import { parsePageRanges } from '../shared/page-ranges.js';
import type { EncryptTask, MergeTask, SplitTask } from '../../wasm/pdf/worker.js';
import { filePath } from './schemas.js';

const mergeBody = z.object({
  files: z.array(filePath).min(1, 'needs at least one PDF'),
  output: filePath,
});

const splitBody = z.object({
  input: filePath,
  pages: z.string().min(1).describe('comma-separated items, each N or N-M (1-based)'),
  outputDir: filePath.optional(),
});

const encryptBody = z.object({
  input: filePath,
  output: filePath,
  password: z.string().min(1, 'must not be empty').describe('user password needed to open the output'),
  ownerPassword: z.string().min(1).optional().describe('owner password; defaults to the user password'),
  algorithm: z.enum(['aes256', 'aes128']).default('aes256'),
});

export function createPdfCapability({ config, paths }: ServiceDeps): Capability {
  const pool = createEnginePool(config, 'pdf', { maxOldGenerationSizeMb: 4096, workerData: { engine: config.pdfEngine } });
  const engineVersion = packageVersion(config.pdfEngine === 'cpdf' ? 'coherentpdf' : 'mupdf');

  return {
    name: 'pdf',
    health: () => ({ available: true, engine: config.pdfEngine, version: engineVersion }),
    close: () => pool.close(),
    routes: [
      postRoute({
        path: '/api/pdf/merge',
        summary: 'Merge PDFs in order into one file',
        body: mergeBody,
        handle: async ({ files, output }) => {
          const inputs = await Promise.all(files.map((file) => resolvePdfInput(paths, file)));
          const outputPath = await resolveOutputPath(paths, output);
          const recycleAfter = (await totalBytes(inputs)) > HEAVY_JOB_BYTES;
          const { pages } = await pool.runToOutputs<MergeTask, { pages: number }>('merge', [outputPath], ([temp]) => ({ inputs, output: temp as string }), { recycleAfter });
          return { message: `Merged ${files.length} PDF(s) into ${pages} page(s)`, outputPath, data: { pages, files: files.length } };
        },
      }),
      postRoute({
        path: '/api/pdf/split',
        summary: 'Split a PDF into one file per page item',
        body: splitBody,
        handle: async ({ input, pages, outputDir }) => {
          const inputPath = await resolvePdfInput(paths, input);
          const ranges = parsePageRanges(pages);
          const dir = outputDir === undefined ? path.dirname(inputPath) : await resolveOutputPath(paths, outputDir);
          const outputs = uniqueOutputs(ranges.map((r) => path.join(dir, `${fileStem(inputPath)}_${r.label}.pdf`)));
          const recycleAfter = (await totalBytes([inputPath])) > HEAVY_JOB_BYTES;
          await pool.runToOutputs<SplitTask, { files: number }>('split', outputs, (temps) => ({ input: inputPath, ranges, outputs: temps }), { recycleAfter });
          return { message: `Split into ${outputs.length} file(s)`, outputPath: dir, data: { files: outputs } };
        },
      }),
      postRoute({
        path: '/api/pdf/encrypt',
        summary: 'Encrypt a PDF with a password (AES-256 by default)',
        body: encryptBody,
        handle: async ({ input, output, password, ownerPassword, algorithm }) => {
          const inputPath = await resolvePdfInput(paths, input);
          const outputPath = await resolveOutputPath(paths, output);
          const task = (temp: string): EncryptTask => ({ input: inputPath, output: temp, userPassword: password, ownerPassword: ownerPassword ?? password, algorithm });
          const recycleAfter = (await totalBytes([inputPath])) > HEAVY_JOB_BYTES;
          await pool.runToOutputs<EncryptTask, object>('encrypt', [outputPath], ([temp]) => task(temp as string), { recycleAfter });
          return { message: `Encrypted with ${algorithm.toUpperCase()}`, outputPath, data: { algorithm } };
        },
      }),
    ],
  };
}

/** Jobs on inputs this large grow the worker's WASM heap for good: replace the workers afterwards. */
const HEAVY_JOB_BYTES = 64 * 1024 * 1024;

async function totalBytes(files: readonly string[]): Promise<number> {
  const sizes = await Promise.all(files.map(async (file) => (await fs.stat(file)).size));
  return sizes.reduce((sum, size) => sum + size, 0);
}

async function resolvePdfInput(paths: PathPolicy, raw: string): Promise<string> {
  const resolved = await resolveInputPath(paths, raw);
  if (sniffType(await readHead(resolved, 1024)) !== 'pdf') throw new ApiError('INVALID_INPUT', `Not a PDF file: ${raw}`);
  return resolved;
}

/** "1,1" would name the same file twice; one output per distinct item is enough. */
function uniqueOutputs(outputs: string[]): string[] {
  if (new Set(outputs).size !== outputs.length) {
    throw new ApiError('INVALID_PAGE_RANGE', 'The same page item appears twice');
  }
  return outputs;
}
