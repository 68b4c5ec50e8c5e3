// GET /docs in a real browser (Debian's headless Chromium, driven by playwright-core): the page
// and everything it loads come from the service itself — no failed request, nothing fetched
// from elsewhere — and it lists the operations of /openapi.json. Also with --token, since the
// page must open in a browser that cannot send one. DOCWASM_DOCS_SCREENSHOT=<file> keeps a
// screenshot for a human to look at.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../helpers/service.js';

const CHROMIUM = process.env.DOCWASM_TEST_CHROMIUM ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

let browser: Browser;
const services: RunningService[] = [];

beforeAll(async () => {
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
});

afterAll(async () => {
  await browser?.close();
  for (const service of services) {
    await service.stop();
    fs.rmSync(service.dir, { recursive: true, force: true });
  }
});

interface PageVisit {
  failed: string[];
  foreign: string[];
  screenshot: Buffer;
}

/** Opens /docs, waits until the merge operation is listed, and reports every request that failed or left the service. */
async function visitDocs(service: RunningService): Promise<PageVisit> {
  const page = await browser.newPage();
  const failed: string[] = [];
  const foreign: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(service.baseUrl)) foreign.push(request.url());
  });
  page.on('requestfailed', (request) => failed.push(`${request.url()}: ${request.failure()?.errorText}`));
  page.on('response', (response) => {
    if (response.status() >= 400) failed.push(`${response.url()}: HTTP ${response.status()}`);
  });
  try {
    const response = await page.goto(`${service.baseUrl}/docs`, { waitUntil: 'load' });
    expect(response?.status()).toBe(200);
    await page.getByText('/api/pdf/merge', { exact: true }).first().waitFor({ state: 'visible', timeout: 30_000 });
    await page.getByText('/api/jobs/{id}', { exact: true }).first().waitFor({ state: 'visible', timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    return { failed, foreign, screenshot: await page.screenshot({ fullPage: false }) };
  } finally {
    await page.close();
  }
}

describe('GET /docs', () => {
  it('renders the API reference from the install, with no failed or outside request', async () => {
    const service = await startService();
    services.push(service);
    const visit = await visitDocs(service);
    expect(visit.failed).toEqual([]);
    expect(visit.foreign).toEqual([]);
    const target = process.env.DOCWASM_DOCS_SCREENSHOT ?? path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'docwasm-docs-')), 'docs.png');
    fs.writeFileSync(target, visit.screenshot);
    expect(fs.statSync(target).size).toBeGreaterThan(10_000);
    if (!process.env.DOCWASM_DOCS_SCREENSHOT) fs.rmSync(path.dirname(target), { recursive: true, force: true });
  });

  it('opens without the token when the service runs with --token; the API still needs it', async () => {
    const service = await startService(['--token', 'docs-test-token']);
    services.push(service);
    const visit = await visitDocs(service);
    expect(visit.failed).toEqual([]);
    expect((await service.get('/api/health')).status).toBe(401);
    expect((await service.get('/api/jobs')).status).toBe(401);
  });

  it('refuses /openapi.json to a foreign Origin, serves it to its own', async () => {
    const service = await startService();
    services.push(service);
    const foreignOrigin = await fetch(`${service.baseUrl}/openapi.json`, { headers: { origin: 'http://evil.example' } });
    expect(foreignOrigin.status).toBe(403);
    const sameOrigin = await fetch(`${service.baseUrl}/openapi.json`, { headers: { origin: service.baseUrl } });
    expect(sameOrigin.status).toBe(200);
  });
});
