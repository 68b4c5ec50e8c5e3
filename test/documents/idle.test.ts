// Idle retirement of LibreOffice (contract: --idle-timeout): offices idle that long are stopped,
// process group and all, and the next conversion starts them again.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentFixtures, officeProcessesOf, pdfText, TEXT_LINE, waitFor } from '../helpers/documents.js';
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
