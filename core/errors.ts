// The one error type of docwasm: every failure carries a contract code, and the code alone
// decides the HTTP status. Worker threads send errors back as plain `{code, message}`. Every
// door turns what it caught into its answer through reportFailure.

import { logInternalError } from './log.js';

export const STATUS_BY_CODE = {
  BAD_REQUEST: 400,
  INVALID_JSON: 400,
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN_HOST: 403,
  FORBIDDEN_ORIGIN: 403,
  PATH_NOT_ALLOWED: 403,
  FILE_NOT_FOUND: 404,
  NOT_FOUND: 404,
  JOB_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  OUTPUT_NOT_WRITABLE: 409,
  PAYLOAD_TOO_LARGE: 413,
  TOO_LARGE: 413,
  UNSUPPORTED_CONTENT_TYPE: 415,
  UNSUPPORTED_CONVERSION: 422,
  UNSUPPORTED_FORMAT: 422,
  INVALID_INPUT: 422,
  PASSWORD_REQUIRED: 422,
  INVALID_PAGE_RANGE: 422,
  UNSUPPORTED_LANGUAGE: 422,
  INTERNAL_ERROR: 500,
  BACKEND_UNAVAILABLE: 503,
  BUSY: 503,
  TIMEOUT: 504,
} as const;

export type ErrorCode = keyof typeof STATUS_BY_CODE;
export type HttpErrorStatus = (typeof STATUS_BY_CODE)[ErrorCode];

/** What each code means, for people: the source of docs/errors.md and the OpenAPI descriptions. */
export const MEANING_BY_CODE: Readonly<Record<ErrorCode, string>> = {
  BAD_REQUEST: 'malformed HTTP: no or unparseable `Host`, bad header syntax, headers over 16 KiB',
  INVALID_JSON: 'the body is not a JSON object',
  VALIDATION_ERROR:
    "a field is missing, mistyped or out of range; unknown `format`; ambiguous resize; duplicate batch outputs (unknown extra fields are ignored, and named in the success answer's `warnings`)",
  UNAUTHORIZED: 'a token is configured and the bearer token is missing or wrong',
  FORBIDDEN_HOST: "the `Host` header is not the service's address",
  FORBIDDEN_ORIGIN: 'the request carries an `Origin` that is not allowed',
  PATH_NOT_ALLOWED: 'a path is outside `--allow-dir`, or a checked file was swapped (a link) before its use',
  FILE_NOT_FOUND: 'an input does not exist or is not a regular file',
  NOT_FOUND: 'unknown route',
  JOB_NOT_FOUND: 'unknown or expired job id',
  METHOD_NOT_ALLOWED: 'wrong method on a known route (`Allow` says which)',
  REQUEST_TIMEOUT: 'the client did not send its request within `--headers-timeout` / `--request-timeout`',
  OUTPUT_NOT_WRITABLE: 'the output cannot be written (permissions, parent is a file, disk full, the path exists and is not a regular file, …)',
  PAYLOAD_TOO_LARGE: 'the JSON body is over 1 MiB',
  TOO_LARGE:
    "an input is over the file-size or pixel limit (decompression bombs), or its job went over a budget: decompressed bytes, pages, scans or frames, or an engine's memory ceiling",
  UNSUPPORTED_CONTENT_TYPE: 'a POST without `Content-Type: application/json`',
  UNSUPPORTED_CONVERSION: 'the input type cannot be converted to that format',
  UNSUPPORTED_FORMAT: 'an image format (by content or output extension) is not supported',
  INVALID_INPUT: 'the file exists but cannot be parsed',
  PASSWORD_REQUIRED: 'the input is encrypted and no `password` (or a wrong one) was given',
  INVALID_PAGE_RANGE: '`pages` is malformed, reversed, zero, repeated or beyond the last page',
  UNSUPPORTED_LANGUAGE: 'OCR language data is not installed (the message lists what is)',
  INTERNAL_ERROR: 'anything else (no stack trace is ever sent)',
  BACKEND_UNAVAILABLE:
    'no LibreOffice found (the message says how to install it or use `--soffice`); or a PDF operation the cpdf engine does not do (use `--pdf-engine mupdf`)',
  BUSY: "the engine's queue is full; `Retry-After` says when to retry",
  TIMEOUT: 'the job ran past `--timeout`; its worker or process was replaced',
};

export const ERROR_CODES = Object.keys(STATUS_BY_CODE) as ErrorCode[];

/** Seconds a client should wait before retrying a BUSY answer. */
const RETRY_AFTER_SECONDS = '2';

/** A failure that the API reports as `{success:false, error, code}`. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  /** Extra response headers (`Allow`, `Retry-After`). */
  readonly headers: Readonly<Record<string, string>>;

  constructor(code: ErrorCode, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    // The contract promises Retry-After with every BUSY, whichever engine refused the job.
    this.headers = code === 'BUSY' && !headers['Retry-After'] ? { ...headers, 'Retry-After': RETRY_AFTER_SECONDS } : headers;
  }

  get status(): HttpErrorStatus {
    return STATUS_BY_CODE[this.code];
  }
}

/** The plain shape an error takes when it crosses a thread boundary. */
export interface ErrorPayload {
  code: ErrorCode;
  message: string;
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(STATUS_BY_CODE, value);
}

/** Turns anything thrown into an ApiError; unknown failures become INTERNAL_ERROR. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (isErrorPayload(err)) return new ApiError(err.code, err.message);
  return new ApiError('INTERNAL_ERROR', 'Internal error while processing the request');
}

/**
 * The contract error a door answers for `err`. An unexpected failure becomes INTERNAL_ERROR,
 * whose answer hides the cause, so it is logged here with its stack, once, by the door that
 * answers. Errors the engines raise as INTERNAL_ERROR were logged where they happened.
 */
export function reportFailure(err: unknown, context = 'internal error'): ApiError {
  const apiError = toApiError(err);
  const raisedAsContractError = err instanceof ApiError || isErrorPayload(err);
  if (apiError.code === 'INTERNAL_ERROR' && !raisedAsContractError) logInternalError(context, err);
  return apiError;
}

export function isErrorPayload(value: unknown): value is ErrorPayload {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as { code?: unknown; message?: unknown };
  return isErrorCode(v.code) && typeof v.message === 'string';
}
