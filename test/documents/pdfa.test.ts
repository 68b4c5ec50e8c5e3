// The `pdfa` option of /api/convert and /api/convert/batch: LibreOffice's PDF/A export, read
// back with qpdf (the XMP packet, /OutputIntents) and poppler (pdffonts, pdftotext, pdfinfo).

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentFixtures, pdfText, SLIDE_TEXT, TEXT_LINE, type DocumentFixtures } from '../helpers/documents.js';
import { listFonts, pdfinfo, qdfText, qpdfCheckStrict } from '../helpers/pdf-inspect.js';
import { leftoverTempFiles, startService, type RunningService } from '../helpers/service.js';
import { sha256 } from '../helpers/tools.js';

interface BatchData {
  total: number;
  succeeded: number;
  failed: number;
  results: { input: string; success: boolean; outputPath?: string; code?: string }[];
}

/**
 * A PDF/A of that part: XMP pdfaid part and conformance, an output intent, every font embedded.
 * LibreOffice writes its PDF/A-1 as level A (tagged; "OOo generates PDF/A-1a only" in its
 * source), which meets every requirement of level B too; parts 2 and 3 are level B.
 */
function expectPdfa(file: string, part: string): void {
  // QDF: streams uncompressed, no object streams, so the XMP packet reads as text.
  const qdf = qdfText(file);
  expect(qdf).toMatch(new RegExp(`pdfaid:part(?:>|=['"])${part}\\b`));
  expect(qdf).toMatch(part === '1' ? /pdfaid:conformance(?:>|=['"])[AB]\b/ : /pdfaid:conformance(?:>|=['"])B\b/);
  expect(qdf).toMatch(/\/OutputIntents/);
  const fonts = listFonts(file);
  expect(fonts.length).toBeGreaterThan(0);
  expect(fonts.filter((font) => !font.embedded)).toEqual([]);
  expect(qpdfCheckStrict(file).ok).toBe(true);
}

describe('PDF/A export of documents (LibreOffice)', () => {
  let service: RunningService;
  let fx: DocumentFixtures;
  const file = (name: string) => path.join(service.dir, name);
  const inputs = ['text-docx.docx', 'sheet-xlsx.xlsx', 'slides-pptx.pptx'];

  beforeAll(async () => {
    [fx, service] = await Promise.all([documentFixtures(), startService()]);
    fs.mkdirSync(file('in'));
    for (const source of [...fx.text, ...fx.spreadsheet, ...fx.presentation]) {
      if (inputs.includes(path.basename(source))) fs.copyFileSync(source, file(path.join('in', path.basename(source))));
    }
  });

  afterAll(async () => {
    await service?.stop();
    if (service) fs.rmSync(service.dir, { recursive: true, force: true });
  });

  it('/api/convert docx → pdf with pdfa "2b" writes PDF/A-2b: XMP pdfaid 2/B, fonts embedded', async () => {
    const before = sha256(file('in/text-docx.docx'));
    const { status, body } = await service.post('/api/convert', { input: 'in/text-docx.docx', output: 'out/report.pdf', format: 'pdf', pdfa: '2b' });
    expect(status).toBe(200);
    expect(body).toMatchObject({ success: true, outputPath: file('out/report.pdf'), data: { format: 'pdf', backend: 'libreoffice' } });
    expectPdfa(file('out/report.pdf'), '2');
    expect(pdfText(file('out/report.pdf'))).toContain(TEXT_LINE);
    expect(sha256(file('in/text-docx.docx'))).toBe(before);
  });

  it('without pdfa, the same conversion is a plain PDF (no pdfaid)', async () => {
    const { status } = await service.post('/api/convert', { input: 'in/text-docx.docx', output: 'out/plain.pdf', format: 'pdf' });
    expect(status).toBe(200);
    expect(qdfText(file('out/plain.pdf'))).not.toMatch(/pdfaid:part/);
  });

  it('/api/convert/batch with pdfa "1b" writes PDF/A-1 (PDF 1.4) for text, spreadsheet and presentation', async () => {
    const files = inputs.map((name) => `in/${name}`);
    const { status, body } = await service.post('/api/convert/batch', { files, format: 'pdf', outputDir: 'batch', pdfa: '1b' });
    expect(status).toBe(200);
    const data = body.data as unknown as BatchData;
    expect(data).toMatchObject({ total: 3, succeeded: 3, failed: 0 });
    for (const name of inputs) {
      const output = file(path.join('batch', `${path.parse(name).name}.pdf`));
      expectPdfa(output, '1');
      expect(pdfinfo(output)['PDF version']).toBe('1.4');
    }
    expect(pdfText(file('batch/slides-pptx.pdf'))).toContain(SLIDE_TEXT);
    expect(leftoverTempFiles(service.dir)).toEqual([]);
  });

  it('answers VALIDATION_ERROR for pdfa with a format other than pdf, or an unknown level, writing nothing', async () => {
    const bad: [string, Record<string, unknown>][] = [
      ['/api/convert', { input: 'in/text-docx.docx', output: 'bad/report.odt', format: 'odt', pdfa: '2b' }],
      ['/api/convert', { input: 'in/text-docx.docx', output: 'bad/report.docx', format: 'docx', pdfa: '1b' }],
      ['/api/convert', { input: 'in/text-docx.docx', output: 'bad/report.pdf', format: 'pdf', pdfa: '4b' }],
      ['/api/convert', { input: 'in/text-docx.docx', output: 'bad/report.pdf', format: 'pdf', pdfa: 2 }],
      ['/api/convert/batch', { files: ['in/sheet-xlsx.xlsx'], format: 'xlsx', outputDir: 'bad', pdfa: '2b' }],
      ['/api/convert/batch', { files: ['in/sheet-xlsx.xlsx'], format: 'pdf', outputDir: 'bad', pdfa: '2a' }],
    ];
    for (const [route, request] of bad) {
      const { status, body } = await service.post(route, request);
      expect([status, body.code, body.success], `${route} ${JSON.stringify(request)}`).toEqual([400, 'VALIDATION_ERROR', false]);
      if (request.pdfa === '2b' || request.pdfa === '1b') expect(body.error).toMatch(/pdfa/);
    }
    expect(fs.existsSync(file('bad'))).toBe(false);
    expect(leftoverTempFiles(service.dir)).toEqual([]);
  });
});
