// Hostile OFDs through the real HTTP service (issue 41, items 6 and 7): a few kilobytes that
// reuse one page part, template or composite thousands of times, or hold one path of millions
// of operations, are TOO_LARGE for both convert and read — refused while the document is read,
// before anything is drawn, the service's peak memory bounded — and composites that use one
// another 9,000 deep or in a cycle are INVALID_INPUT, never a stack overflow (500) or a hang.
// Afterwards the service still converts a real OFD.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeZip } from '../helpers/zip.js';
import { leftoverTempFiles, ROOT, startService, tempDir, type ApiResponse, type RunningService } from '../helpers/service.js';
import { peakRssMb, resetPeakRss, rssMb } from '../reliability/proc.js';

const noSpaces = (text: string) => text.replace(/\s+/g, '');
const NS = 'xmlns:ofd="http://www.ofdspec.org/2016"';

interface OfdParts {
  /** Each page's BaseLoc (from Doc_0/), in order: several may name one part. */
  pages: string[];
  /** Parts under Doc_0/ by name: page contents and templates. */
  parts: Record<string, string>;
  /** TemplatePage entries of CommonData. */
  templates?: string;
  /** What DocumentRes.xml's Res holds (composite graphic units). */
  resources?: string;
}

/** An OFD package made here, its XML written out (the budgets look at what it would draw). */
function ofd({ pages, parts, templates = '', resources = '' }: OfdParts): Buffer {
  const pageList = pages.map((loc, i) => `<ofd:Page ID="${i + 1}" BaseLoc="${loc}"/>`).join('');
  return makeZip([
    {
      name: 'OFD.xml',
      data: `<ofd:OFD ${NS} DocType="OFD" Version="1.0"><ofd:DocBody><ofd:DocInfo/><ofd:DocRoot>Doc_0/Document.xml</ofd:DocRoot></ofd:DocBody></ofd:OFD>`,
    },
    {
      name: 'Doc_0/Document.xml',
      data: `<ofd:Document ${NS}><ofd:CommonData><ofd:PageArea><ofd:PhysicalBox>0 0 100 50</ofd:PhysicalBox></ofd:PageArea><ofd:DocumentRes>DocumentRes.xml</ofd:DocumentRes>${templates}</ofd:CommonData><ofd:Pages>${pageList}</ofd:Pages></ofd:Document>`,
    },
    { name: 'Doc_0/DocumentRes.xml', data: `<ofd:Res ${NS}><ofd:CompositeGraphicUnits>${resources}</ofd:CompositeGraphicUnits></ofd:Res>` },
    ...Object.entries(parts).map(([name, data]) => ({ name: `Doc_0/${name}`, data })),
  ]);
}

const pagePart = (objects: string, templateUse = '') =>
  `<ofd:Page ${NS}>${templateUse}<ofd:Content><ofd:Layer ID="1">${objects}</ofd:Layer></ofd:Content></ofd:Page>`;
/** A stroked path of `operations` operations (a move, then lines). */
const pathObject = (operations: number) =>
  `<ofd:PathObject ID="2" Boundary="0 0 100 50"><ofd:AbbreviatedData>M 0 0${' L 1 1'.repeat(operations - 1)}</ofd:AbbreviatedData></ofd:PathObject>`;
const textObject = (text: string) => `<ofd:TextObject ID="3" Boundary="0 0 100 20" Size="5"><ofd:TextCode X="5" Y="10">${text}</ofd:TextCode></ofd:TextObject>`;
const unit = (id: number, content: string) =>
  `<ofd:CompositeGraphicUnit ID="${id}" Width="100" Height="50"><ofd:Content>${content}</ofd:Content></ofd:CompositeGraphicUnit>`;
const useUnit = (id: number) => `<ofd:CompositeObject ID="4" Boundary="0 0 100 50" ResourceID="${id}"/>`;
const onePage = (objects: string, resources = '') => ofd({ pages: ['Pages/P/Content.xml'], parts: { 'Pages/P/Content.xml': pagePart(objects) }, resources });

/** Units 1…depth, each using the next; the last draws `text`. */
function chain(depth: number, text: string): Buffer {
  const units = Array.from({ length: depth }, (_, i) => unit(i + 1, i + 1 < depth ? useUnit(i + 2) : textObject(text)));
  return onePage(useUnit(1), units.join(''));
}

let service: RunningService;
let dir: string;
/** Resident memory of the warm service, before any hostile OFD. */
let baselineMb: number;
/** The job time limit: the refusals come within seconds; TIMEOUT would mean no budget held. */
const TIMEOUT_S = 60;
/**
 * What refusing one OFD (convert, then read: two engine threads) may add to the service's peak
 * memory. The budgets stop each case long before drawing; the most measured is ~550 MB, by the
 * 48 MB of path data that both threads inflate and parse (before the fix: 1.3 to 4.7 GB).
 */
const MAX_EXTRA_MB = 768;

