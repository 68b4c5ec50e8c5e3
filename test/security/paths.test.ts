// Paths under --allow-dir cannot be raced, widened or used to exhaust the service: a link
// swapped in after the check reads nothing outside, a replaced file keeps its mode, `..foo`
// is a name like any other, long paths and huge path lists are refused up front, and a request
// naming thousands of files never runs out of file descriptors.

import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../helpers/make-pdf.js';
import { attachService, CLI, freePort, startService, tempDir, type RunningService } from '../helpers/service.js';
import { pageCount, pdfPageTexts } from '../helpers/tools.js';

const SECRET = 'OUTSIDE SECRET';
const INSIDE = 'INSIDE TEXT';

describe('paths under --allow-dir', () => {
  let service: RunningService;
  let root: string;
  let inside: string;
  let outside: string;

  beforeAll(async () => {
    root = tempDir('docwasm-test-paths-');
    inside = path.join(root, 'inside');
    outside = path.join(root, 'outside');
    fs.mkdirSync(inside);
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, 'secret.pdf'), makePdf({ pages: [SECRET] }));
    fs.writeFileSync(path.join(inside, 'good.pdf'), makePdf({ pages: [INSIDE] }));
    service = await startService(['--allow-dir', inside, '--base-dir', inside]);
  });
  afterAll(async () => {
    await service?.stop();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('reads nothing outside when a symlink is swapped in after the check (150 merges against a swapping file)', async () => {
    const swapper = startSwapping(inside, path.join(inside, 'good.pdf'), path.join(outside, 'secret.pdf'));
    try {
      const codes: string[] = [];
      for (let batch = 0; batch < 15; batch++) {
        const answers = await Promise.all(
          Array.from({ length: 10 }, (_, i) => service.post('/api/pdf/merge', { files: ['race.pdf'], output: `race-out-${batch}-${i}.pdf` })),
        );
        for (const a of answers) codes.push(a.status === 200 ? 'OK' : String(a.body.code));
      }
      expect(
        codes.every((c) => ['OK', 'PATH_NOT_ALLOWED', 'FILE_NOT_FOUND', 'INVALID_INPUT'].includes(c)),
        codes.join(','),
      ).toBe(true);
    } finally {
      swapper.kill('SIGKILL');
    }
    const outputs = fs.readdirSync(inside).filter((f) => f.startsWith('race-out-'));
    for (const file of outputs) expect(pdfPageTexts(path.join(inside, file)).join(' ')).not.toContain(SECRET);
  }, 180_000);

  it('keeps the mode of a file it replaces (0600 encrypted onto itself stays 0600)', async () => {
    const file = path.join(inside, 'private.pdf');
    fs.writeFileSync(file, makePdf({ pages: ['private'] }), { mode: 0o600 });
    fs.chmodSync(file, 0o600);
    const r = await service.post('/api/pdf/encrypt', { input: 'private.pdf', output: 'private.pdf', password: 'pw' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('accepts a name starting with two dots inside an allowed dir (..foo/x.pdf)', async () => {
    fs.mkdirSync(path.join(inside, '..foo'));
    fs.copyFileSync(path.join(inside, 'good.pdf'), path.join(inside, '..foo', 'x.pdf'));
    const r = await service.post('/api/pdf/merge', { files: ['..foo/x.pdf'], output: '..foo/merged.pdf' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(pageCount(path.join(inside, '..foo', 'merged.pdf'))).toBe(1);
  });

  it('refuses a path over 4,096 bytes with VALIDATION_ERROR before resolving it', async () => {
    const r = await service.post('/api/pdf/merge', { files: ['x/'.repeat(50_000) + 'a.pdf'], output: 'deep.pdf' });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('VALIDATION_ERROR');
  });

  it('refuses more than 10,000 paths in one request with VALIDATION_ERROR', async () => {
    const files = Array.from({ length: 10_001 }, (_, i) => `${i}.pdf`);
    for (const route of ['/api/pdf/merge', '/api/convert/batch']) {
      const r = await service.post(route, { files, output: 'many.pdf', format: 'pdf' });
      expect({ route, code: r.body.code }).toEqual({ route, code: 'VALIDATION_ERROR' });
    }
  });

  it('answers a batch naming 10,000 missing files item by item, never INTERNAL_ERROR', async () => {
    const files = Array.from({ length: 10_000 }, (_, i) => `missing-${i}.docx`);
    const r = await service.post('/api/convert/batch', { files, format: 'pdf' });
    expect(r.status).toBe(200);
    const results = r.body.data?.results as { code?: string }[];
    expect(results).toHaveLength(10_000);
    expect(results.every((item) => item.code === 'FILE_NOT_FOUND' || item.code === 'BACKEND_UNAVAILABLE')).toBe(true);
  }, 120_000);
});

describe('file descriptors', () => {
  let service: RunningService;
  beforeAll(async () => {
    // A service allowed 256 descriptors merges 2,000 files: file-system work is bounded.
    const dir = tempDir('docwasm-test-fds-');
    const port = await freePort();
    const child = spawn('sh', ['-c', `ulimit -n 256 && exec "${process.execPath}" "${CLI}" serve --port ${port} --base-dir "${dir}"`], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    service = await attachService(child, port, dir);
    const pdf = makePdf({ pages: ['one'] });
    for (let i = 0; i < 2_000; i++) fs.writeFileSync(path.join(dir, `${i}.pdf`), pdf);
  });
  afterAll(async () => {
    await service?.stop();
    fs.rmSync(service.dir, { recursive: true, force: true });
  });

  it('merges 2,000 files with 256 descriptors', async () => {
    const files = Array.from({ length: 2_000 }, (_, i) => `${i}.pdf`);
    const r = await service.post('/api/pdf/merge', { files, output: 'all.pdf' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(pageCount(path.join(service.dir, 'all.pdf'))).toBe(2_000);
  }, 120_000);
});

/** A child process that keeps replacing `race.pdf` by a copy of `good`, then by a link to `secret`. */
function startSwapping(dir: string, good: string, secret: string): ChildProcess {
  const script = `
    const fs = require('fs'); const path = require('path');
    const race = path.join(${JSON.stringify(dir)}, 'race.pdf');
    const file = race + '.file', link = race + '.link';
    for (;;) {
      try { fs.copyFileSync(${JSON.stringify(good)}, file); fs.renameSync(file, race); } catch {}
      try { fs.symlinkSync(${JSON.stringify(secret)}, link); fs.renameSync(link, race); } catch {}
    }`;
  return spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
}
