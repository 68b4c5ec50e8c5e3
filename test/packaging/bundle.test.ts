// The portable bundle (`npm run bundle`): unpacked into a temp dir and made read-only, it runs
// with a plain `node` and no install step: `--version`, and `serve` answering /api/health and a
// real PDF merge. Needs `npm run build` first.

import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../helpers/make-pdf.js';
import { attachService, freePort, ROOT, type RunningService } from '../helpers/service.js';

function chmodTree(dir: string, writable: boolean): void {
  execFileSync('chmod', ['-R', writable ? 'u+w' : 'a-w', dir]);
}

describe.runIf(process.platform !== 'win32')('the portable bundle, unpacked read-only', () => {
  let work: string;
  let app: string;
  let service: RunningService | undefined;

  beforeAll(() => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'docwasm-bundle-test-'));
    const version = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    execFileSync(process.execPath, [path.join(ROOT, 'scripts/bundle.mjs')], {
      cwd: ROOT,
      env: { ...process.env, DOCWASM_BUNDLE_DIR: work },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const archive = path.join(work, `docwasm-${version}.zip`);
    const unpacked = path.join(work, 'usb');
    execFileSync('unzip', ['-q', archive, '-d', unpacked]);
    fs.rmSync(archive);
    app = path.join(unpacked, `docwasm-${version}`);
    chmodTree(unpacked, false);
  }, 300_000);
  afterAll(async () => {
    await service?.stop();
    if (!work) return;
    chmodTree(work, true);
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('holds the launchers and no native addon', () => {
    expect(fs.statSync(path.join(app, 'docwasm')).mode & 0o111).not.toBe(0);
    expect(fs.existsSync(path.join(app, 'docwasm.cmd'))).toBe(true);
    const natives = fs.readdirSync(app, { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && e.name.endsWith('.node'));
    expect(natives).toEqual([]);
  });

  it('prints its version with a plain node, from another folder', () => {
    const out = execFileSync(process.execPath, [path.join(app, 'dist/src/cli/main.js'), '--version'], { cwd: os.tmpdir(), encoding: 'utf8' });
    expect(out.trim()).toMatch(/^\d+\.\d+\.\d+/);
    expect(execFileSync(path.join(app, 'docwasm'), ['--version'], { cwd: os.tmpdir(), encoding: 'utf8' })).toBe(out);
  });

  it('serves /api/health and merges PDFs, started by its launcher', async () => {
    const data = fs.mkdtempSync(path.join(work, 'data-'));
    fs.writeFileSync(path.join(data, 'a.pdf'), makePdf({ pages: ['one'] }));
    fs.writeFileSync(path.join(data, 'b.pdf'), makePdf({ pages: ['two', 'three'] }));
    const port = await freePort();
    const env = { ...process.env, GLIBC_TUNABLES: undefined };
    const child = spawn(path.join(app, 'docwasm'), ['serve', '--port', String(port), '--base-dir', data], {
      cwd: data,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    service = await attachService(child, port, data);
    if (process.platform === 'linux') {
      // The launcher execs node (same pid) with glibc's malloc told to give freed memory back.
      const environ = fs.readFileSync(`/proc/${child.pid}/environ`, 'utf8').split('\0');
      // (glibc rewrites the variable in place as it reads it: only its start is certain to remain.)
      expect(environ.some((v) => v.startsWith('GLIBC_TUNABLES=glibc.malloc.mmap_threshold=32768'))).toBe(true);
    }

    const health = await service.get('/api/health');
    expect(health.status).toBe(200);
    const merged = await service.post('/api/pdf/merge', { files: ['a.pdf', 'b.pdf'], output: 'ab.pdf' });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    expect(fs.statSync(path.join(data, 'ab.pdf')).size).toBeGreaterThan(0);
    expect(await service.stop()).toBe(0);
    service = undefined;
  });

  it('runs its bin as a program, read-only as it is (no npm step can chmod it there)', () => {
    const version = execFileSync(process.execPath, [path.join(app, 'dist/src/cli/main.js'), '--version'], { cwd: os.tmpdir(), encoding: 'utf8' });
    expect(execFileSync(path.join(app, 'dist/src/cli/main.js'), ['--version'], { cwd: os.tmpdir(), encoding: 'utf8' })).toBe(version);
  });

  it('serves MCP when started as the documented client configuration for the bundle starts it', async () => {
    const files = fs.mkdtempSync(path.join(work, 'agent-files-'));
    fs.writeFileSync(path.join(files, 'a.pdf'), makePdf({ pages: ['One', 'Two', 'Three'] }));
    // { "command": "/path/to/docwasm-<version>/docwasm", "args": ["mcp", "--allow-dir", DIR] }
    const transport = new StdioClientTransport({ command: path.join(app, 'docwasm'), args: ['mcp', '--allow-dir', files], cwd: os.tmpdir(), stderr: 'pipe' });
    const client = new Client({ name: 'docwasm-bundle-test', version: '1.0.0' });
    try {
      await client.connect(transport);
      const result = await client.callTool({ name: 'pdf_info', arguments: { input: path.join(files, 'a.pdf') } }, undefined, { timeout: 120_000 });
      expect(result.structuredContent).toMatchObject({ success: true, data: { pages: 3 } });
    } finally {
      await client.close();
    }
  }, 300_000);
});
