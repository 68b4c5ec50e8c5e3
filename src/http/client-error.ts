// Requests Node cannot hand to the app: unparseable HTTP (bad header syntax, oversized headers)
// and requests not received in time. Node would answer an empty 400/408; docwasm answers the
// JSON envelope, then closes the connection without resetting it.

import type { Socket } from 'node:net';
import { ApiError } from '../../core/errors.js';
import { envelopeHttpMessage } from './envelope.js';
import { isAnswering } from './early-answer.js';
import { lingeringClose } from './linger.js';
import { logEvent } from '../../core/log.js';

const answered = new WeakSet<Socket>();

/** Listener for the Node server's 'clientError' event. */
export function answerClientError(err: Error & { code?: string }, socket: Socket): void {
  // A parser in error reports every further chunk again: answer once.
  if (answered.has(socket)) return;
  answered.add(socket);
  if (err.code === 'ECONNRESET' || !socket.writable || isAnswering(socket)) {
    socket.destroy();
    return;
  }
  const apiError = clientErrorToApiError(err);
  logClientError(apiError);
  socket.write(envelopeHttpMessage(apiError));
  lingeringClose(socket);
}

export function clientErrorToApiError(err: Error & { code?: string }): ApiError {
  switch (err.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError('REQUEST_TIMEOUT', 'The request was not received in time');
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError('BAD_REQUEST', 'The request headers are too large');
    default:
      return new ApiError('BAD_REQUEST', `Malformed HTTP request${err.code ? ` (${err.code})` : ''}`);
  }
}

/** The per-request log line (see request-log.ts); method and path are unknown here. */
export function logClientError(apiError: ApiError): void {
  logEvent(`- - ${apiError.status} ${apiError.code} 0ms`);
}
