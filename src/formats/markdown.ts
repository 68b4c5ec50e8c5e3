// Every input `read` reads, converted to Markdown (`md`) by the readers: the same path as
// `/api/read`, one file per engine thread at a time.

import { ApiError } from '../../core/errors.js';
import { readableExtensions } from '../../core/input-formats.js';
import { mapBounded } from '../jobs/bounded.js';
import { readInputToFile } from '../operations/read.js';
import { failedItem, type ConvertedItem, type ConvertItem, type Converter } from './converter.js';

const readable = () =>
  readableExtensions()
    .map((e) => `.${e}`)
    .join(', ');

export const markdownConverter: Converter = {
  priority: 10,
  backend: () => Promise.resolve('docwasm-reader'),
  targets: () => ['md'],
  accepts: (_info, target) => target === 'md',
  refusal: ({ extension }) =>
    readableExtensions().includes(extension)
      ? undefined
      : new ApiError('UNSUPPORTED_CONVERSION', `Cannot read .${extension} as Markdown; readable: ${readable()}`),
  convert: (items, _target, context) => {
    let done = 0;
    const readOne = async ({ input, output, info }: ConvertItem): Promise<ConvertedItem> => {
      try {
        const { outputPath } = await readInputToFile(input, output, context, info.openError === undefined ? info : undefined);
        return { input, success: true, outputPath };
      } catch (err) {
        return failedItem(input, err);
      } finally {
        context.progress?.(++done, items.length);
      }
    };
    // One file per engine thread at a time: a batch of scans must not fill the OCR queue.
    return mapBounded(items, readOne, Math.max(1, context.config.workers));
  },
};
