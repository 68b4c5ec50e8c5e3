// HTTP edges (docs/errors.md; docs/api.md, "Requests and answers"): malformed requests and slow clients get
// the JSON envelope, early answers reach keep-alive clients, offered keep-alive is honoured,
// and an open network address needs a token.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamingPost } from '../helpers/keep-alive-post.js';
import { openConnection } from '../helpers/raw-connection.js';
import { sendRaw, type SocketAnswer } from '../helpers/raw-socket.js';
import { CLI, freePort, startService, type RunningService } from '../helpers/service.js';

const TOKEN = 'edge-test-token';
const MIB = 1024 * 1024;

function expectEnvelope(answer: Pick<SocketAnswer, 'status' | 'headers' | 'body'>, status: number, code: string): void {
  expect({ status: answer.status, code: answer.body.code }).toEqual({ status, code });
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expect(answer.body).toEqual({ success: false, error: expect.any(String), code });
}

describe('malformed requests', () => {
  let service: RunningService;
  beforeAll(async () => (service = await startService()));
  afterAll(() => stopAndRemove(service));

  const get = (headerLines: string, version = '1.1') => `GET /api/health HTTP/${version}\r\n${headerLines}Connection: close\r\n\r\n`;

  it('answers BAD_REQUEST as a JSON envelope for a missing, empty or unparseable Host', async () => {
    const port = service.port;
    const requests = {
      'no Host (HTTP/1.1)': get(''),
      'no Host (HTTP/1.0)': get('', '1.0'),
      'empty Host': get('Host:\r\n'),
      'Host: a@b': get('Host: a@b\r\n'),
      'userinfo before the real host': get(`Host: evil@127.0.0.1:${port}\r\n`),
      'IPv4-mapped IPv6 host': get(`Host: [::ffff:127.0.0.1]:${port}\r\n`),
      'two Host headers': get(`Host: 127.0.0.1:${port}\r\nHost: evil.example\r\n`),
    };
    for (const [name, bytes] of Object.entries(requests)) {
      const answer = await sendRaw(port, bytes);
      expect({ name, status: answer.status, body: answer.body }).toEqual({
        name,
        status: 400,
        body: { success: false, error: expect.any(String), code: 'BAD_REQUEST' },
      });
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
    }
  });

  it('answers BAD_REQUEST as a complete JSON message for HTTP Node cannot parse', async () => {
    const host = `Host: 127.0.0.1:${service.port}\r\n`;
    const requests = {
      'header name with a space': `GET /api/health HTTP/1.1\r\n${host}Bad Header: x\r\n\r\n`,
      'not HTTP at all': 'HELLO\r\n\r\n',
      'bad chunk size': `POST /api/pdf/merge HTTP/1.1\r\n${host}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
      'headers over 16 KiB': `GET /api/health HTTP/1.1\r\n${host}X-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    };
    for (const [name, bytes] of Object.entries(requests)) {
      const answer = await sendRaw(service.port, bytes);
      expect({ name, status: answer.status, code: answer.body.code }).toEqual({ name, status: 400, code: 'BAD_REQUEST' });
      expectEnvelope(answer, 400, 'BAD_REQUEST');
      expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(JSON.stringify(answer.body)));
      expect(answer.headers.connection).toBe('close');
    }
  });

  it('still answers FORBIDDEN_HOST for a well-formed foreign Host', async () => {
    const answer = await sendRaw(service.port, get('Host: evil.example\r\n'));
    expectEnvelope(answer, 403, 'FORBIDDEN_HOST');
  });
});

describe('slow clients', () => {
  // Short limits so that nothing waits long; every wait below is many times the limit.
  let service: RunningService;
  beforeAll(async () => (service = await startService(['--headers-timeout', '1'], { DOCWASM_REQUEST_TIMEOUT: '2' })));
  afterAll(() => stopAndRemove(service));
  const host = () => `Host: 127.0.0.1:${service.port}\r\n`;

  it('answers REQUEST_TIMEOUT as a JSON envelope to a client that sends nothing', async () => {
    const answer = await sendRaw(service.port, undefined, 30_000);
    expectEnvelope(answer, 408, 'REQUEST_TIMEOUT');
    expect(answer.headers.connection).toBe('close');
  });

  it('answers REQUEST_TIMEOUT to headers that never end, and to a body that never ends', async () => {
    const partialHeaders = `GET /api/health HTTP/1.1\r\n${host()}X-Slow: `;
    const partialBody = `POST /api/pdf/merge HTTP/1.1\r\n${host()}Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"files":`;
    const [headers, body] = await Promise.all([sendRaw(service.port, partialHeaders, 30_000), sendRaw(service.port, partialBody, 30_000)]);
    expectEnvelope(headers, 408, 'REQUEST_TIMEOUT');
    expectEnvelope(body, 408, 'REQUEST_TIMEOUT');
  });

  it('does not count the idle time of a keep-alive connection against the headers timeout', async () => {
    const connection = await openConnection(service.port);
    try {
      connection.send(`GET /api/health HTTP/1.1\r\n${host()}\r\n`);
      const first = await connection.nextAnswer();
      expect(first.headers['keep-alive']).toBe('timeout=5');
      // Idle for 3 s: three times the headers timeout, inside the advertised keep-alive.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      connection.send(`GET /api/health HTTP/1.1\r\n${host()}\r\n`);
      expect((await connection.nextAnswer()).status).toBe(200);
    } finally {
      connection.destroy();
    }
  });
});

