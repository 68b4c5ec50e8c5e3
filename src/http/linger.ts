// Closing a connection while the client is still sending makes the kernel answer the unread
// bytes with a reset, and a client that has not yet read our answer loses it (ECONNRESET).
// So a connection we end after an answer is half-closed first (FIN after the answer), what the
// client still sends is read and discarded up to a bound, and only then is it destroyed.

import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

/** Bytes of an unwanted request body read and discarded before giving up on the client. */
export const LINGER_MAX_BYTES = 4 * 1024 * 1024;
/** Longest a closing connection waits for the client to finish sending. */
export const LINGER_MAX_MS = 10_000;

/** Ends `socket` after what was written to it, reading and discarding the rest of `body`. */
export function lingeringClose(socket: Socket, body?: IncomingMessage): void {
  if (socket.destroyed) return;
  let destroying = false;
  const destroy = () => {
    if (destroying) return;
    destroying = true;
    clearTimeout(deadline);
    if (socket.writableFinished) socket.destroy();
    else socket.once('finish', () => socket.destroy());
  };
  const deadline = setTimeout(() => socket.destroy(), LINGER_MAX_MS);
  deadline.unref();
  socket.once('close', () => clearTimeout(deadline));
  socket.once('end', destroy);
  if (body && !body.complete) discardBody(body, destroy);
  socket.end();
  socket.resume();
}

/** Reads the rest of a request body nobody wants; `done` after it or after too many bytes. */
export function discardBody(body: IncomingMessage, done: () => void = () => undefined): void {
  let discarded = 0;
  // Whoever read the body (the app, a body-limit check) has answered; nobody needs the bytes.
  body.removeAllListeners('data');
  body.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > LINGER_MAX_BYTES) done();
  });
  body.once('end', done);
  body.once('error', done);
  body.resume();
}
