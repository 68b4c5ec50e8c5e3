// Answers given before the request body has fully arrived (413 while the body is still
// streaming, 415, 401, 403, 404 that never read it). The rest of the body must be read off
// the connection, or the client, still sending, gets a reset instead of the answer:
// - a body of known, bounded length is read and discarded after the answer, and the connection
//   stays reusable;
// - a chunked or very large body: the answer says `Connection: close` and the connection is
//   closed by lingering (linger.ts), so the client still reads the answer.
// Also tracks which sockets are in the middle of an answer, so a client error arriving then
// (a request timeout) never writes a second response into one, and makes every answer
// advertise the keep-alive timeout of keep-alive.ts rather than the real idle limit.

import http, { type IncomingMessage, type OutgoingHttpHeader, type OutgoingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';
import { advertiseKeepAlive } from './keep-alive.js';
import { discardBody, lingeringClose, LINGER_MAX_BYTES } from './linger.js';

const answering = new WeakSet<Socket>();

/** True while a response to a request on `socket` has started and not finished. */
export function isAnswering(socket: Socket): boolean {
  return answering.has(socket);
}

export class EarlyAnswerAwareResponse extends http.ServerResponse<IncomingMessage> {
  override writeHead(
    statusCode: number,
    statusOrHeaders?: string | OutgoingHttpHeaders | OutgoingHttpHeader[],
    headers?: OutgoingHttpHeaders | OutgoingHttpHeader[],
  ): this {
    if (this.socket && !this.headersSent) prepareAnswer(this, this.socket);
    advertiseKeepAlive(this);
    return typeof statusOrHeaders === 'string' ? super.writeHead(statusCode, statusOrHeaders, headers) : super.writeHead(statusCode, statusOrHeaders);
  }
}

function prepareAnswer(response: http.ServerResponse, socket: Socket): void {
  answering.add(socket);
  response.once('close', () => answering.delete(socket));
  const unread = unreadBody(response.req);
  if (unread === 'bounded') response.once('finish', () => discardBody(response.req));
  if (unread === 'unbounded') closeByLingering(response, socket);
}

function unreadBody(request: IncomingMessage): 'none' | 'bounded' | 'unbounded' {
  if (request.complete) return 'none';
  if (request.headers['transfer-encoding'] !== undefined) return 'unbounded';
  const length = Number(request.headers['content-length'] ?? 0);
  if (!(length > 0)) return 'none';
  return length <= LINGER_MAX_BYTES ? 'bounded' : 'unbounded';
}

function closeByLingering(response: http.ServerResponse, socket: Socket): void {
  response.shouldKeepAlive = false;
  // Node ends a `Connection: close` answer with socket.destroySoon(), which destroys the socket
  // as soon as the answer is flushed, with the client's unread bytes still arriving.
  socket.destroySoon = () => lingeringClose(socket, response.req);
}
