// Each office process has a memory ceiling (issue 20, item 3): a small .docx whose XML inflates
// to 100 MB would drive LibreOffice far past it (a 1.2 MB one took 4.6 GB). With
// --office-memory-mb 1024 the conversion ends in TOO_LARGE, no office process ever holds more
// address space than the ceiling, no output is left, and the next conversion succeeds. A
// container declaring more XML than an eighth of the ceiling is refused before the office sees it.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentFixtures, officeProcessesOf, pdfText, TEXT_LINE, waitFor } from '../helpers/documents.js';
import { docxZipBomb } from '../helpers/hostile-documents.js';
import { leftoverTempFiles, startService, type RunningService } from '../helpers/service.js';

const CEILING_MB = 1024;

/** Largest virtual size (MB) among the service's office processes right now. */
function largestOfficeVsizeMb(servicePid: number): number {
  const pids = new Set(officeProcessesOf(servicePid).map((p) => p.pid));
  const rows = spawnSync('ps', ['-eo', 'pid=,vsz='], { encoding: 'utf8' }).stdout.split('\n');
  let largest = 0;
  for (const row of rows) {
    const [pid, vszKb] = row.trim().split(/\s+/).map(Number);
    if (pid !== undefined && pids.has(pid)) largest = Math.max(largest, (vszKb ?? 0) / 1024);
  }
  return largest;
}

describe.skipIf(process.platform !== 'linux')(`an office memory ceiling (--office-memory-mb ${CEILING_MB})`, () => {
  let service: RunningService;
  const at = (name: string) => path.join(service.dir, name);

  beforeAll(async () => {
    service = await startService(['--workers', '1', '--office-memory-mb', String(CEILING_MB)]);
    // 100 MB of XML passes the pre-check (an eighth of the ceiling: 128 MB) and meets the ceiling itself.
    fs.writeFileSync(at('bomb.docx'), docxZipBomb(100 * 1024 * 1024));
    fs.writeFileSync(at('declared-bomb.docx'), docxZipBomb(200 * 1024 * 1024));
    fs.copyFileSync((await documentFixtures()).text[0] as string, at('small.docx'));
  });

  afterAll(async () => {
    const pid = service?.child.pid;
    await service?.stop();
    if (pid !== undefined) expect(await waitFor(() => officeProcessesOf(pid).length === 0, 5000)).toBe(true);
    if (service) fs.rmSync(service.dir, { recursive: true, force: true });
  });

  it('answers TOO_LARGE for a zip-bomb .docx, within the ceiling, and stays healthy', async () => {
    expect(fs.statSync(at('bomb.docx')).size).toBeLessThan(1024 * 1024);
    expect((await service.post('/api/convert', { input: 'small.docx', output: 'before.pdf', format: 'pdf' })).status).toBe(200);
    // The kernel's limit holds every office process, whatever the watch does.
    for (const office of officeProcessesOf(service.child.pid as number)) {
      const limits = fs.readFileSync(`/proc/${office.pid}/limits`, 'utf8');
      expect(limits).toMatch(new RegExp(`Max address space\\s+${CEILING_MB * 1024 * 1024}\\s`));
    }
    let peakMb = 0;
    const sampler = setInterval(() => (peakMb = Math.max(peakMb, largestOfficeVsizeMb(service.child.pid as number))), 100);
    const { status, body } = await service.post('/api/convert', { input: 'bomb.docx', output: 'bomb.pdf', format: 'pdf' });
    clearInterval(sampler);
    expect(status, JSON.stringify(body)).toBe(413);
    expect(body).toMatchObject({ code: 'TOO_LARGE', error: expect.stringContaining('--office-memory-mb') });
    expect(peakMb).toBeGreaterThan(0);
    expect(peakMb).toBeLessThanOrEqual(CEILING_MB);
    expect(fs.existsSync(at('bomb.pdf'))).toBe(false);
    expect(leftoverTempFiles(service.dir)).toEqual([]);

    const after = await service.post('/api/convert', { input: 'small.docx', output: 'after.pdf', format: 'pdf' });
    expect(after.status).toBe(200);
    expect(pdfText(at('after.pdf'))).toContain(TEXT_LINE);
  });

  it('refuses a container whose XML declares more than the ceiling allows before LibreOffice opens it', async () => {
    const { status, body } = await service.post('/api/convert', { input: 'declared-bomb.docx', output: 'declared.pdf', format: 'pdf' });
    expect(status).toBe(413);
    expect(body).toMatchObject({ code: 'TOO_LARGE', error: expect.stringMatching(/inflates to 200 MB of XML.*--office-memory-mb/) });
    expect(fs.existsSync(at('declared.pdf'))).toBe(false);
  });
});
