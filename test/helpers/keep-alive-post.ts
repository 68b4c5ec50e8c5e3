// A POST whose body keeps streaming after the server may already have answered, sent through
// a keep-alive http.Agent: the situation in which an early answer used to arrive as ECONNRESET.

import http from 'node:http';
import type { RawResponse } from './raw-http.js';

export interface StreamingPost {
  path: string;
  headers: Record<string, string>;
  /** Bytes to send; always sent in full unless the connection is gone. */
  totalBytes: number;
  /** `chunked` streams without a length; `content-length` declares totalBytes up front. */
  framing: 'chunked' | 'content-length';
}

const CHUNK = Buffer.alloc(64 * 1024, 'a');

/** Resolves with the answer once it is read in full; rejects if the request fails before that. */
export function streamingPost(agent: http.Agent, port: number, post: StreamingPost): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const headers = { ...post.headers, ...(post.framing === 'content-length' && { 'content-length': String(post.totalBytes) }) };
    const request = http.request({ agent, host: '127.0.0.1', port, method: 'POST', path: post.path, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: JSON.parse(text) as RawResponse['body'] }));
      response.on('error', reject);
    });
    // Once the answer is read, a failing upload no longer matters; before, it is the failure.
    request.on('error', reject);
    let sent = 0;
    const writeMore = () => {
      if (request.destroyed || request.writableEnded) return;
      if (sent >= post.totalBytes) return void request.end();
      const chunk = CHUNK.subarray(0, Math.min(CHUNK.length, post.totalBytes - sent));
      sent += chunk.length;
      request.write(chunk, () => setImmediate(writeMore));
    };
    writeMore();
  });
}
