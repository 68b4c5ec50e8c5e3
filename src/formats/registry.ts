// The service's half of the format registry (MarkItDown's `register_converter`): the converters
// of `convert`, tried by priority, the first that accepts an input converting it. The table of
// input formats (core/input-formats.ts) says what a file is; the converters say what it becomes.
// The matrix — its text in convert's `format` description, docs/api.md's table, the pipeline's
// file flows and every UNSUPPORTED_CONVERSION message — is the union of the converters' targets,
// and each input is judged against it once, here, before any work.

import { ApiError } from '../../core/errors.js';
import { INPUT_FORMATS, type InputFormat } from '../../core/input-formats.js';
import type { OperationContext } from '../operations/operation.js';
import { failedItem, type Converter, type ConvertedItem, type ConvertItem, type ConvertTarget } from './converter.js';
import { editableConverter } from './editable.js';
import { markdownConverter } from './markdown.js';
import { officeConverter } from './office.js';
import { ownCodeConverters } from './own-code.js';
import { inputInfoOf } from './stream-info.js';
import { mapBounded } from '../jobs/bounded.js';

/** By priority (a stable sort keeps this order among equals): specific formats first. */
/** Formats with code of their own come from their declarations (core/input-formats.ts `ownCode`): none is listed here. */
const CONVERTERS: readonly Converter[] = [...ownCodeConverters(), editableConverter, officeConverter, markdownConverter].sort(
  (a, b) => a.priority - b.priority,
);

/** The formats `convert` makes from a file of this format, from every converter that takes it. */
export function convertTargets(format: InputFormat): readonly string[] {
  return [...new Set(CONVERTERS.flatMap((c) => c.targets(format)))];
}

interface MatrixRow {
  /** Every extension of the kinds in the row, in the table's order. */
  extensions: string[];
  formats: readonly string[];
}

/** The kinds that convert to the same formats, one row each, in the order the table first names them. */
export function convertMatrix(): MatrixRow[] {
  const rows = new Map<string, MatrixRow>();
  for (const format of INPUT_FORMATS) {
    const formats = convertTargets(format);
    const key = formats.join(',');
    const row = rows.get(key) ?? { extensions: [], formats };
    row.extensions.push(...format.extensions);
    rows.set(key, row);
  }
  // Office rows first, as users look for them; what only reads to Markdown last.
  return [...rows.values()].sort((a, b) => b.formats.length - a.formats.length);
}

/** The matrix in one line: ".docx/.odt/… → pdf, docx, …; …". */
export function describeMatrix(): string {
  return convertMatrix()
    .map((row) => `${row.extensions.map((e) => `.${e}`).join('/')} → ${row.formats.join(', ')}`)
    .join('; ');
}

/** The input formats `convert` makes `target` from. */
export const formatsConvertedTo = (target: string): InputFormat[] => INPUT_FORMATS.filter((f) => convertTargets(f).includes(target));

interface Routed {
  converter: Converter;
  /** The error to answer for this item (its refusal), or undefined: the converter takes it. */
  refused: unknown;
}

/** The converter of an item, and whether it refuses it: the matrix, judged once. */
function route(item: ConvertItem, target: string): Routed {
  const converter = CONVERTERS.find((c) => c.accepts(item.info, target)) as Converter;
  return { converter, refused: converter.refusal(item.info, target, convertTargets) };
}

/** One file of `convert`: its answer's path and `data`, or its error thrown. */
export async function convertOne(
  input: string,
  output: string,
  target: ConvertTarget,
  context: OperationContext,
): Promise<{ outputPath: string; data: Record<string, unknown> }> {
  const item = { input, output, info: await inputInfoOf(context.paths, input) };
  const { converter, refused } = route(item, target.format);
  if (refused !== undefined) throw refused;
  const [result] = await converter.convert([item], target, context);
  if (!result?.success) throw new ApiError((result?.code as ApiError['code'] | undefined) ?? 'INTERNAL_ERROR', result?.error ?? 'No conversion result');
  return { outputPath: result.outputPath as string, data: { format: target.format, ...result.data, backend: await converter.backend(context) } };
}

/**
 * Files of `convert/batch`: each to its converter, those of one converter in one call (the office
 * backend's batch); one result per item, in input order. A refused file fails alone, at once.
 */
export async function convertAll(
  files: readonly { input: string; output: string }[],
  target: ConvertTarget,
  context: OperationContext,
): Promise<ConvertedItem[]> {
  const items = await mapBounded(files, async (file) => ({ ...file, info: await inputInfoOf(context.paths, file.input) }));
  const results: (ConvertedItem | undefined)[] = items.map(() => undefined);
  const groups = new Map<Converter, number[]>();
  for (const [index, item] of items.entries()) {
    const { converter, refused } = route(item, target.format);
    if (refused !== undefined) results[index] = failedItem(item.input, refused);
    else if (groups.has(converter)) groups.get(converter)?.push(index);
    else groups.set(converter, [index]);
  }
  let done = items.length - [...groups.values()].reduce((sum, g) => sum + g.length, 0);
  context.progress?.(done, items.length);
  for (const [converter, indexes] of groups) {
    const before = done;
    const control = { ...context, progress: (finished: number) => context.progress?.(before + finished, items.length) };
    const made = await converter.convert(
      indexes.map((i) => items[i] as ConvertItem),
      target,
      control,
    );
    for (const [k, index] of indexes.entries()) results[index] = made[k];
    done += indexes.length;
  }
  return results as ConvertedItem[];
}
