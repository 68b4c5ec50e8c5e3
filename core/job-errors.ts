// The contract's words for a job that ends before its work is done, one place for every engine
// (worker pools, the OCR engine inside its thread, LibreOffice): TIMEOUT when it ran past its
// limit, BUSY when the service is shutting down or the engine's queue is full. `detail` names
// what was under way (a file, a step) in brackets after the common sentence.

import { ApiError } from './errors.js';

export function timeoutError(engine: string, limitMs: number, detail = ''): ApiError {
  return new ApiError('TIMEOUT', `The ${engine} job ran longer than ${limitMs / 1000} s and was stopped${bracketed(detail)}`);
}

export function shuttingDownError(engine: string, detail = ''): ApiError {
  return new ApiError('BUSY', `The service is shutting down; the ${engine} job was not finished${bracketed(detail)}`);
}

export function queueFullError(engine: string): ApiError {
  return new ApiError('BUSY', `The ${engine} queue is full; retry later`);
}

const bracketed = (detail: string) => (detail ? ` (${detail})` : '');

/** A job that its caller cancelled: it ends with no output; not an error of the request. */
export class CancelledError extends Error {
  constructor() {
    super('The job was cancelled');
    this.name = 'CancelledError';
  }
}
