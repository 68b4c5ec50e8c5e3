// The paper of office documents that set none (docs/documents-backend.md, "Paper"): a CSV and a
// sheet without page setup come out on the locale's paper — A4 under C or zh_CN, Letter under
// en_US — or on --paper's, with either office. Read back with pdfinfo. The WebAssembly office ran
// with Emscripten's C locale and gave Letter whatever the machine's locale (LibreOffice's fallback
// is en-US); an installed one gave A4 under C.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../helpers/service.js';
import { backendsUnderTest, waitForOfficeReady, WASM_TEST_TIMEOUT_MS } from '../helpers/wasm-office.js';
import { makeZip } from '../helpers/zip.js';

/** A workbook of one sheet with no <pageSetup> (nor any other page setting). */
function xlsxWithoutPageSetup(): Buffer {
  const rel = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  return makeZip([
    {
      name: '[Content_Types].xml',
      data: '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
    },
    {
      name: '_rels/.rels',
      data: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    },
    {
      name: 'xl/workbook.xml',
      data: `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="${rel}"><sheets><sheet name="Data" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
    },
    {
      name: 'xl/worksheets/sheet1.xml',
      data: '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>a</t></is></c><c r="B1" t="inlineStr"><is><t>b</t></is></c></row><row r="2"><c r="A2"><v>1</v></c><c r="B2"><v>2</v></c></row></sheetData></worksheet>',
    },
  ]);
}

/** The first page's size in points, as pdfinfo reports it. */
function pageSize(pdf: string): [number, number] {
  const match = /^Page size:\s+([\d.]+) x ([\d.]+) pts/m.exec(execFileSync('pdfinfo', [pdf], { encoding: 'utf8' }));
  return [Number(match?.[1]), Number(match?.[2])];
}

const A4: [number, number] = [595.3, 841.9];
const LETTER: [number, number] = [612, 792];

async function expectPaper(service: RunningService, size: [number, number]): Promise<void> {
  for (const input of ['table.csv', 'table.xlsx']) {
    const output = `${input}.pdf`;
    const { status, body } = await service.post('/api/convert', { input, output, format: 'pdf' });
    expect(status, JSON.stringify(body)).toBe(200);
    const [width, height] = pageSize(path.join(service.dir, output));
    expect(width, input).toBeCloseTo(size[0], 0);
    expect(height, input).toBeCloseTo(size[1], 0);
  }
}

/** Each case: the service's locale and flags, and the paper expected. */
const CASES: { name: string; env: NodeJS.ProcessEnv; flags: string[]; size: [number, number]; installedOnly?: boolean }[] = [
  { name: 'A4 by default under zh_CN.UTF-8', env: { LANG: 'zh_CN.UTF-8' }, flags: [], size: A4 },
  { name: 'Letter with --paper letter under C', env: { LANG: 'C' }, flags: ['--paper', 'letter'], size: LETTER },
  { name: 'A4 by default under C', env: { LANG: 'C' }, flags: [], size: A4, installedOnly: true },
  { name: 'Letter by default under en_US.UTF-8', env: { LANG: 'en_US.UTF-8' }, flags: [], size: LETTER, installedOnly: true },
  { name: 'A4 with DOCWASM_PAPER=a4 under en_US.UTF-8', env: { LANG: 'en_US.UTF-8', DOCWASM_PAPER: 'a4' }, flags: [], size: A4, installedOnly: true },
];

describe.each(backendsUnderTest())('the paper of documents that set none (%s office)', { timeout: WASM_TEST_TIMEOUT_MS }, (backend) => {
  // Each WebAssembly service costs an office start (10–60 s): two cases there, all of them installed.
  describe.each(CASES.filter((c) => backend === 'libreoffice' || !c.installedOnly))('$name', ({ env, flags, size }) => {
    let service: RunningService;
    beforeAll(async () => {
      service = await startService(['--document-backend', backend, ...flags], { LC_ALL: '', LC_PAPER: '', LC_CTYPE: '', DOCWASM_PAPER: '', ...env });
      fs.writeFileSync(path.join(service.dir, 'table.csv'), 'a,b\n1,2\n');
      fs.writeFileSync(path.join(service.dir, 'table.xlsx'), xlsxWithoutPageSetup());
      await waitForOfficeReady(service);
    }, WASM_TEST_TIMEOUT_MS);
    afterAll(async () => {
      await service?.stop();
    });

    it('lays a CSV and an .xlsx without page setup out on that paper', async () => {
      await expectPaper(service, size);
    });
  });
});
