// What a converter of `convert` is (MarkItDown's DocumentConverter): it says which inputs it
// takes (`accepts`, from their stream info), what it makes of each input format (`targets`, the
// matrix is their union), why it refuses a pair (`refusal`: the matrix judged once, before any
// work) and converts the items it accepted. src/formats/registry.ts lists them with priorities.

import { toApiError } from '../../core/errors.js';
import type { InputFormat } from '../../core/input-formats.js';
import type { PdfaLevel } from '../../core/pdfa.js';
import { CancelledError } from '../../core/job-errors.js';
import type { EditableOptions } from '../operations/convert-editable.js';
import type { OperationContext } from '../operations/operation.js';
import type { InputInfo } from './stream-info.js';

/** One file of a request. */
export interface ConvertItem {
  /** The input as the user named it. */
  input: string;
  /** The output, unresolved (as named, or derived from the input's stem). */
  output: string;
  info: InputInfo;
}

/** What every file of a request becomes. */
export interface ConvertTarget {
  format: string;
  pdfa?: PdfaLevel | undefined;
  /** Opens an encrypted PDF, or an encrypted .docx/.xlsx/.pptx (src/document-checks/office-decrypt.ts). */
  password?: string | undefined;
  /** For PDFs and images rebuilt as editable documents. */
  options?: EditableOptions;
}

/** One item's outcome, as a batch answers it. */
export interface ItemResult {
  input: string;
  success: boolean;
  outputPath?: string;
  error?: string;
  code?: string;
}

/** An item's outcome with what a single conversion's answer adds to its `data`. */
export interface ConvertedItem extends ItemResult {
  data?: Record<string, unknown>;
}

export interface Converter {
  /** Sorted ascending; the first that accepts an input converts it (specific formats before generic ones). */
  priority: number;
  /** The `data.backend` of what it converted. */
  backend(context: OperationContext): Promise<string>;
  /** The formats it makes from a file of this input format; none: it does not take the format. */
  targets(format: InputFormat): readonly string[];
  /** Whether this input, asked for `target`, is its to convert (or to refuse). */
  accepts(info: InputInfo, target: string): boolean;
  /**
   * Why it cannot convert an input it accepted to `target` (the error to answer), or undefined.
   * `matrix` is the registry's: the formats `convert` makes of a format, from every converter.
   */
  refusal(info: InputInfo, target: string, matrix: (format: InputFormat) => readonly string[]): unknown;
  /** Converts the items it accepted and did not refuse; one result per item, in order, progress per item. */
  convert(items: readonly ConvertItem[], target: ConvertTarget, context: OperationContext): Promise<ConvertedItem[]>;
}

/** What a converter that takes one file at a time makes of it. */
interface Made {
  outputPath: string;
  data: Record<string, unknown>;
}

/**
 * A converter's `convert` from one that takes one file at a time: a file that fails fails alone.
 * A single file reports its own progress (pages); several report one step per file.
 */
export function oneByOne(convertOne: (item: ConvertItem, target: ConvertTarget, context: OperationContext) => Promise<Made>): Converter['convert'] {
  return async (items, target, context) => {
    const results: ConvertedItem[] = [];
    const each = items.length === 1 ? context : { ...context, progress: undefined };
    for (const [k, item] of items.entries()) {
      try {
        const made = await convertOne(item, target, each);
        results.push({ input: item.input, success: true, outputPath: made.outputPath, data: made.data });
      } catch (err) {
        results.push(failedItem(item.input, err));
      }
      if (items.length > 1) context.progress?.(k + 1, items.length);
    }
    return results;
  };
}

/** An item that failed, as a batch answers it; a cancelled job is not an item's failure. */
export function failedItem(input: string, err: unknown): ItemResult {
  if (err instanceof CancelledError) throw err;
  const e = toApiError(err);
  return { input, success: false, error: e.message, code: e.code };
}
