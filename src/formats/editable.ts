// PDFs and images rebuilt as editable documents (docx, odt, xlsx) from their reading
// (src/operations/convert-editable.ts): which formats is the input table's word (`rebuiltAs`).

import { ApiError } from '../../core/errors.js';
import { EDITABLE_FORMATS, formatOfExtension, type EditableFormat, type InputFormat } from '../../core/input-formats.js';
import { convertEditable } from '../operations/convert-editable.js';
import { oneByOne, type Converter } from './converter.js';
import type { InputInfo } from './stream-info.js';

const isEditable = (format: string): format is EditableFormat => (EDITABLE_FORMATS as readonly string[]).includes(format);

export const editableConverter: Converter = {
  priority: 1,
  backend: () => Promise.resolve('docwasm-reader'),
  targets: (format) => format.rebuiltAs ?? [],
  /**
   * A PDF or an image, by content; a name that says so counts too (a damaged .pdf is then
   * INVALID_INPUT, not an unsupported type), as does a file that cannot be opened under such a
   * name (its own error follows). Markdown is read, not rebuilt.
   */
  accepts: (info, target) => target !== 'md' && (info.named?.rebuiltAs !== undefined || info.content?.rebuiltAs !== undefined),
  refusal: (info, target, matrix) => {
    if (info.openError !== undefined && info.named?.rebuiltAs !== undefined) return info.openError;
    return isEditable(target) ? undefined : unsupported(info, target, matrix);
  },
  convert: oneByOne(async ({ input, output, info }, { format, options }, context) => {
    const made = await convertEditable(input, output, format as EditableFormat, options ?? {}, context, info);
    return { outputPath: made.outputPath, data: { ...made.data } };
  }),
};

/** The matrix's own words: ".pdf converts to docx, odt, xlsx, md". */
function unsupported({ shownName, extension }: InputInfo, format: string, matrix: (format: InputFormat) => readonly string[]): ApiError {
  const kind = formatOfExtension(extension) ?? formatOfExtension('pdf');
  const targets = kind ? matrix(kind).join(', ') : '';
  return new ApiError(
    'UNSUPPORTED_CONVERSION',
    `Cannot convert ${shownName} to ${format}; ${kind?.extensions.includes(extension) ? `.${extension}` : 'a PDF'} converts to ${targets}`,
  );
}
