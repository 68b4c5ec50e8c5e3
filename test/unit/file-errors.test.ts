import { describe, expect, it } from 'vitest';
import { ApiError } from '../../core/errors.js';
import { fileError } from '../../core/file-errors.js';

const errno = (code: string) => Object.assign(new Error(code), { code });

describe('fileError: one errno → code mapping for the main thread and the workers', () => {
  it('says a link was swapped in only for a checked file opened without following links', () => {
    const swapped = fileError(errno('ELOOP'), { role: 'input', shown: 'a.pdf', checked: true });
    expect(swapped).toMatchObject({ code: 'PATH_NOT_ALLOWED', message: 'a.pdf changed between its check and its use (a link swapped in?); refused' });
    expect(fileError(errno('ELOOP'), { role: 'output', shown: 'b.pdf', checked: true }).message).toBe(swapped.message.replace('a.pdf', 'b.pdf'));
    // Unchecked, ELOOP is a loop of links in the path itself.
    expect(fileError(errno('ELOOP'), { role: 'input', shown: 'a.pdf' }).code).toBe('FILE_NOT_FOUND');
    expect(fileError(errno('ELOOP'), { role: 'output', shown: 'b.pdf' }).code).toBe('OUTPUT_NOT_WRITABLE');
  });

  it('maps inputs that are not there to FILE_NOT_FOUND and other read failures to INVALID_INPUT', () => {
    for (const code of ['ENOENT', 'ENOTDIR', 'EISDIR', 'ENXIO'])
      expect(fileError(errno(code), { role: 'input', shown: 'x' })).toMatchObject({ code: 'FILE_NOT_FOUND', message: 'Input file not found: x' });
    expect(fileError(errno('EIO'), { role: 'input', shown: 'x' })).toMatchObject({ code: 'INVALID_INPUT', message: 'Cannot read input x (EIO)' });
  });

  it('maps every output failure to OUTPUT_NOT_WRITABLE, naming the target or, for a temp file, none', () => {
    expect(fileError(errno('ENOSPC'), { role: 'output', shown: 'out.pdf' })).toMatchObject({
      code: 'OUTPUT_NOT_WRITABLE',
      message: 'Cannot write output out.pdf (ENOSPC)',
    });
    expect(fileError(errno('EACCES'), { role: 'output' }).message).toBe('Cannot write the output (EACCES)');
  });

  it('passes a contract error through unchanged', () => {
    const error = new ApiError('TOO_LARGE', 'big');
    expect(fileError(error, { role: 'input', shown: 'x' })).toBe(error);
  });
});
