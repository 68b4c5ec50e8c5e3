// The WebAssembly office in tests: which document backends a suite runs against (the installed
// LibreOffice where there is one, LibreOffice in WebAssembly always), and waiting for a service's
// office to be up. Its start takes 10–60 s on 2 cores (minutes on a loaded machine), so a suite
// starts it once, in beforeAll, and its tests get a bound far above a warm conversion.

import fs from 'node:fs';
import { expect } from 'vitest';
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
