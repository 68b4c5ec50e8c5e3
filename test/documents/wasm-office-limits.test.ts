// What the one WebAssembly office may be given and how it names itself (docs/security.md,
// docs/documents-backend.md): a package nested far deeper than any document (20,000 sections in
// one another held the office for the whole 120 s --timeout) is refused before the office sees it
// and the office converts the next document at once; health names the LibreOffice inside (as its
// PDFs do) beside the npm package. One office for the file: its start costs 10–60 s here.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENT_FIXTURES, pdfText, TEXT_LINE } from '../helpers/documents.js';
import { ROOT, startService, type RunningService } from '../helpers/service.js';
import { waitForOfficeReady, WASM_TEST_TIMEOUT_MS } from '../helpers/wasm-office.js';
import { makeZip } from '../helpers/zip.js';

const ODF_TEXT = 'application/vnd.oasis.opendocument.text';
const MANIFEST = `<?xml version="1.0" encoding="UTF-8"?>
<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">
 <manifest:file-entry manifest:full-path="/" manifest:media-type="${ODF_TEXT}"/>
 <manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>
</manifest:manifest>
`;

/** An .odt whose body is `depth` sections, each inside the one before, one paragraph in the innermost. */
function nestedSectionsOdt(depth: number): Buffer {
  const open = Array.from({ length: depth }, (_, i) => `<text:section text:name="s${i}">`).join('');
  const content = `<?xml version="1.0" encoding="UTF-8"?>
<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2"><office:body><office:text>${open}<text:p>deep</text:p>${'</text:section>'.repeat(depth)}</office:text></office:body></office:document-content>
`;
  return makeZip([
    { name: 'mimetype', data: ODF_TEXT, deflate: false },
    { name: 'content.xml', data: content },
    { name: 'META-INF/manifest.xml', data: MANIFEST },
  ]);
}

/** A .docx whose body is a table holding a table … `depth` tables deep (Word's tables in cells). */
function nestedTablesDocx(depth: number): Buffer {
  const open = '<w:tbl><w:tr><w:tc>'.repeat(depth);
  const close = '<w:p/></w:tc></w:tr></w:tbl>'.repeat(depth);
  const document = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${open}<w:p><w:r><w:t>deep</w:t></w:r></w:p>${close}</w:body></w:document>`;
  return makeZip([
    {
      name: '[Content_Types].xml',
      data: '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    },
    {
      name: '_rels/.rels',
      data: '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    },
    { name: 'word/document.xml', data: document },
  ]);
}

describe('the WebAssembly office (--document-backend wasm)', { timeout: WASM_TEST_TIMEOUT_MS }, () => {
  let service: RunningService;

  beforeAll(async () => {
    service = await startService(['--document-backend', 'wasm'], { LANG: 'C', LC_ALL: '', LC_PAPER: '' });
    fs.copyFileSync(path.join(DOCUMENT_FIXTURES, 'text-docx.docx'), path.join(service.dir, 'normal.docx'));
    await waitForOfficeReady(service);
  }, WASM_TEST_TIMEOUT_MS);
  afterAll(async () => {
    await service?.stop();
  });

  it('refuses an ODT of 20,000 nested sections before the office sees it, and converts a normal document right after', async () => {
    const odt = nestedSectionsOdt(20_000);
    expect(odt.length).toBeLessThan(200 * 1024);
    fs.writeFileSync(path.join(service.dir, 'deep.odt'), odt);
    const { status, body } = await service.post('/api/convert', { input: 'deep.odt', output: 'deep.pdf', format: 'pdf' });
    expect(status, JSON.stringify(body)).toBe(413);
    expect(body).toMatchObject({ code: 'TOO_LARGE', error: expect.stringContaining('512 levels') });
    expect(fs.existsSync(path.join(service.dir, 'deep.pdf'))).toBe(false);
    const next = await service.post('/api/convert', { input: 'normal.docx', output: 'normal.pdf', format: 'pdf' });
    expect(next.status, JSON.stringify(next.body)).toBe(200);
    expect(pdfText(path.join(service.dir, 'normal.pdf'))).toContain(TEXT_LINE);
  });

  it('refuses a DOCX of tables nested 600 deep, and takes one nested 20 deep', async () => {
    fs.writeFileSync(path.join(service.dir, 'deep.docx'), nestedTablesDocx(600));
    const deep = await service.post('/api/convert', { input: 'deep.docx', output: 'deep.pdf', format: 'pdf' });
    expect(deep.status, JSON.stringify(deep.body)).toBe(413);
    expect(deep.body).toMatchObject({ code: 'TOO_LARGE' });
    fs.writeFileSync(path.join(service.dir, 'nested.docx'), nestedTablesDocx(20));
    const nested = await service.post('/api/convert', { input: 'nested.docx', output: 'nested.pdf', format: 'pdf' });
    expect(nested.status, JSON.stringify(nested.body)).toBe(200);
    expect(pdfText(path.join(service.dir, 'nested.pdf'))).toContain('deep');
  });

  it("names in health the LibreOffice inside (the version its PDFs state) beside the npm package's version", async () => {
    const version = ((await service.get('/api/health')).body.data?.document as { version?: string }).version ?? '';
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules/@matbee/libreoffice-converter/package.json'), 'utf8')) as { version: string };
    expect(version).toMatch(
      new RegExp(`^LibreOffice\\w* \\d+\\.\\d+\\.\\d+[.\\d]*, npm @matbee/libreoffice-converter ${manifest.version.replace(/\./g, '\\.')}$`),
    );
    // pdfinfo's Producer names the same LibreOffice: "LibreOfficeDev 24.8.8.0.0 (x86) / LibreOffice Community".
    const producer = /^Producer:\s+(.*)$/m.exec(execFileSync('pdfinfo', [path.join(service.dir, 'normal.pdf')], { encoding: 'utf8' }))?.[1] ?? '';
    expect(producer.startsWith(version.split(',')[0] as string), `${producer} / ${version}`).toBe(true);
  });
});
