// Idle retirement of LibreOffice (contract: --idle-timeout): offices idle that long are stopped,
// process group and all, and the next conversion starts them again.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentFixtures, officePipesOf, officeProcessesOf, pdfText, TEXT_LINE, waitFor } from '../helpers/documents.js';
import { startService, type RunningService } from '../helpers/service.js';

describe('LibreOffice idle retirement (--idle-timeout 2)', () => {
  let service: RunningService;
  const offices = () => officeProcessesOf(service.child.pid as number);

  beforeAll(async () => {
    const fx = await documentFixtures();
    service = await startService(['--workers', '1', '--idle-timeout', '2']);
    fs.copyFileSync(fx.text[0] as string, path.join(service.dir, 'small.docx'));
  });
  afterAll(async () => {
    const pid = service?.child.pid;
    await service?.stop();
    if (pid !== undefined) await waitFor(() => officeProcessesOf(pid).length === 0, 5_000);
    if (service) fs.rmSync(service.dir, { recursive: true, force: true });
  });

  it('stops the offices after the idle time, and the next conversion starts them again', async () => {
    expect((await service.post('/api/convert', { input: 'small.docx', output: 'first.pdf', format: 'pdf' })).status).toBe(200);
    expect(offices().length).toBeGreaterThan(0);

    expect(await waitFor(() => offices().length === 0, 15_000)).toBe(true);

    const again = await service.post('/api/convert', { input: 'small.docx', output: 'second.pdf', format: 'pdf' });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(pdfText(path.join(service.dir, 'second.pdf'))).toContain(TEXT_LINE);
    expect(offices().length).toBeGreaterThan(0);
  });
});

// Without an OS sandbox an office's single-instance socket is the host's /tmp/OSL_PIPE_…: the
// service must remove it once that office is gone, not only when the service itself stops.
describe('LibreOffice idle retirement without an OS sandbox (--document-sandbox profile)', () => {
  let service: RunningService;
  const offices = () => officeProcessesOf(service.child.pid as number);

  beforeAll(async () => {
    const fx = await documentFixtures();
    service = await startService(['--workers', '1', '--idle-timeout', '2', '--document-sandbox', 'profile']);
    fs.copyFileSync(fx.text[0] as string, path.join(service.dir, 'small.docx'));
  });
  afterAll(async () => {
    await service?.stop();
    if (service) fs.rmSync(service.dir, { recursive: true, force: true });
  });

  it("removes a retired office's /tmp socket while the service keeps running", async () => {
    expect((await service.post('/api/convert', { input: 'small.docx', output: 'first.pdf', format: 'pdf' })).status).toBe(200);
    const pipes = officePipesOf(offices());
    expect(pipes.length).toBeGreaterThan(0);
    expect(pipes.every((pipe) => fs.existsSync(pipe))).toBe(true);
    expect(await waitFor(() => offices().length === 0, 15_000)).toBe(true);
    expect(await waitFor(() => pipes.every((pipe) => !fs.existsSync(pipe)), 5_000)).toBe(true);
  });
});
