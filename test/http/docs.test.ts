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
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

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

interface DocsLayout {
  /** The section headings, in page order. */
  sections: string[];
  /** Lock icons on operations. */
  locks: number;
  /** The page's Authorize button. */
  authorize: boolean;
}

/** What /docs shows: its sections (one per OpenAPI tag) and its lock icons. */
async function docsLayout(service: RunningService): Promise<DocsLayout> {
  const page = await browser.newPage();
  try {
    await page.goto(`${service.baseUrl}/docs`, { waitUntil: 'load' });
    await page.getByText('/api/pdf/merge', { exact: true }).first().waitFor({ state: 'visible', timeout: 30_000 });
    const sections = await page.locator('.opblock-tag').evaluateAll((headings) => headings.map((h) => h.getAttribute('data-tag') ?? ''));
    const locks = await page.locator('.opblock .authorization__btn').count();
    const authorize = (await page.locator('.btn.authorize').count()) > 0;
    return { sections, locks, authorize };
  } finally {
    await page.close();
  }
}

async function openApiOf(service: RunningService): Promise<{
  tags: { name: string }[];
  paths: Record<string, Record<string, { tags?: string[]; security?: unknown }>>;
  components: { securitySchemes?: unknown };
}> {
  return (await (await fetch(`${service.baseUrl}/openapi.json`)).json()) as never;
}

const SECTIONS = ['Documents', 'PDF', 'Images', 'OCR', 'Reading', 'Automation', 'Jobs', 'Service'];

describe('/docs sections and locks', () => {
  it('groups the operations by tag, with no lock when the service has no token', async () => {
    const service = await startService();
    services.push(service);
    expect(await docsLayout(service)).toEqual({ sections: SECTIONS, locks: 0, authorize: false });
    const document = await openApiOf(service);
    expect(document.tags.map((t) => t.name)).toEqual(SECTIONS);
    expect(document.paths['/api/pdf/merge']?.post?.tags).toEqual(['PDF']);
    expect(document.paths['/api/convert/batch']?.post?.tags).toEqual(['Documents']);
    expect(document.paths['/api/jobs/{id}']?.delete?.tags).toEqual(['Jobs']);
    expect(JSON.stringify(document)).not.toContain('"security"');
    expect(document.components.securitySchemes).toBeUndefined();
  });

  it('shows a lock on every /api/ operation when the service has a token', async () => {
    const service = await startService(['--token', 'docs-lock-token']);
    services.push(service);
    const document = await openApiOf(service);
    const operations = Object.entries(document.paths).flatMap(([route, methods]) => Object.values(methods).map((op) => ({ route, op })));
    for (const { route, op } of operations) expect(op.security, route).toEqual(route.startsWith('/api/') ? [{ bearer: [] }] : undefined);
    const layout = await docsLayout(service);
    expect(layout.sections).toEqual(SECTIONS);
    expect(layout.authorize).toBe(true);
    // Swagger UI draws the locks of the sections it has opened (all, by default).
    expect(layout.locks).toBe(operations.filter(({ route }) => route.startsWith('/api/')).length);
  });
});

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
