// Field schemas shared by the operations: validated once, here, at the edge.

import { z } from 'zod';
import { extensionOf } from '../files/paths.js';
import { parsePageRanges } from '../../core/page-ranges.js';

/** Longest path accepted: resolving longer ones costs time for nothing (PATH_MAX on Linux). */
export const MAX_PATH_BYTES = 4096;
/** Most paths one request may name. */
export const MAX_PATHS = 10_000;

export const filePath = z
  .string()
  .min(1, 'must not be empty')
  .refine((value) => !value.includes('\0'), 'must not contain NUL characters')
  .refine((value) => Buffer.byteLength(value) <= MAX_PATH_BYTES, `must be at most ${MAX_PATH_BYTES} bytes`)
  .describe('absolute path, or relative to the base dir');

export const filePaths = (what: string) => z.array(filePath).min(1, `needs at least one ${what}`).max(MAX_PATHS, `at most ${MAX_PATHS} paths`);

export const quality = z.number().int().min(1).max(100);

/**
 * Text an engine takes as it is given. The engines take strings through C strings (mupdf's
 * option string, its string objects, its password checks): a NUL would end the text there (a
 * password "abc\u0000def" would encrypt with "abc"), and a lone surrogate half would become
 * U+FFFD on the way to UTF-8. Such text is refused here rather than cut or changed there.
 */
export const engineText = () =>
  z
    .string()
    .refine((value) => !value.includes('\0'), 'must not contain NUL characters (U+0000): the engine would cut the text there')
    .refine((value) => !LONE_SURROGATE.test(value), 'must be well-formed Unicode (it holds half of a surrogate pair)');

/** With the u flag a surrogate pair is one code point: only a lone half matches. */
const LONE_SURROGATE = /\p{Cs}/u;

/** C0 and C1 control characters, DEL: nothing a one-line text shows. */
export const CONTROL_CHARACTER = /\p{Cc}/u;
/** Control characters but tab, line feed and carriage return, and the noncharacters XML 1.0 cannot hold (XMP packets). */
export const NON_XML_CHARACTER = /(?![\t\n\r])[\p{Cc}\uFFFE\uFFFF]/u;

/** Which recogniser reads text in images: `auto`, PP-OCR (`paddle`) or `tesseract` (src/engines/ocr-engine.ts, resolveEngine). */
export const ocrEngine = z.enum(['auto', 'paddle', 'tesseract']).default('auto');

export const password = engineText().min(1, 'must not be empty').describe('password of an encrypted input PDF (user or owner password)');

/** `pages` as written ("1-3, 5"), parsed into ranges (INVALID_PAGE_RANGE when malformed or reversed). */
export const pageRanges = z
  .string()
  .min(1)
  .describe('comma-separated items, each N or N-M (1-based)')
  .transform((spec) => parsePageRanges(spec));

/** `pages` as an order ("3,1-2", "5-1"): descending ranges run backwards, repeats allowed. */
export const pageOrder = z
  .string()
  .min(1)
  .describe('comma-separated items, each N or N-M (1-based); "5-1" runs backwards; a page may repeat')
  .transform((spec) => parsePageRanges(spec, { allowDescending: true }));

/**
 * The format an output's extension names when it is one of `formats` (`out.PDF` → pdf): the one
 * inference of every door, for a `format` left out (convert over HTTP, CLI and MCP, pipeline steps).
 */
export function formatOfOutput(output: string, formats: readonly string[]): string | undefined {
  const extension = extensionOf(output);
  return formats.includes(extension) ? extension : undefined;
}
