// Chinese documents come out of LibreOffice in WebAssembly on as many pages as out of the
// installed LibreOffice (issue 42 item 4: a 273-page docx took 325). The documents are Word
// documents as Chinese users write them (fixtures/office-fidelity-cjk/, made by python-docx): their
// East Asian face named 宋体 or 微软雅黑, which neither office has. The WebAssembly office set
// their lines in Noto Sans's line height (its fallback for an unknown family) or, once its CJK
// face was named for them, in that face's 1.5 em; the installed office (Debian's, fonts-wqy-zenhei)
// in DejaVu Sans's 1.16 em with WenQuanYi Zen Hei's glyphs. Pages are counted by pdfinfo; the
// installed office runs as `soffice --convert-to pdf`, not through docwasm.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfinfo } from '../helpers/pdf-inspect.js';
import { ROOT, startService, tempDir, type RunningService } from '../helpers/service.js';
import { runSoffice, SOFFICE } from '../helpers/soffice.js';
import { WASM_TEST_TIMEOUT_MS, waitForOfficeReady } from '../helpers/wasm-office.js';

const CJK = path.join(ROOT, 'fixtures/office-fidelity-cjk');
/** 宋体 at 12 pt (13 pages installed; 16 before), and 微软雅黑 at 10.5 pt with tables (10; 12 before). */
const DOCUMENTS = ['cjk-songti-report.docx', 'cjk-yahei-notice.docx'];

const pages = (pdf: string) => Number(pdfinfo(pdf).Pages);

describe.skipIf(!fs.existsSync(SOFFICE))('Chinese documents in the WebAssembly office', () => {
  let service: RunningService;
  const installed = new Map<string, number>();

  beforeAll(async () => {
    service = await startService(['--document-backend', 'wasm', '--timeout', '600', '--office-start-timeout', '900']);
    const work = tempDir('docwasm-cjk-pages-');
    runSoffice(path.join(work, 'profile'), ['--convert-to', 'pdf', '--outdir', work, ...DOCUMENTS.map((name) => path.join(CJK, name))]);
    for (const name of DOCUMENTS) installed.set(name, pages(path.join(work, name.replace(/\.docx$/, '.pdf'))));
    for (const name of DOCUMENTS) fs.copyFileSync(path.join(CJK, name), path.join(service.dir, name));
    await waitForOfficeReady(service);
  }, WASM_TEST_TIMEOUT_MS);
  afterAll(async () => {
    await service?.stop();
  });

  it.each(DOCUMENTS)(
    '%s: as many pages as the installed office gives',
    async (name) => {
      const output = name.replace(/\.docx$/, '.pdf');
      const { status, body } = await service.post('/api/convert', { input: name, output, format: 'pdf' });
      expect(status, JSON.stringify(body)).toBe(200);
      // Several pages, so that a line height off by a tenth would show.
      expect(installed.get(name)).toBeGreaterThanOrEqual(8);
      expect(pages(path.join(service.dir, output))).toBe(installed.get(name));
    },
    WASM_TEST_TIMEOUT_MS,
  );
});
