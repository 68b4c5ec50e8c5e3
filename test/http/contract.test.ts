// The HTTP spine as docs/api.md, docs/errors.md and docs/security.md state it: envelope, guards, routing errors, files, runtime.

import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { makePdf } from '../helpers/make-pdf.js';
import { rawRequest } from '../helpers/raw-http.js';
import { CLI, leftoverTempFiles, startService, tempDir, type RunningService } from '../helpers/service.js';
import { sha256 } from '../helpers/tools.js';

let service: RunningService;

beforeAll(async () => {
  service = await startService();
  fs.writeFileSync(path.join(service.dir, 'one.pdf'), makePdf({ pages: ['One'] }));
});
afterAll(() => service.stop());

describe('GET /api/health', () => {
  it('reports version, uptime and every engine', async () => {
    const { status, body } = await service.get('/api/health');
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    const data = body.data as Record<string, { available: boolean; engine: string; version: string }>;
    expect(data.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(typeof data.uptime).toBe('number');
    for (const engine of ['pdf', 'image', 'ocr', 'document']) expect(data[engine]).toHaveProperty('available');
    expect(data.pdf).toMatchObject({ available: true, engine: 'mupdf' });
  });
});

describe('GET /openapi.json', () => {
  it('is OpenAPI 3.1 generated from the validating schemas', async () => {
    const { status, body } = await service.get('/openapi.json');
    expect(status).toBe(200);
    expect(body.openapi).toBe('3.1.0');
    const paths = body.paths as Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { required?: string[] } }> } }>>;
    const merge = paths['/api/pdf/merge']?.post?.requestBody?.content['application/json']?.schema;
    expect(merge?.required).toEqual(expect.arrayContaining(['files', 'output']));
    expect(paths['/api/health']?.get).toBeDefined();
  });
});

describe('routing and the error envelope', () => {
  it('answers NOT_FOUND for an unknown route', async () => {
    const { status, body } = await service.post('/api/nope', {});
    expect(status).toBe(404);
    expect(body).toEqual({ success: false, error: expect.any(String), code: 'NOT_FOUND' });
  });

  it('answers METHOD_NOT_ALLOWED with Allow for a wrong method', async () => {
    const { status, body, headers } = await service.get('/api/pdf/merge');
    expect(status).toBe(405);
    expect(body.code).toBe('METHOD_NOT_ALLOWED');
    expect(headers.get('allow')).toBe('POST');
  });

  it('answers INVALID_JSON for a body that is not JSON, or not an object', async () => {
    for (const raw of ['{"files": [', '[1,2]', '"text"', 'null']) {
      const { status, body } = await service.post('/api/pdf/merge', raw);
      expect(status).toBe(400);
      expect(body.code).toBe('INVALID_JSON');
    }
  });

  it('answers UNSUPPORTED_CONTENT_TYPE for a POST that is not application/json', async () => {
    const { status, body } = await service.post('/api/pdf/merge', '{}', { 'content-type': 'text/plain' });
    expect(status).toBe(415);
    expect(body.code).toBe('UNSUPPORTED_CONTENT_TYPE');
    const withCharset = await service.post('/api/pdf/merge', '{}', { 'content-type': 'Application/JSON; charset=utf-8' });
    expect(withCharset.body.code).toBe('VALIDATION_ERROR');
  });

  it('answers PAYLOAD_TOO_LARGE for a body over 1 MiB, by Content-Length or by counting a chunked body', async () => {
    for (const framing of ['content-length', 'chunked'] as const) {
      const { status, body } = await postOversized(service.port, framing);
      expect(status).toBe(413);
      expect(body.code).toBe('PAYLOAD_TOO_LARGE');
    }
  });

  it('answers VALIDATION_ERROR naming the field for missing or mistyped fields', async () => {
    const missing = await service.post('/api/pdf/merge', { files: ['one.pdf'] });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('VALIDATION_ERROR');
    expect(missing.body.error).toContain('output');
    const mistyped = await service.post('/api/pdf/merge', { files: 'one.pdf', output: 'x.pdf' });
    expect(mistyped.body.code).toBe('VALIDATION_ERROR');
    const empty = await service.post('/api/pdf/merge', { files: [''], output: 'x.pdf' });
    expect(empty.body.code).toBe('VALIDATION_ERROR');
  });

  it('ignores unknown extra fields, with a warning each', async () => {
    const { status, body } = await service.post('/api/pdf/merge', { files: ['one.pdf'], output: 'extra.pdf', colour: 'blue' });
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    expect(body.warnings).toEqual(['unknown field "colour" ignored']);
  });

  it('answers FILE_NOT_FOUND for a missing input or a directory', async () => {
    for (const input of ['missing.pdf', '.']) {
      const { status, body } = await service.post('/api/pdf/merge', { files: [input], output: 'x.pdf' });
      expect(status).toBe(404);
      expect(body.code).toBe('FILE_NOT_FOUND');
    }
  });

  it('never leaks a stack trace', async () => {
    const { body } = await service.post('/api/pdf/merge', '{bad');
    expect(JSON.stringify(body)).not.toMatch(/\bat .*\.js:\d+/);
  });
});

