// The WebAssembly office in tests: which document backends a suite runs against (the installed
// LibreOffice where there is one, LibreOffice in WebAssembly always), and waiting for a service's
// office to be up. Its start takes 10–60 s on 2 cores (minutes on a loaded machine), so a suite
// starts it once, in beforeAll, and its tests get a bound far above a warm conversion.

import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { expect } from 'vitest';
import { bundledCjkFonts, registryModifications } from '../../src/documents/profile.js';
import { WasmOffice } from '../../src/documents/wasm-office.js';
import { OFFICE_V8_FLAGS, officeV8Flags } from '../../src/documents/wasm-office-engine.js';
import { findWasmOffice } from '../../src/documents/wasm-office-package.js';
import { DOCUMENT_FIXTURES, isAlive, officeProcessesOf, pdfText, TEXT_LINE } from './documents.js';
import type { RunningService } from './service.js';
import { SOFFICE } from './soffice.js';

/** Bound of a test or hook that may wait for a WebAssembly office's start (a hang detector only). */
export const WASM_TEST_TIMEOUT_MS = 900_000;

export type BackendUnderTest = 'libreoffice' | 'wasm';

export function backendsUnderTest(): BackendUnderTest[] {
  return fs.existsSync(SOFFICE) ? ['libreoffice', 'wasm'] : ['wasm'];
}

interface DocumentHealth {
  backend?: string;
  state?: string;
}

export async function documentHealth(service: RunningService): Promise<DocumentHealth> {
  return (await service.get('/api/health')).body.data?.document as DocumentHealth;
}

/** Waits until the service's WebAssembly office is ready (at once for the installed one, which starts with its first file). */
export async function waitForOfficeReady(service: RunningService, timeoutMs = WASM_TEST_TIMEOUT_MS - 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const health = await documentHealth(service);
    if (health.backend !== 'libreoffice-wasm' || health.state === 'ready') return;
    expect(Date.now(), 'the WebAssembly office did not become ready').toBeLessThan(deadline);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** What one start → convert → stop round of a bare WebAssembly office took. */
export interface OfficeRound {
  startMs: number;
  convertMs: number;
}

/** Generous: 10–60 s here on 2 cores; the bound only tells a hang from a slow start. */
const START_BOUND_MS = 240_000;

/**
 * Round `run` of the start test (docs/documents-backend.md, "never deadlocks"): starts a bare
 * office (pushed on `started`, for the caller's cleanup), bounded; converts the docx fixture to
 * PDF (checked with pdftotext); stops it and checks that its process is gone.
 */
export async function startConvertStop(run: number, dir: string, started: WasmOffice[]): Promise<OfficeRound> {
  const found = findWasmOffice();
  if (!found.found) throw new Error(`the WebAssembly office must be installed for these tests: ${found.reason}`);
  const { files } = found;
  const docx = fs.readFileSync(path.join(DOCUMENT_FIXTURES, 'text-docx.docx'));
  const begun = performance.now();
  const settings = { wasmDir: files.wasmDir, glue: files.glue, fonts: bundledCjkFonts(), profile: { '/instdir/user/registrymodifications.xcu': registryModifications() } };
  // The flags the service starts its office with, so that this test starts the office it runs.
  const office = new WasmOffice(settings, await officeV8Flags());
  started.push(office);
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`start ${run} did not finish within ${START_BOUND_MS / 1000} s (deadlock?)`)), START_BOUND_MS);
  });
  try {
    await Promise.race([office.ready, bound]);
  } finally {
    clearTimeout(timer);
  }
  const ready = performance.now();
  // It runs with the engine flags the service gives its office (wasm-office-engine.ts).
  const args = officeProcessesOf(process.pid).find((running) => running.pid === office.pid)?.args ?? '';
  for (const flag of OFFICE_V8_FLAGS) expect(args).toContain(` ${flag} `);
  const reply = await office.convert({ bytes: docx, extension: 'docx', name: 'report', format: 'pdf' });
  const convertMs = Math.round(performance.now() - ready);
  expect(reply.kind, JSON.stringify(reply.kind === 'converted' ? '' : reply)).toBe('converted');
  if (reply.kind !== 'converted') throw new Error('unreachable');
  const pdf = path.join(dir, `run-${run}.pdf`);
  fs.writeFileSync(pdf, reply.bytes);
  expect(pdfText(pdf)).toContain(TEXT_LINE);
  const pid = office.pid as number;
  await office.stop();
  expect(isAlive(pid)).toBe(false);
  return { startMs: Math.round(ready - begun), convertMs };
}
