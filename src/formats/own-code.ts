// The converters of formats that convert by code of their own (core/input-formats.ts `ownCode`):
// one each, made here from the format's declaration. Which inputs it takes, what it makes of
// them and why it refuses a pair are the same for every such format, so they are written once;
// the conversion is the format's module, `src/formats/kinds/<kind>.ts`, loaded by the kind's name
// on first use. A new format of this sort is its declaration and its module: no list to add to.

import { ApiError } from '../../core/errors.js';
import { INPUT_FORMATS, type InputFormat } from '../../core/input-formats.js';
import type { Converter } from './converter.js';
import type { InputInfo } from './stream-info.js';

/** What a format's module exports. */
export interface FormatModule {
  /** Its files converted to the format asked for, which is one of its declared targets. */
  convert: Converter['convert'];
}

/** The converter of every format declared with code of its own, in the table's order. */
export const ownCodeConverters = (): Converter[] => INPUT_FORMATS.flatMap((format) => (format.ownCode ? [ownCodeConverter(format)] : []));

function ownCodeConverter(format: InputFormat): Converter {
  const { kind } = format;
  const targets = format.ownCode?.targets ?? [];
  const isNamed = (info: InputInfo) => info.named?.kind === kind;
  return {
    priority: 0,
    backend: () => Promise.resolve(`docwasm-${kind}`),
    targets: (asked) => (asked.kind === kind ? targets : []),
    /** Judged by content, except for names whose extension says they are another kind docwasm reads (those keep their own checks and messages). */
    accepts: (info) => isNamed(info) || (info.named === undefined && info.content?.kind === kind),
    refusal: (info, target) => {
      if (info.openError !== undefined) return info.openError;
      if (info.content?.kind !== kind) return new ApiError('INVALID_INPUT', `${info.shownName} is not ${format.mismatch ?? format.description}`);
      if (!targets.includes(target))
        return new ApiError(
          'UNSUPPORTED_CONVERSION',
          `Cannot convert .${format.extensions[0]} to ${target}; .${format.extensions[0]} converts only to ${targets.join(', ')}`,
        );
      return undefined;
    },
    convert: async (items, target, context) => (await moduleOf(kind)).convert(items, target, context),
  };
}

/** A format's module, by its kind: the table's word, never a caller's. */
async function moduleOf(kind: string): Promise<FormatModule> {
  const module = (await import(/* @vite-ignore */ `./kinds/${kind}.js`)) as Partial<FormatModule>;
  if (typeof module.convert !== 'function') throw new Error(`src/formats/kinds/${kind}.ts exports no convert`);
  return { convert: module.convert };
}
