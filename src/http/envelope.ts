// The envelope over HTTP: the plain-data envelope of src/operations/envelope.ts as a response,
// and as a whole HTTP message for requests that never reached the app.

import { STATUS_CODES } from 'node:http';
import type { Context } from 'hono';
import { reportFailure, type ApiError } from '../../core/errors.js';
import { errorEnvelope, successEnvelope } from '../operations/envelope.js';
import type { OperationResult } from '../operations/operation.js';

/** 202 answers an async request whose job was accepted. */
export type SuccessStatus = 200 | 202;

export function successResponse(c: Context, body: OperationResult, status: SuccessStatus = 200): Response {
  if (body.warnings !== undefined && body.warnings.length > 0) c.set('warningCount', body.warnings.length);
  return c.json(successEnvelope(body), status);
}

export function errorResponse(c: Context, err: unknown): Response {
  const apiError = reportFailure(err);
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
