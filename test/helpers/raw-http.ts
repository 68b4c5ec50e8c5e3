// Raw HTTP requests (fetch cannot set Host), for the guard tests.

import http from 'node:http';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: { success?: boolean; code?: string; error?: string } & Record<string, unknown>;
}

export function rawRequest(
  port: number,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    let text = '';
    let answered: http.IncomingMessage | undefined;
    const finish = () => {
      let body: RawResponse['body'];
      try {
        body = JSON.parse(text) as RawResponse['body'];
      } catch {
        body = { raw: text };
      }
      resolve({ status: answered?.statusCode ?? 0, headers: answered?.headers ?? {}, body });
    };
    const request = http.request({ host: '127.0.0.1', port, method: options.method ?? 'GET', path: options.path, headers: options.headers }, (response) => {
      answered = response;
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', finish);
      response.on('error', finish);
    });
    // A server may answer (413) and close before the client has sent its whole body.
    request.on('error', (err) => (answered ? finish() : reject(err)));
    if (options.body !== undefined) request.write(options.body);
    request.end();
  });
}
