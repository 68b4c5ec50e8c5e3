// The response envelope: `{success:true, message, ...}` or `{success:false, error, code}`.

import type { Context } from 'hono';
import { toApiError, type ApiError } from '../errors.js';
import type { OperationResult } from '../operations/operation.js';

/** 202 answers an async request whose job was accepted. */
export type SuccessStatus = 200 | 202;

export function successBody(body: OperationResult): Record<string, unknown> {
  const { success = true, message, outputPath, text, data } = body;
  return { success, message, ...(outputPath !== undefined && { outputPath }), ...(text !== undefined && { text }), ...(data !== undefined && { data }) };
}

export function errorBody(apiError: ApiError): Record<string, unknown> {
  return { success: false, error: apiError.message, code: apiError.code };
}

export function successResponse(c: Context, body: OperationResult, status: SuccessStatus = 200): Response {
  return c.json(successBody(body), status);
}

export function errorResponse(c: Context, err: unknown): Response {
  const apiError = toApiError(err);
  if (apiError.code === 'INTERNAL_ERROR' && err !== apiError) {
    process.stderr.write(`docwasm: internal error: ${String((err as Error)?.stack ?? err)}\n`);
  }
  c.set('errorCode', apiError.code);
  for (const [name, value] of Object.entries(apiError.headers)) c.header(name, value);
  return c.json(errorBody(apiError), apiError.status);
}
