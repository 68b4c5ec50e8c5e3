// The response envelope: `{success:true, message, ...}` or `{success:false, error, code}`.

import type { Context } from 'hono';
import { toApiError } from '../errors.js';
import { successEnvelope } from '../operations/envelope.js';
import type { OperationResult } from '../operations/operation.js';

export function successResponse(c: Context, body: OperationResult): Response {
  return c.json(successEnvelope(body), 200);
}

export function errorResponse(c: Context, err: unknown): Response {
  const apiError = toApiError(err);
  if (apiError.code === 'INTERNAL_ERROR' && err !== apiError) {
    process.stderr.write(`docwasm: internal error: ${String((err as Error)?.stack ?? err)}\n`);
  }
  c.set('errorCode', apiError.code);
  for (const [name, value] of Object.entries(apiError.headers)) c.header(name, value);
  return c.json({ success: false, error: apiError.message, code: apiError.code }, apiError.status);
}
