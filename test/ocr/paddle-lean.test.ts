// A memory budget too small for a full PP-OCR worker (800 MB declared) starts the OCR workers
// lean (issue 46; contract v0.5, "One memory budget"): detection in bands of ≤ 0.6 MP stitched on
// the probability map. The built service, started with `--memory-budget 700`, reads the dense A4
// Chinese page of the OCR bench (2,496 characters of Ming 10.5 pt) instead of answering
// TOO_LARGE, with about the characters a full service reads (both against the page's text), and
// the service's resident peak (the kernel's VmHWM of each process of its tree: the launcher and
// the service, whose OCR worker is a thread) stays under the lean ceiling, well below the full
// service's own peak on the same page.

import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { characterErrorRate } from '../helpers/ocr-accuracy.js';
import { CHINESE_DENSE, expectedText, renderTestPage } from '../helpers/ocr-page-set.js';
import { leftoverTempFiles, startService, type RunningService } from '../helpers/service.js';
import { descendants, peakRssMb } from '../reliability/proc.js';

/**
 * Measured (dense page, one read, the tree's VmHWM): full service 665–713 MB (CER 1.3 %), lean
 * 516–556 MB (CER 1.1 %); a lean cost declared without the bands: 729 MB.
 */
const LEAN_CEILING_MB = 620;
const READ_TIMEOUT = 900_000;

let page: Buffer;

beforeAll(async () => {
  page = await renderTestPage(CHINESE_DENSE);
}, 120_000);

/** The service tree's resident peak, MB: the sum of each process's VmHWM. */
function treePeakMb(service: RunningService): number {
  const pid = service.child.pid as number;
  return Math.round([pid, ...descendants(pid)].reduce((sum, p) => sum + peakRssMb(p), 0));
}

/** Reads the page through a service started with `flags`: its text, CER against the page and resident peak. */
async function readDense(flags: string[]): Promise<{ cer: number; peakMb: number; costMb: number | undefined }> {
  const service = await startService(['--timeout', '900', '--workers', '1', ...flags]);
  try {
    fs.writeFileSync(path.join(service.dir, 'dense.png'), page);
    const response = await service.post('/api/ocr', { input: 'dense.png', language: 'chi_sim', engine: 'paddle' });
    expect(response.status, JSON.stringify(response.body).slice(0, 400)).toBe(200);
    const peakMb = treePeakMb(service);
    const memory = (await service.get('/api/health')).body.data?.memory as { engines: { engine: string; costMb: number }[] };
    expect(leftoverTempFiles(service.dir)).toEqual([]);
    const costMb = memory.engines.find((e) => e.engine === 'ocr')?.costMb;
    return { cer: characterErrorRate(expectedText(CHINESE_DENSE), String(response.body.text)), peakMb, costMb };
  } finally {
    await service.stop();
    fs.rmSync(service.dir, { recursive: true, force: true });
  }
}

describe('an OCR worker started lean under a small memory budget', () => {
  it(
    'reads the dense A4 Chinese page as a full worker does, the service peaking under the lean ceiling',
    async () => {
      const full = await readDense([]);
      const lean = await readDense(['--memory-budget', '700']);
      process.stderr.write(`dense page: full CER ${full.cer} peak ${full.peakMb} MB; lean CER ${lean.cer} peak ${lean.peakMb} MB\n`);
      expect(lean.costMb).toBeLessThanOrEqual(700);
      expect(lean.cer).toBeLessThanOrEqual(Math.max(0.02, full.cer + 0.005));
      expect(lean.peakMb).toBeLessThan(LEAN_CEILING_MB);
      expect(full.peakMb).toBeGreaterThan(lean.peakMb + 60);
    },
    READ_TIMEOUT,
  );
});
