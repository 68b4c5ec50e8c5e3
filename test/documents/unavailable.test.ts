// Without LibreOffice (--document-backend libreoffice: the WebAssembly office would serve under
// auto): conversions answer 503 BACKEND_UNAVAILABLE with how to install it, point to it or use
// the WebAssembly office; batch items carry that code; validation still comes first; health says
// so. Also where soffice is looked for when nothing is configured.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { candidatePaths, detectSoffice, readVersion } from '../../src/installed-office/soffice-detect.js';
import { startService, tempDir, type RunningService } from '../helpers/service.js';

describe('an explicit --soffice that does not exist', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService(['--soffice', '/nonexistent/lo/soffice', '--document-backend', 'libreoffice']);
    fs.writeFileSync(path.join(service.dir, 'a.docx'), 'not checked: no backend');
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('POST /api/convert answers 503 BACKEND_UNAVAILABLE naming the path and how to fix it', async () => {
    const { status, body } = await service.post('/api/convert', { input: 'a.docx', output: 'a.pdf', format: 'pdf' });
    expect(status).toBe(503);
    expect(body.code).toBe('BACKEND_UNAVAILABLE');
    expect(body.error).toContain('/nonexistent/lo/soffice');
    expect(body.error).toMatch(/install LibreOffice/i);
    expect(body.error).toContain('--soffice');
    expect(body.error).toContain('--document-backend auto or wasm');
    expect(fs.existsSync(path.join(service.dir, 'a.pdf'))).toBe(false);
  });

  it('is never silently replaced by another installation (health shows the document engine unavailable)', async () => {
    const { body } = await service.get('/api/health');
    expect(body.data?.document).toMatchObject({ available: false });
  });

  it('POST /api/convert/batch answers 200 with every item failed as BACKEND_UNAVAILABLE', async () => {
    const { status, body } = await service.post('/api/convert/batch', { files: ['a.docx', 'b.odt'], format: 'pdf' });
    expect(status).toBe(200);
    expect(body.success).toBe(false);
    expect(body.data).toMatchObject({ total: 2, succeeded: 0, failed: 2 });
    const results = (body.data as { results: { input: string; code: string }[] }).results;
    expect(results.map((r) => [r.input, r.code])).toEqual([
      ['a.docx', 'BACKEND_UNAVAILABLE'],
      ['b.odt', 'BACKEND_UNAVAILABLE'],
    ]);
  });

  it('still validates first: unknown format and duplicate outputs are VALIDATION_ERROR, matrix misses UNSUPPORTED_CONVERSION', async () => {
    expect((await service.post('/api/convert', { input: 'a.docx', output: 'a.gif', format: 'gif' })).body.code).toBe('VALIDATION_ERROR');
    expect((await service.post('/api/convert/batch', { files: ['x/a.docx', 'y/a.odt'], format: 'pdf', outputDir: 'out' })).body.code).toBe('VALIDATION_ERROR');
    expect((await service.post('/api/convert', { input: 'a.docx', output: 'a.xlsx', format: 'xlsx' })).body.code).toBe('UNSUPPORTED_CONVERSION');
  });
});

describe('DOCWASM_SOFFICE pointing nowhere', () => {
  it('has the same effect as --soffice', async () => {
    const service = await startService([], { DOCWASM_SOFFICE: '/nonexistent/env/soffice', DOCWASM_DOCUMENT_BACKEND: 'libreoffice' });
    try {
      fs.writeFileSync(path.join(service.dir, 'a.docx'), 'x');
      const { status, body } = await service.post('/api/convert', { input: 'a.docx', output: 'a.pdf', format: 'pdf' });
      expect(status).toBe(503);
      expect(body.error).toContain('/nonexistent/env/soffice');
    } finally {
      await service.stop();
    }
  });
});

describe('finding soffice without configuration', () => {
  const fakeInstall = () => {
    const root = tempDir('docwasm-fake-lo-');
    fs.mkdirSync(path.join(root, 'program'));
    fs.mkdirSync(path.join(root, 'share', 'registry'), { recursive: true });
    fs.writeFileSync(path.join(root, 'program', 'soffice'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    fs.writeFileSync(
      path.join(root, 'share', 'registry', 'main.xcd'),
      '<oor:data><prop oor:name="ooSetupVersion">\n<value>9.1</value>\n</prop><prop oor:name="ooSetupVersionAboutBox">\n        <value>9.1.2.3</value>\n      </prop></oor:data>',
    );
    return root;
  };

  it('takes PATH first, reading the version from share/registry/main.xcd', async () => {
    const root = fakeInstall();
    const found = await detectSoffice({ env: { PATH: `/nonexistent:${path.join(root, 'program')}` }, platform: 'linux' });
    expect(found).toEqual({ found: true, path: path.join(root, 'program', 'soffice'), version: '9.1.2.3' });
    expect(await readVersion(path.join(root, 'program', 'soffice'))).toBe('9.1.2.3');
  });

  it('falls back to the usual install locations of each platform', () => {
    expect(candidatePaths({ PATH: '' }, 'linux')).toEqual(
      expect.arrayContaining(['/usr/lib/libreoffice/program/soffice', '/opt/libreoffice*/program/soffice', '/snap/bin/libreoffice']),
    );
    expect(candidatePaths({ PATH: '' }, 'darwin')).toContain('/Applications/LibreOffice.app/Contents/MacOS/soffice');
    expect(candidatePaths({ PATH: '', ProgramFiles: 'C:\\Program Files' }, 'win32')).toContain('C:\\Program Files\\LibreOffice\\program\\soffice.com');
  });

  it("finds this machine's LibreOffice with an empty PATH (usual locations)", async () => {
    const found = await detectSoffice({ env: { PATH: '' }, platform: process.platform });
    expect(found).toMatchObject({ found: true, version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
  });

  it('reports an explicit path that is not executable', async () => {
    const root = fakeInstall();
    fs.chmodSync(path.join(root, 'program', 'soffice'), 0o644);
    expect(await detectSoffice({ explicit: path.join(root, 'program', 'soffice'), platform: 'linux' })).toMatchObject({
      found: false,
      reason: expect.stringContaining('not executable'),
    });
  });
});
