// Byte-exact HTTP over a plain TCP socket, for requests no HTTP client will send (no Host,
// malformed headers, a request that stops half-way) and for reading what the server wrote
// before it closed.

import net from 'node:net';

export interface SocketAnswer {
  status: number;
  headers: Record<string, string>;
  body: { success?: boolean; code?: string; error?: string } & Record<string, unknown>;
  /** Everything the server wrote, as text. */
  raw: string;
  /** Milliseconds from connecting to the server closing the connection. */
  closedAfterMs: number;
}

/** Writes `bytes` (or nothing), then reads until the server closes or `timeoutMs` passes. */
export function sendRaw(port: number, bytes: string | undefined, timeoutMs = 30_000): Promise<SocketAnswer> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const chunks: Buffer[] = [];
    const socket = net.connect(port, '127.0.0.1', () => {
      if (bytes !== undefined) socket.write(bytes);
    });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`server did not close within ${timeoutMs} ms; got: ${Buffer.concat(chunks).toString()}`));
    }, timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(parseAnswer(Buffer.concat(chunks).toString('latin1'), Date.now() - started));
    });
  });
}

export function parseAnswer(raw: string, closedAfterMs: number): SocketAnswer {
  const [head = '', ...rest] = raw.split('\r\n\r\n');
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const text = rest.join('\r\n\r\n');
  let body: SocketAnswer['body'];
  try {
    body = JSON.parse(text) as SocketAnswer['body'];
  } catch {
    body = { raw: text };
  }
  return { status: Number(statusLine.split(' ')[1] ?? 0), headers, body, raw, closedAfterMs };
}
