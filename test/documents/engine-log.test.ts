// Each engine's start and idle retirement is one log line on stderr with the memory it holds
// (issue 42, item 9): before, an office's ~800 MB went away silently after --idle-timeout and
// the next conversion paid its start with no hint why. Both offices and the PDF workers, each
// with a short --idle-timeout; the figures are only checked to be plausible, never timed.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENT_FIXTURES, officeProcessesOf, waitFor } from '../helpers/documents.js';
import { ROOT, startService, type RunningService } from '../helpers/service.js';
import { backendsUnderTest, WASM_TEST_TIMEOUT_MS } from '../helpers/wasm-office.js';

const IDLE_S = 2;
const ENGINE: Record<string, string> = { libreoffice: 'libreoffice office', wasm: 'libreoffice-wasm office' };

/** The memory figure (MB) of `engine`'s line of `kind` on the service's stderr, once it is there. */
async function loggedMemory(service: RunningService, engine: string, kind: 'started' | 'retired'): Promise<number> {
  const line =
    kind === 'started'
      ? `docwasm ${engine}: started in [\\d.]+ s, memory (\\d+) MB`
      : `docwasm ${engine}: retired after ${IDLE_S} s idle, holding memory (\\d+) MB`;
  const pattern = new RegExp(line);
  expect(
    await waitFor(() => pattern.test(service.stderr()), WASM_TEST_TIMEOUT_MS / 2),
    `no "${kind}" line for ${engine}:\n${service.stderr().slice(-2000)}`,
  ).toBe(true);
  return Number(pattern.exec(service.stderr())?.[1]);
}

describe.each(backendsUnderTest())(
  'engine start and retirement are logged with their memory (--document-backend %s)',
  { timeout: WASM_TEST_TIMEOUT_MS },
  (backend) => {
    let service: RunningService;

    beforeAll(async () => {
      service = await startService(['--workers', '1', '--idle-timeout', String(IDLE_S), '--document-backend', backend]);
      fs.copyFileSync(path.join(DOCUMENT_FIXTURES, 'text-docx.docx'), path.join(service.dir, 'small.docx'));
      fs.copyFileSync(path.join(ROOT, 'fixtures/pdf/text.pdf'), path.join(service.dir, 'text.pdf'));
    }, WASM_TEST_TIMEOUT_MS);
    afterAll(async () => {
      const pid = service?.child.pid;
      await service?.stop();
      if (pid !== undefined) await waitFor(() => officeProcessesOf(pid).length === 0, 10_000);
    });

    it('the office: a start line and, after the idle timeout, a retirement line, each with its memory', async () => {
      const converted = await service.post('/api/convert', { input: 'small.docx', output: 'small.pdf', format: 'pdf' });
      expect(converted.status, JSON.stringify(converted.body)).toBe(200);
      const engine = ENGINE[backend] as string;
      // An office is tens to hundreds of MB resident; 0 would mean its processes were not found.
      expect(await loggedMemory(service, engine, 'started')).toBeGreaterThan(20);
      expect(await loggedMemory(service, engine, 'retired')).toBeGreaterThan(20);
    });

    it('the PDF workers: a start line and a retirement line, with the service memory', async () => {
      const read = await service.post('/api/read', { input: 'text.pdf' });
      expect(read.body.success, JSON.stringify(read.body)).toBe(true);
      expect(await loggedMemory(service, 'pdf workers', 'started')).toBeGreaterThan(20);
      expect(await loggedMemory(service, 'pdf workers', 'retired')).toBeGreaterThan(20);
    });
  },
);
