// File-system errors as the contract's codes, in one place for the main thread (src/files) and
// the engine workers (wasm/shared/io.ts), so that the same failure reads the same everywhere.

import { ApiError } from './errors.js';

export interface FileUse {
  role: 'input' | 'output';
  /** The path as the message shows it; none for a temp file whose name means nothing to the user. */
  shown?: string;
  /**
   * Opened with O_NOFOLLOW as a file the policy checked: ELOOP there means a link was swapped
   * in after the check. Elsewhere ELOOP is a loop of links in the path itself.
   */
  checked?: boolean;
}

/** Errors that say the input is not there (or not a file that can be opened as one). */
const INPUT_ABSENT = new Set(['ENOENT', 'ENOTDIR', 'EISDIR', 'ENXIO', 'ELOOP']);

/** A checked file was replaced before its use (a link or another file swapped in). */
export function swappedError(shown: string): ApiError {
  return new ApiError('PATH_NOT_ALLOWED', `${shown} changed between its check and its use (a link swapped in?); refused`);
}

/** Maps an error met while opening, reading or writing a file to the contract's code. */
export function fileError(err: unknown, use: FileUse): ApiError {
  if (err instanceof ApiError) return err;
  const errno = (err as NodeJS.ErrnoException | undefined)?.code;
  const named = use.shown === undefined ? `the ${use.role}` : `${use.role} ${use.shown}`;
  if (errno === 'ELOOP' && use.checked) return swappedError(use.shown ?? `The ${use.role}`);
  if (use.role === 'output') return new ApiError('OUTPUT_NOT_WRITABLE', `Cannot write ${named} (${errno ?? 'write error'})`);
  if (errno !== undefined && INPUT_ABSENT.has(errno)) return new ApiError('FILE_NOT_FOUND', `Input file not found: ${use.shown ?? ''}`.trim());
  return new ApiError('INVALID_INPUT', `Cannot read ${named} (${errno ?? 'read error'})`);
}
