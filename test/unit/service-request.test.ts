// The tests' HTTP helper (test/helpers/service.ts requestJson) against a tiny server that closes a
// kept-alive connection the way an idle-closing server can meet a busy client (issue 42, item 1):
// the client sends its next request on the connection just as the server closes it, unanswered.
// The helper sends that request once more on a new connection, as real clients do; a server that
// never answers still fails the request, after one retry.

import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { requestJson } from '../helpers/service.js';

const answer = (body: string) =>
  `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: keep-alive\r\n\r\n${body}`;

interface TinyServer {
  url: string;
  connections: () => number;
  /** Requests met by closing their connection unanswered. */
  unanswered: () => number;
  close: () => Promise<void>;
}

/**
 * Answers requests with their running number; `closeAt(connection, request)` says which request
 * (1-based, on a connection counted from 1) is met by closing the connection without a byte.
 */
async function tinyServer(closeAt: (connection: number, request: number) => boolean): Promise<TinyServer> {
  let connections = 0;
  let answered = 0;
  let unanswered = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    const connection = ++connections;
    let requests = 0;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('data', (chunk) => {
      // One request per chunk: the client sends small GETs one at a time on this connection.
      if (!chunk.toString('latin1').includes('\r\n\r\n')) return;
      if (closeAt(connection, ++requests)) {
        unanswered++;
        socket.end();
      } else socket.write(answer(JSON.stringify({ n: ++answered })));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    connections: () => connections,
    unanswered: () => unanswered,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Lets fetch put the answered connection back in its pool, so the next request goes out on it. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 250));

let server: TinyServer | undefined;
afterEach(() => server?.close());

describe('requestJson: a kept-alive connection the server closed unanswered', () => {
  it('is retried once on a new connection: the second request is answered', async () => {
    server = await tinyServer((connection, request) => connection === 1 && request === 2);
    expect((await requestJson(server.url, 'GET', undefined)).body).toEqual({ n: 1 });
    await settle();
    expect((await requestJson(server.url, 'GET', undefined)).body).toEqual({ n: 2 });
    expect([server.unanswered(), server.connections()]).toEqual([1, 2]);
  });

  it('a POST too: sent again with its body on the new connection', async () => {
    server = await tinyServer((connection, request) => connection === 1 && request === 2);
    expect((await requestJson(server.url, 'POST', { a: 1 })).body).toEqual({ n: 1 });
    await settle();
    expect((await requestJson(server.url, 'POST', { a: 2 })).body).toEqual({ n: 2 });
    expect(server.unanswered()).toBe(1);
  });

  it('is retried only once: a server that never answers again still fails the request', async () => {
    server = await tinyServer((connection, request) => connection > 1 || request === 2);
    expect((await requestJson(server.url, 'GET', undefined)).body).toEqual({ n: 1 });
    await settle();
    await expect(requestJson(server.url, 'GET', undefined)).rejects.toThrow(/fetch failed/);
    expect([server.unanswered(), server.connections()]).toEqual([2, 2]);
  });
});
