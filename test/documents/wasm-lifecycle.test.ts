// The WebAssembly office's lifecycle (docs/documents-backend.md): started in the background when
// the service starts (health answers at once, state starting), a request that arrives meanwhile
// waits for it and gets its time limit from then; a conversion past the limit is TIMEOUT with the
// office killed and replaced; an office over its memory ceiling is killed and the file is
// TOO_LARGE; nothing is left running after the service stops.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAlive, officeProcessesOf, waitFor } from '../helpers/documents.js';
import { ENGLISH_TEXT } from '../helpers/ocr-images.js';
import { startService, type RunningService } from '../helpers/service.js';
import { documentHealth, waitForOfficeReady, WASM_TEST_TIMEOUT_MS } from '../helpers/wasm-office.js';
import { makeDocx } from '../reliability/docx.js';

const officePids = (service: RunningService) => officeProcessesOf(service.child.pid as number).map((p) => p.pid);

/** 120,000 paragraphs: tens of seconds of LibreOffice work, ten times a 3 s limit and more. */
const bigDocx = () => makeDocx(Array.from({ length: 120_000 }, (_, i) => `Paragraph ${i}: ${ENGLISH_TEXT}`));

describe('the office starts with the service; a deadline kills and replaces it (--timeout 3)', { timeout: WASM_TEST_TIMEOUT_MS }, () => {
  let service: RunningService;
  let stateAtStart: string | undefined;

  beforeAll(async () => {
    service = await startService(['--document-backend', 'wasm', '--timeout', '3']);
    stateAtStart = (await documentHealth(service)).state;
    fs.writeFileSync(path.join(service.dir, 'big.docx'), bigDocx());
  }, WASM_TEST_TIMEOUT_MS);
  afterAll(async () => {
    const pid = service?.child.pid;
    await service?.stop();
    if (pid !== undefined) expect(await waitFor(() => officeProcessesOf(pid).length === 0, 10_000)).toBe(true);
  });

  it('answers health at once while the office starts in the background', () => {
    // Loading 250 MB of office and compiling 147 MB of WebAssembly takes seconds on any machine.
    expect(stateAtStart).toBe('starting');
  });

  it('lets a request wait for the start, counts its limit from then, and answers TIMEOUT by replacing the office', async () => {
    let readyAt = 0;
    const watching = (async () => {
      await waitForOfficeReady(service);
      readyAt = Date.now();
    })();
    const sent = Date.now();
    const { status, body } = await service.post('/api/convert', { input: 'big.docx', output: 'big.pdf', format: 'pdf' });
    const answered = Date.now();
    await watching;
    expect(status, JSON.stringify(body)).toBe(504);
    expect(body).toMatchObject({ code: 'TIMEOUT', error: expect.stringContaining('replaced') });
    // Sent before the office was ready, answered after it: the 3 s ran from then, not from arrival.
    expect(readyAt).toBeGreaterThan(sent);
    expect(answered).toBeGreaterThanOrEqual(readyAt);
    expect(fs.existsSync(path.join(service.dir, 'big.pdf'))).toBe(false);
    // The office that ran past the limit is gone; a new one starts and becomes ready.
    const before = officePids(service);
    expect(await waitFor(() => officePids(service).length === 1 && officePids(service)[0] !== undefined, 30_000)).toBe(true);
    await waitForOfficeReady(service);
    const after = officePids(service);
    expect(after).toHaveLength(1);
    for (const pid of before.filter((p) => !after.includes(p))) expect(isAlive(pid)).toBe(false);
  });
});

describe('the memory ceiling (--office-memory-mb below what the office holds)', { timeout: WASM_TEST_TIMEOUT_MS }, () => {
  let service: RunningService;

  beforeAll(async () => {
    // The office holds ~1–1.5 GB resident once loaded: a 768 MB ceiling is passed by any conversion.
    service = await startService(['--document-backend', 'wasm', '--office-memory-mb', '768']);
    fs.writeFileSync(path.join(service.dir, 'big.docx'), bigDocx());
    await waitForOfficeReady(service);
  }, WASM_TEST_TIMEOUT_MS);
  afterAll(async () => {
    await service?.stop();
  });

  it('answers TOO_LARGE naming the ceiling, writes nothing, and replaces the office', async () => {
    const [first] = officePids(service);
    const { status, body } = await service.post('/api/convert', { input: 'big.docx', output: 'big.pdf', format: 'pdf' });
    expect(status, JSON.stringify(body)).toBe(413);
    expect(body).toMatchObject({ code: 'TOO_LARGE', error: expect.stringContaining('768 MB') });
    expect(fs.existsSync(path.join(service.dir, 'big.pdf'))).toBe(false);
    expect(await waitFor(() => first !== undefined && !isAlive(first), 10_000)).toBe(true);
  });
});
