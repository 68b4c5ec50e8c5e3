// What a newcomer meets first (docs/http-runtime.md): the start report says the base dir, the
// allowed dirs, the document sandbox and whether LibreOffice was found; every log line starts
// with an ISO timestamp; `GET /` leads to the documentation.

import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopAtEnd } from '../helpers/cleanup.js';
import { attachService, CLI, freePort, startService, tempDir, type RunningService } from '../helpers/service.js';

const TIMESTAMP = String.raw`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z`;

/** Starts `serve` with `flags`, keeping what it printed on stdout up to "listening on". */
async function startReporting(flags: string[], env: NodeJS.ProcessEnv = {}): Promise<{ service: RunningService; report: () => string }> {
  const port = await freePort();
  const dir = tempDir();
  const child = stopAtEnd(
    spawn(process.execPath, [CLI, 'serve', '--port', String(port), '--base-dir', dir, ...flags], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  let stdout = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const service = await attachService(child, port, dir);
  return { service, report: () => stdout };
}

describe('the start report', () => {
  it('says the base dir, the allowed dirs, the document sandbox and where LibreOffice was found, each line timestamped', async () => {
    const allowed = tempDir();
    const { service, report } = await startReporting(['--allow-dir', allowed, '--document-sandbox', 'profile']);
    try {
      const lines = report().trimEnd().split('\n');
      for (const line of lines) expect(line).toMatch(new RegExp(`^${TIMESTAMP} docwasm`));
      const text = report();
      expect(text).toContain(`docwasm: base dir ${service.dir}\n`);
      expect(text).toContain(`docwasm: allowed dirs: ${allowed}\n`);
      expect(text).toContain('docwasm: document sandbox: profile (--document-sandbox profile)\n');
      // The health endpoint finds the same LibreOffice the report names.
      const document = (await service.get('/api/health')).body.data?.document as { available: boolean; path?: string; version: string };
      expect(text).toContain(document.available ? `docwasm: LibreOffice: ${document.path} (${document.version})\n` : 'docwasm: LibreOffice: not found');
      expect(lines.at(-1)).toMatch(/ listening on http:\/\/127\.0\.0\.1:\d+$/);
    } finally {
      await service.stop();
    }
  });

  it('says when LibreOffice was not found, and that any path is allowed without --allow-dir', async () => {
    const { service, report } = await startReporting([], { DOCWASM_SOFFICE: '/nonexistent/soffice', DOCWASM_DOCUMENT_BACKEND: 'libreoffice' });
    try {
      expect(report()).toMatch(
        new RegExp(`^${TIMESTAMP} docwasm: LibreOffice: not found \\(.*/nonexistent/soffice\\); document conversion answers BACKEND_UNAVAILABLE$`, 'm'),
      );
      expect(report()).toContain('docwasm: allowed dirs: any path (no --allow-dir given)\n');
    } finally {
      await service.stop();
    }
  });
});

describe('the log and the root path', () => {
  let service: RunningService;
  beforeAll(async () => (service = await startService()));
  afterAll(() => service.stop());

  it('stamps the request line and keeps its fields: method, path, status, code, ms', async () => {
    await service.get('/api/nope');
    const line = new RegExp(`^${TIMESTAMP} GET /api/nope 404 NOT_FOUND \\d+ms$`, 'm');
    for (const deadline = Date.now() + 10_000; !line.test(service.stderr()) && Date.now() < deadline;) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(service.stderr()).toMatch(line);
  });

  it('redirects GET / to the documentation (302 → /docs)', async () => {
    const response = await fetch(`${service.baseUrl}/`, { redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/docs');
    const followed = await fetch(`${service.baseUrl}/`);
    expect(followed.status).toBe(200);
    expect(followed.url).toBe(`${service.baseUrl}/docs`);
  });

  it('redirects GET / without a token when one is configured, like the documentation it leads to', async () => {
    const guarded = await startService(['--token', 'first-contact-token']);
    try {
      const response = await fetch(`${guarded.baseUrl}/`, { redirect: 'manual' });
      expect({ status: response.status, location: response.headers.get('location') }).toEqual({ status: 302, location: '/docs' });
      expect((await guarded.get('/api/health')).status).toBe(401);
    } finally {
      await guarded.stop();
    }
  });
});
