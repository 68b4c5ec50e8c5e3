// PDF operations on the configured PdfEngine (mupdf or cpdf) in the PDF worker pool.

import path from 'node:path';
import { z } from 'zod';
import { ApiError } from '../../core/errors.js';
import { fileStem, resolveInputWithHead, resolveOutputPath, type PathPolicy } from '../files/paths.js';
import { mapBounded } from '../jobs/bounded.js';
import type { FileRef } from '../../core/file-ref.js';
import { sniffType } from '../../core/sniff.js';
import { defineOperation } from './operation.js';
import { engineText, filePath, filePaths, pageRanges, password } from './fields.js';

export const merge = defineOperation({
  id: 'pdf/merge',
  engines: ['pdf'],
  writes: 'files',
  idempotent: false,
  summary: 'Merge PDFs in order into one file',
  input: z.object({ files: filePaths('PDF'), output: filePath, password: password.optional().describe('password tried on each encrypted input') }),
  run: async ({ files, output, password: pw }, { engines, paths, ...control }) => {
    const inputs = await resolvePdfInputs(paths, files);
    const outputPath = await resolveOutputPath(paths, output);
    const { pages } = await engines.pdf.jobWriting(control, paths, [outputPath], (tasks, [output]) => tasks.merge({ inputs, output, password: pw }));
    control.progress?.(files.length, files.length);
    return { message: `Merged ${files.length} PDF(s) into ${pages} page(s)`, outputPath, data: { pages, files: files.length } };
  },
});

export const split = defineOperation({
  id: 'pdf/split',
  engines: ['pdf'],
  writes: 'files',
  idempotent: true,
  summary: 'Split a PDF into one file per page item',
  input: z.object({
    input: filePath,
    pages: pageRanges,
    outputDir: filePath.optional().describe("where the parts go (default: the input's directory)"),
    password: password.optional(),
  }),
  run: async ({ input, pages: ranges, outputDir, password: pw }, { engines, paths, ...control }) => {
    const inputRef = await resolvePdfInput(paths, input);
    const dir = outputDir === undefined ? path.dirname(inputRef.path) : await resolveOutputPath(paths, outputDir);
    const outputs = uniqueOutputs(ranges.map((r) => path.join(dir, `${fileStem(inputRef.path)}_${r.label}.pdf`)));
    await engines.pdf.jobWriting(control, paths, outputs, (tasks, files) => tasks.split({ input: inputRef, ranges, outputs: files, password: pw }));
    return { message: `Split into ${outputs.length} file(s)`, outputPath: dir, data: { files: outputs } };
  },
});

export const encrypt = defineOperation({
  id: 'pdf/encrypt',
  engines: ['pdf'],
  writes: 'files',
  idempotent: false,
  summary: 'Encrypt a PDF with a password (AES-256 by default)',
  input: z
    .object({
      input: filePath,
      output: filePath,
      password: engineText()
        .min(1, 'must not be empty')
        .describe('user password needed to open the output (aes256: at most 127 bytes as UTF-8; aes128: at most 32 printable ASCII characters)'),
      ownerPassword: engineText().min(1).optional().describe('owner password; defaults to the user password'),
      algorithm: z.enum(['aes256', 'aes128']).default('aes256'),
      inputPassword: password.optional().describe('password of the input, when it is already encrypted'),
    })
    .superRefine(({ algorithm, password: user, ownerPassword }, context) => {
      for (const [field, value] of [
        ['password', user],
        ['ownerPassword', ownerPassword],
      ] as const) {
        const problem = value === undefined ? undefined : encryptionPasswordProblem(algorithm, value);
        if (problem) context.addIssue({ code: 'custom', path: [field], message: problem });
      }
    }),
  run: async ({ input, output, password: userPassword, ownerPassword, algorithm, inputPassword }, { engines, paths, ...control }) => {
    const inputRef = await resolvePdfInput(paths, input);
    const outputPath = await resolveOutputPath(paths, output);
    const task = (temp: FileRef) => ({
      input: inputRef,
      output: temp,
      userPassword,
      ownerPassword: ownerPassword ?? userPassword,
      algorithm,
      password: inputPassword,
    });
    await engines.pdf.jobWriting(control, paths, [outputPath], (tasks, [output]) => tasks.encrypt(task(output)));
    return { message: `Encrypted with ${algorithm.toUpperCase()}`, outputPath, data: { algorithm } };
  },
});

export const PDF_OPERATIONS = [merge, split, encrypt];

/**
 * What keeps a password from being used exactly as given (undefined: nothing). AES-256 (PDF 2.0)
 * uses the first 127 bytes of the UTF-8 password and every engine cuts it there; AES-128 uses
 * the first 32 bytes, and engines and readers disagree on how non-ASCII characters become bytes
 * (mupdf maps them to PDFDocEncoding and drops those it lacks, cpdf writes UTF-8).
 */
function encryptionPasswordProblem(algorithm: 'aes256' | 'aes128', value: string): string | undefined {
  if (algorithm === 'aes256') {
    return Buffer.byteLength(value) > AES256_PASSWORD_BYTES
      ? `must be at most ${AES256_PASSWORD_BYTES} bytes as UTF-8: AES-256 PDF encryption ignores the rest`
      : undefined;
  }
  if (!/^[\x20-\x7e]*$/.test(value)) return 'must be printable ASCII for aes128 (its older key derivation cannot take other characters exactly); use aes256';
  return value.length > AES128_PASSWORD_BYTES ? `must be at most ${AES128_PASSWORD_BYTES} characters for aes128 (it ignores the rest); use aes256` : undefined;
}

const AES256_PASSWORD_BYTES = 127;
const AES128_PASSWORD_BYTES = 32;

export async function resolvePdfInput(paths: PathPolicy, raw: string): Promise<FileRef> {
  const { ref, head } = await resolveInputWithHead(paths, raw, 1024);
  if (sniffType(head) !== 'pdf') throw new ApiError('INVALID_INPUT', `Not a PDF file: ${raw}`);
  return ref;
}

function resolvePdfInputs(paths: PathPolicy, files: readonly string[]): Promise<FileRef[]> {
  return mapBounded(files, (file) => resolvePdfInput(paths, file));
}

/** "1,1" would name the same file twice; one output per distinct item is enough. */
function uniqueOutputs(outputs: string[]): string[] {
  if (new Set(outputs).size !== outputs.length) {
    throw new ApiError('INVALID_PAGE_RANGE', 'The same page item appears twice');
  }
  return outputs;
}