beforeAll(async () => {
  dir = tempDir('docwasm-ofd-budgets-');
  service = await startService(['--base-dir', dir, '--allow-dir', dir, '--workers', '1', '--timeout', String(TIMEOUT_S)]);
  fs.copyFileSync(path.join(ROOT, 'fixtures/ofd/helloworld.ofd'), path.join(dir, 'hello.ofd'));
  // Warm both engines on a real OFD, so the baseline holds the code and fonts every OFD needs.
  expect((await service.post('/api/convert', { input: 'hello.ofd', output: 'warm.pdf' })).status).toBe(200);
  expect((await service.post('/api/read', { input: 'hello.ofd' })).status).toBe(200);
  baselineMb = rssMb(service.child.pid as number);
}, 120_000);
afterAll(() => service.stop());

/** convert (OFD → PDF) and read of `bytes`: both answers, after which no output nor temp file is left. */
async function convertAndRead(name: string, bytes: Buffer): Promise<ApiResponse[]> {
  fs.writeFileSync(path.join(dir, name), bytes);
  const convert = await service.post('/api/convert', { input: name, output: `${name}.pdf` });
  const read = await service.post('/api/read', { input: name });
  expect(fs.existsSync(path.join(dir, `${name}.pdf`))).toBe(false);
  expect(leftoverTempFiles(dir)).toEqual([]);
  return [convert, read];
}

function expectCode(answers: ApiResponse[], status: number, code: string): void {
  for (const answer of answers) expect([answer.status, answer.body.code], JSON.stringify(answer.body).slice(0, 300)).toEqual([status, code]);
}

async function expectHealthy(): Promise<void> {
  expect((await service.get('/api/health')).status).toBe(200);
  const convert = await service.post('/api/convert', { input: 'hello.ofd', output: 'hello.pdf' });
  expect(convert.status).toBe(200);
  expect(execFileSync('pdftotext', [path.join(dir, 'hello.pdf'), '-'], { encoding: 'utf8' })).toContain('OFD Reader');
}

describe('OFD budgets: charged per use, refused before drawing (TOO_LARGE)', () => {
  const cases: [string, () => Buffer][] = [
    // 10,000 pages naming one page part of a 200,000-operation path: 2 billion operations.
    ['page-part.ofd', () => ofd({ pages: Array<string>(10_000).fill('Pages/P/Content.xml'), parts: { 'Pages/P/Content.xml': pagePart(pathObject(200_000)) } })],
    // 2,000 pages of their own, each under one template of a 200,000-operation path.
    [
      'template.ofd',
      () => {
        const pages = Array.from({ length: 2_000 }, (_, i) => `Pages/P${i}/Content.xml`);
        const parts = Object.fromEntries(pages.map((loc) => [loc, pagePart('', '<ofd:Template TemplateID="1"/>')]));
        return ofd({ pages, parts: { ...parts, 'Tpls/T.xml': pagePart(pathObject(200_000)) }, templates: '<ofd:TemplatePage ID="1" BaseLoc="Tpls/T.xml"/>' });
      },
    ],
    // One composite of 30,000 paths, used 9,999 times on one page.
    ['composite.ofd', () => onePage(useUnit(1).repeat(9_999), unit(1, pathObject(1).repeat(30_000)))],
    // One path of 8,000,000 operations (48 MB of path data in a ~50 KB file).
    ['path.ofd', () => onePage(pathObject(8_000_000))],
  ];
  for (const [name, make] of cases) {
    it(`${name}: convert and read are TOO_LARGE, the service's peak memory within ${MAX_EXTRA_MB} MB of its baseline`, async () => {
      const pid = service.child.pid as number;
      resetPeakRss(pid);
      expectCode(await convertAndRead(name, make()), 413, 'TOO_LARGE');
      expect(peakRssMb(pid) - baselineMb).toBeLessThan(MAX_EXTRA_MB);
      await expectHealthy();
    }, 300_000);
  }
});

describe('OFD nesting through references: deeper than 64 or a cycle is INVALID_INPUT', () => {
  it('a chain of 9,000 composites, each using the next, is INVALID_INPUT (not a stack overflow)', async () => {
    expectCode(await convertAndRead('chain.ofd', chain(9_000, 'deep')), 422, 'INVALID_INPUT');
    await expectHealthy();
  }, 300_000);

  it('65 composites deep is INVALID_INPUT; 64 deep draws and reads the text at the bottom', async () => {
    expectCode(await convertAndRead('deep65.ofd', chain(65, 'deep')), 422, 'INVALID_INPUT');
    fs.writeFileSync(path.join(dir, 'deep64.ofd'), chain(64, 'bottom'));
    expect((await service.post('/api/convert', { input: 'deep64.ofd', output: 'deep64.pdf' })).status).toBe(200);
    expect(noSpaces(execFileSync('pdftotext', [path.join(dir, 'deep64.pdf'), '-'], { encoding: 'utf8' }))).toContain('bottom');
    expect(noSpaces((await service.post('/api/read', { input: 'deep64.ofd' })).body.text ?? '')).toContain('bottom');
  }, 300_000);

  it('a composite that uses itself, and two that use each other, are INVALID_INPUT', async () => {
    expectCode(await convertAndRead('self.ofd', onePage(useUnit(1), unit(1, textObject('self') + useUnit(1)))), 422, 'INVALID_INPUT');
    expectCode(await convertAndRead('pair.ofd', onePage(useUnit(1), unit(1, useUnit(2)) + unit(2, textObject('pair') + useUnit(1)))), 422, 'INVALID_INPUT');
    await expectHealthy();
  }, 300_000);
});
