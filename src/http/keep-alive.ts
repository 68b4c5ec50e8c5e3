// When an idle kept-alive connection is closed. HTTP/1.1 cannot close an idle connection
// without a race (the client may be sending its next request as the FIN leaves), so the server
// promises much less than it keeps, and never closes a connection that has bytes waiting.
// The measured sequences that lost requests are in docs/measurements-by-hand.md.

import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * What every keep-alive answer says (`Keep-Alive: timeout=5`). Clients stop reusing a
 * connection before it: undici 2 s before (after 3 s idle, ±0.5 s timer resolution), an
 * http.Agent with a `timeout` 1 s before.
 */
export const ADVERTISED_KEEP_ALIVE_MS = 5_000;

/**
 * How long an idle connection is really kept (Node adds 1 s). The 10 s above the advertised
 * timeout absorb a client whose event loop was blocked when it chose to reuse the connection
 * (a slower program run synchronously between two requests).
 */
export const IDLE_CLOSE_MS = 15_000;

declare module 'node:http' {
  interface ServerResponse {
    /** Node's source of the `Keep-Alive: timeout=` value (server.keepAliveTimeout by default). */
    _keepAliveTimeout: number;
  }
}

/** Keeps idle connections IDLE_CLOSE_MS and closes them only when nothing has arrived. */
export function applyKeepAlivePolicy(server: Server): void {
  server.keepAliveTimeout = IDLE_CLOSE_MS;
  // With a 'timeout' listener Node leaves the closing to us. server.timeout is 0, so the only
  // socket timer is the idle one Node arms after an answer (and clears when a request starts).
  server.on('timeout', closeIfStillIdle);
}

/** Makes an answer advertise ADVERTISED_KEEP_ALIVE_MS instead of the real idle limit. */
export function advertiseKeepAlive(response: { _keepAliveTimeout: number }): void {
  response._keepAliveTimeout = ADVERTISED_KEEP_ALIVE_MS;
}

/**
 * Node runs timers before it reads sockets. After a stall of the event loop (CPU starvation, a
 * long GC, synchronous work) the idle timer fires first while a request sent in time waits
 * unread in the kernel; destroying the socket then answers that request with a reset. So the
 * decision waits for this loop turn's reads (setImmediate runs after them): a connection that
 * received anything is in use, and Node re-arms or clears its timer by itself.
 */
function closeIfStillIdle(socket: Socket): void {
  const bytesReadAtTimeout = socket.bytesRead;
  setImmediate(() => {
    if (!socket.destroyed && socket.bytesRead === bytesReadAtTimeout) socket.destroy();
  });
}
