// One raw TCP connection kept open across requests, to see exactly when and how the server
// reuses or closes it. Answers are framed by Content-Length (docwasm always sends it).

import net from 'node:net';
import { parseAnswer, type SocketAnswer } from './raw-socket.js';

export interface RawConnection {
  send(bytes: string | Buffer): void;
  /** The next complete answer; rejects if the server closes first or `timeoutMs` passes. */
  nextAnswer(timeoutMs?: number): Promise<SocketAnswer>;
  /** Resolves when the server has closed the connection. */
  closed: Promise<void>;
  destroy(): void;
}

export async function openConnection(port: number): Promise<RawConnection> {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let buffered = Buffer.alloc(0);
  let wake: () => void = () => undefined;
  let isClosed = false;
  const closed = new Promise<void>((resolve) => socket.once('close', () => ((isClosed = true), resolve(), wake())));
  socket.on('error', () => undefined);
  socket.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    wake();
  });

  const takeAnswer = (): SocketAnswer | undefined => {
    const headEnd = buffered.indexOf('\r\n\r\n');
    if (headEnd < 0) return undefined;
    const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(buffered.subarray(0, headEnd).toString('latin1'))?.[1] ?? 0);
    const end = headEnd + 4 + length;
    if (buffered.length < end) return undefined;
    const message = buffered.subarray(0, end).toString('utf8');
    buffered = buffered.subarray(end);
    return parseAnswer(message, 0);
  };

  return {
    send: (bytes) => void socket.write(bytes),
    nextAnswer: (timeoutMs = 30_000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
        const check = () => {
          const answer = takeAnswer();
          if (answer) return (clearTimeout(timer), resolve(answer));
          if (isClosed) return (clearTimeout(timer), reject(new Error('the server closed the connection without answering')));
          wake = check;
        };
        check();
      }),
    closed,
    destroy: () => socket.destroy(),
  };
}