describe('early answers to a body still being sent', () => {
  let service: RunningService;
  beforeAll(async () => (service = await startService(['--token', TOKEN])));
  afterAll(() => stopAndRemove(service));

  it('reach a keep-alive http.Agent client every time (413, 415, 401, 403; chunked and Content-Length)', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const json = { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` };
    const kinds = [
      { expected: [413, 'PAYLOAD_TOO_LARGE'], headers: json },
      { expected: [415, 'UNSUPPORTED_CONTENT_TYPE'], headers: { ...json, 'content-type': 'text/plain' } },
      { expected: [401, 'UNAUTHORIZED'], headers: { 'content-type': 'application/json' } },
      { expected: [403, 'FORBIDDEN_ORIGIN'], headers: { ...json, origin: 'http://evil.example' } },
    ] as const;
    const failures: string[] = [];
    try {
      for (let i = 0; i < 32; i++) {
        const kind = kinds[i % kinds.length] as (typeof kinds)[number];
        const framing = i % 8 < 4 ? 'chunked' : 'content-length';
        const post = { path: '/api/pdf/merge', headers: { ...kind.headers }, totalBytes: 2 * MIB, framing } as const;
        const outcome = await streamingPost(agent, service.port, post).then(
          (answer) => `${answer.status} ${answer.body.code}`,
          (err: Error & { code?: string }) => `${err.code ?? err.message}`,
        );
        if (outcome !== kind.expected.join(' ')) failures.push(`#${i} ${framing}: ${outcome}, expected ${kind.expected.join(' ')}`);
      }
    } finally {
      agent.destroy();
    }
    expect(failures).toEqual([]);
  });

  it('keeps a connection it offered for keep-alive open, or says Connection: close', async () => {
    const connection = await openConnection(service.port);
    try {
      const body = Buffer.alloc(2 * MIB, 'a');
      connection.send(
        `POST /api/pdf/merge HTTP/1.1\r\nHost: 127.0.0.1:${service.port}\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
      );
      connection.send(body);
      const answer = await connection.nextAnswer();
      expectEnvelope(answer, 413, 'PAYLOAD_TOO_LARGE');
      if (answer.headers.connection === 'close') return void (await connection.closed);
      // Offered for reuse: a client may send its next request any time within the advertised
      // timeout (5 s); 2 s later the connection must still answer.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      connection.send(`GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:${service.port}\r\nAuthorization: Bearer ${TOKEN}\r\n\r\n`);
      expect((await connection.nextAnswer()).status).toBe(200);
    } finally {
      connection.destroy();
    }
  });
});

describe('binding a non-loopback address', () => {
  it('is refused without a token: exit 2 and a message saying why and how (DOCWASM_TOKEN)', async () => {
    const port = await freePort();
    const env = { ...process.env };
    delete env.DOCWASM_TOKEN;
    for (const host of ['0.0.0.0', '::', '192.0.2.10']) {
      const { code, stdout, stderr } = await runCli(['serve', '--host', host, '--port', String(port)], env);
      expect({ host, code, stdout }).toEqual({ host, code: 2, stdout: '' });
      expect(stderr).toContain(host);
      expect(stderr).toMatch(/token/i);
      expect(stderr).toContain('DOCWASM_TOKEN=');
    }
  });
});

async function stopAndRemove(service: RunningService): Promise<void> {
  await service.stop();
  fs.rmSync(service.dir, { recursive: true, force: true });
}

function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    expect(fs.existsSync(CLI)).toBe(true);
    const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      // Started instead of refusing: stop it, the assertion on the exit code reports it.
      if (stdout.includes('listening on')) child.kill();
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
