// The response envelope: `{success:true, message, ...}` or `{success:false, error, code}`.

import { STATUS_CODES } from 'node:http';
import type { Context } from 'hono';
import { toApiError, type ApiError } from '../errors.js';
import type { OperationResult } from '../operations/operation.js';

export interface ErrorEnvelope {
  success: false;
  error: string;
  code: ApiError['code'];
}

/** 202 answers an async request whose job was accepted. */
export type SuccessStatus = 200 | 202;

export function successBody(body: OperationResult): Record<string, unknown> {
  const { success = true, message, outputPath, text, data } = body;
  return { success, message, ...(outputPath !== undefined && { outputPath }), ...(text !== undefined && { text }), ...(data !== undefined && { data }) };
}

export function errorEnvelope(apiError: ApiError): ErrorEnvelope {
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
  return c.json(errorEnvelope(apiError), apiError.status);
}

/** The envelope as a fetch Response, for failures met before a request reaches the app. */
export function envelopeResponse(apiError: ApiError): Response {
  return new Response(JSON.stringify(errorEnvelope(apiError)), {
    status: apiError.status,
    headers: { 'Content-Type': 'application/json', ...apiError.headers },
  });
}

/**
 * The envelope as a complete HTTP/1.1 message, for a socket whose request could not be parsed
 * (no ServerResponse exists then). It always closes the connection: after a parse error the
 * rest of the stream cannot be trusted to start a new request.
 */
export function envelopeHttpMessage(apiError: ApiError): string {
  const body = JSON.stringify(errorEnvelope(apiError));
  const headers = [
    `HTTP/1.1 ${apiError.status} ${STATUS_CODES[apiError.status] ?? ''}`,
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    ...Object.entries(apiError.headers).map(([name, value]) => `${name}: ${value}`),
  ];
  return `${headers.join('\r\n')}\r\n\r\n${body}`;
}