describe('guards', () => {
  const post = (headers: Record<string, string>) =>
    rawRequest(service.port, {
      method: 'POST',
      path: '/api/pdf/merge',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ files: ['one.pdf'], output: 'guarded.pdf' }),
    });

  it('accepts the loopback Host names and refuses others with FORBIDDEN_HOST', async () => {
    for (const host of [`127.0.0.1:${service.port}`, `localhost:${service.port}`, `[::1]:${service.port}`]) {
      expect((await post({ host })).status).toBe(200);
    }
    for (const host of ['evil.example', `evil.example:${service.port}`, `127.0.0.1:${service.port + 1}`]) {
      const { status, body } = await post({ host });
      expect(status).toBe(403);
      expect(body.code).toBe('FORBIDDEN_HOST');
    }
  });

  it('refuses a foreign Origin with FORBIDDEN_ORIGIN and accepts its own', async () => {
    const host = `127.0.0.1:${service.port}`;
    expect((await post({ host, origin: `http://${host}` })).status).toBe(200);
    for (const origin of ['http://evil.example', 'null', `https://${host}`]) {
      const { status, body, headers } = await post({ host, origin });
      expect(status).toBe(403);
      expect(body.code).toBe('FORBIDDEN_ORIGIN');
      expect(headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it('accepts an Origin given with --allow-origin', async () => {
    const other = await startService(['--allow-origin', 'http://app.local:3000']);
    try {
      const host = `127.0.0.1:${other.port}`;
      const ok = await rawRequest(other.port, { path: '/api/health', headers: { host, origin: 'http://app.local:3000' } });
      expect(ok.status).toBe(200);
      const refused = await rawRequest(other.port, { path: '/api/health', headers: { host, origin: 'http://app.local:4000' } });
      expect(refused.body.code).toBe('FORBIDDEN_ORIGIN');
    } finally {
      await other.stop();
    }
  });

  it('requires the bearer token when one is configured', async () => {
    const locked = await startService(['--token', 's3cret']);
    try {
      expect((await locked.get('/api/health')).body.code).toBe('UNAUTHORIZED');
      expect((await locked.get('/api/health', { authorization: 'Bearer wrong' })).status).toBe(401);
      expect((await locked.get('/api/health', { authorization: 'Bearer s3cret' })).status).toBe(200);
    } finally {
      await locked.stop();
    }
  });

  it('reads the token from DOCWASM_TOKEN too', async () => {
    const locked = await startService([], { DOCWASM_TOKEN: 'from-env' });
    try {
      expect((await locked.get('/api/health')).status).toBe(401);
      expect((await locked.get('/api/health', { authorization: 'Bearer from-env' })).status).toBe(200);
    } finally {
      await locked.stop();
    }
  });
});

describe('allowed directories', () => {
  let jail: RunningService;
  let allowed: string;
  let outside: string;

  beforeAll(async () => {
    const root = tempDir();
    allowed = path.join(root, 'allowed');
    outside = path.join(root, 'outside');
    fs.mkdirSync(allowed);
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(allowed, 'in.pdf'), makePdf({ pages: ['Inside'] }));
    fs.writeFileSync(path.join(outside, 'secret.pdf'), makePdf({ pages: ['Secret'] }));
    fs.symlinkSync(outside, path.join(allowed, 'link-out'));
    jail = await startService(['--allow-dir', allowed, '--base-dir', allowed]);
  });
  afterAll(() => jail.stop());

  it('works inside the allowed dir', async () => {
    expect((await jail.post('/api/pdf/merge', { files: ['in.pdf'], output: 'out.pdf' })).status).toBe(200);
  });

  it('refuses paths outside, through .. or a symlink, with PATH_NOT_ALLOWED', async () => {
    const attempts = [
      { files: [path.join(outside, 'secret.pdf')], output: 'x.pdf' },
      { files: ['../outside/secret.pdf'], output: 'x.pdf' },
      { files: ['link-out/secret.pdf'], output: 'x.pdf' },
      { files: ['in.pdf'], output: '../outside/stolen.pdf' },
      { files: ['in.pdf'], output: 'link-out/stolen.pdf' },
    ];
    for (const body of attempts) {
      const response = await jail.post('/api/pdf/merge', body);
      expect(response.status).toBe(403);
      expect(response.body.code).toBe('PATH_NOT_ALLOWED');
    }
    expect(fs.existsSync(path.join(outside, 'stolen.pdf'))).toBe(false);
  });

  it('checks the allowed dirs before existence, revealing nothing', async () => {
    const response = await jail.post('/api/pdf/merge', { files: [path.join(outside, 'does-not-exist.pdf')], output: 'x.pdf' });
    expect(response.body.code).toBe('PATH_NOT_ALLOWED');
  });
});

describe('files', () => {
  it('resolves relative paths against the base dir and creates missing output dirs', async () => {
    const { body } = await service.post('/api/pdf/merge', { files: ['one.pdf'], output: 'deep/new/dir/out.pdf' });
    expect(body.outputPath).toBe(path.join(service.dir, 'deep/new/dir/out.pdf'));
    expect(fs.existsSync(path.join(service.dir, 'deep/new/dir/out.pdf'))).toBe(true);
  });

  it('answers OUTPUT_NOT_WRITABLE when the parent is a file, leaving nothing behind', async () => {
    const before = sha256(path.join(service.dir, 'one.pdf'));
    const { status, body } = await service.post('/api/pdf/merge', { files: ['one.pdf'], output: 'one.pdf/child.pdf' });
    expect(status).toBe(409);
    expect(body.code).toBe('OUTPUT_NOT_WRITABLE');
    expect(sha256(path.join(service.dir, 'one.pdf'))).toBe(before);
    expect(leftoverTempFiles(service.dir)).toEqual([]);
  });

  it('answers OUTPUT_NOT_WRITABLE for a read-only directory', async () => {
    if (process.getuid?.() === 0) {
      // root ignores permission bits; a directory that is really a file is the portable check above.
      const { body } = await service.post('/api/pdf/merge', { files: ['one.pdf'], output: '/proc/docwasm.pdf' });
      expect(body.code).toBe('OUTPUT_NOT_WRITABLE');
      return;
    }
    const dir = path.join(service.dir, 'ro');
    fs.mkdirSync(dir, { mode: 0o555 });
    const { body } = await service.post('/api/pdf/merge', { files: ['one.pdf'], output: 'ro/x.pdf' });
    expect(body.code).toBe('OUTPUT_NOT_WRITABLE');
  });

  it('answers OUTPUT_NOT_WRITABLE when the output path is a directory', async () => {
    fs.mkdirSync(path.join(service.dir, 'a-dir'), { recursive: true });
    const { body } = await service.post('/api/pdf/merge', { files: ['one.pdf'], output: 'a-dir' });
    expect(body.code).toBe('OUTPUT_NOT_WRITABLE');
  });

  it('answers TOO_LARGE for an input over --max-input-bytes', async () => {
    const small = await startService(['--max-input-bytes', '100']);
    try {
      fs.writeFileSync(path.join(small.dir, 'one.pdf'), makePdf({ pages: ['One'] }));
      const { status, body } = await small.post('/api/pdf/merge', { files: ['one.pdf'], output: 'x.pdf' });
      expect(status).toBe(413);
      expect(body.code).toBe('TOO_LARGE');
    } finally {
      await small.stop();
    }
  });
});

describe('runtime', () => {
  it('logs one line per request to stderr with method, path, status, code and ms', async () => {
    await service.post('/api/nope', {});
    // The line may reach us after the answer: wait for it (up to 10 s), not a fixed 50 ms.
    const line = /^\S+Z POST \/api\/nope 404 NOT_FOUND \d+ms$/m;
    for (const deadline = Date.now() + 10_000; !line.test(service.stderr()) && Date.now() < deadline;) await new Promise((resolve) => setTimeout(resolve, 50));
    // Each log line starts with its ISO timestamp (…Z).
    expect(service.stderr()).toMatch(/^\S+Z POST \/api\/nope 404 NOT_FOUND \d+ms$/m);
  });

  it('shuts down on SIGTERM with exit code 0', async () => {
    const short = await startService();
    expect(await short.stop('SIGTERM')).toBe(0);
    expect(short.stderr()).toContain('SIGTERM');
  });

  it('has a CLI with --help, --version and clear flag errors', () => {
    const help = spawnSync(process.execPath, [CLI, 'serve', '--help']).stdout.toString();
    for (const flag of [
      '--host',
      '--port',
      '--token',
      '--allow-dir',
      '--soffice',
      '--tessdata',
      '--workers',
      '--base-dir',
      '--pdf-engine',
      '--max-pixels',
      '--timeout',
      '--allow-origin',
    ]) {
      expect(help).toContain(flag);
    }
    expect(spawnSync(process.execPath, [CLI, '--version']).stdout.toString()).toMatch(/^\d+\.\d+\.\d+/);
    const bad = spawnSync(process.execPath, [CLI, '--pdf-engine', 'qpdf']);
    expect(bad.status).toBe(2);
    expect(bad.stderr.toString()).toContain('--pdf-engine');
  });
});

/** Streams a body of 2 MiB in 64 KiB chunks and stops writing as soon as the service answers. */
function postOversized(port: number, framing: 'content-length' | 'chunked'): Promise<{ status: number; body: { code?: string } }> {
  const total = 2 * 1024 * 1024;
  const chunk = Buffer.alloc(64 * 1024, 'a');
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { host: `127.0.0.1:${port}`, 'content-type': 'application/json' };
    if (framing === 'content-length') headers['content-length'] = String(total);
    const request = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/api/pdf/merge', headers }, (response) => {
      let text = '';
      response.on('data', (data: Buffer) => (text += data.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as { code?: string } }));
    });
    request.on('error', (err) => (request.destroyed ? undefined : reject(err)));
    let sent = 0;
    const writeMore = () => {
      if (request.destroyed || request.writableEnded || sent >= total) return;
      sent += chunk.length;
      request.write(chunk, () => setImmediate(writeMore));
    };
    writeMore();
  });
}
