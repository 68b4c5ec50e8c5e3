// The Node HTTP server under the app: its timeouts, and the answers given outside the app
// (unparseable requests, slow clients, a Host the URL cannot be built from) as JSON envelopes.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener, RequestError } from '@hono/node-server';
import { ApiError, reportFailure } from '../../core/errors.js';
import { answerClientError, logClientError } from './client-error.js';
import { EarlyAnswerAwareResponse } from './early-answer.js';
import { envelopeResponse } from './envelope.js';
import { applyKeepAlivePolicy } from './keep-alive.js';

type FetchCallback = Parameters<typeof getRequestListener>[0];

export interface HttpTimeouts {
  /** Time for the client to send all request headers. */
  headersTimeoutMs: number;
  /** Time for the client to send the whole request, body included (not the time to answer it). */
  requestTimeoutMs: number;
}

/** How often Node looks for connections past their headers/request timeout (default 30 s). */
const TIMEOUT_CHECK_INTERVAL_MS = 1_000;

export function createHttpServer(fetch: FetchCallback, timeouts: HttpTimeouts): http.Server {
  const listener = getRequestListener(fetch, {
    // Cleanup of unread bodies is early-answer.ts's: hono's own drains for 500 ms, then
    // destroys a connection it has just offered for keep-alive.
    autoCleanupIncoming: false,
    errorHandler: answerUnbuildableRequest,
  });
  const server = http.createServer(
    {
      ServerResponse: EarlyAnswerAwareResponse,
      // Without Host, Node answers an empty 400; let the request reach the JSON answer instead.
      requireHostHeader: false,
      headersTimeout: Math.min(timeouts.headersTimeoutMs, timeouts.requestTimeoutMs),
      requestTimeout: timeouts.requestTimeoutMs,
      connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
    },
    listener,
  );
  applyKeepAlivePolicy(server);
  server.on('clientError', answerClientError);
  return server;
}

/** Binds `server`; resolves with the bound address, rejects on a listen error. */
export function listen(server: http.Server, host: string, port: number): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

/** Hono could not build a URL from the request (no Host, `Host: a@b`, a non-canonical host). */
function answerUnbuildableRequest(err: unknown): Response {
  const apiError = err instanceof RequestError ? new ApiError('BAD_REQUEST', `Malformed request: ${err.message}`) : reportFailure(err);
  logClientError(apiError);
  return envelopeResponse(apiError);
}
