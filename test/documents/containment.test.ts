// docs/security.md ("Threat model"): documents are untrusted — converting one reads no file but that document
// and makes no network request, whatever its extension; "Runtime": no child inherits the token.
// Each vector points at secrets outside the allowed dir (or at a loopback listener) and is
// converted by a real service under --allow-dir; the output (pdftotext, pdfimages, the text
// itself) must hold no secret, the listener must see no request, and the answer is either a
// clean conversion or INVALID_INPUT. Run once per protection this machine offers, and once with
// LibreOffice in WebAssembly (--document-backend wasm), whose protection is the same on every OS:
// the document alone in an in-memory file system, no network (so no vector is skipped for it).

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { officeProcessesOf, pdfText, waitFor } from '../helpers/documents.js';
import {
  climbingPath,
  docxField,
  fileUrl,
  loopbackListener,
  odpBitmapFill,
  odsCellBackground,
  odsPageBackground,
  odtEmbeddedPng,
  odtEmbeddedSvgLinkingOut,
  odtFrameBackground,
  odtPageBackground,
  odtParagraphBackground,
  rtfField,
  SECRET_PNG_SIZE,
  SECRET_TEXT,
  secretFiles,
  solidPng,
  VISIBLE_TEXT,
  type LoopbackListener,
  type Secrets,
} from '../helpers/hostile-documents.js';
import { usableSandboxModes } from '../helpers/sandboxes.js';
import { startService, tempDir, type ApiResponse, type RunningService } from '../helpers/service.js';
import { waitForOfficeReady, WASM_TEST_TIMEOUT_MS } from '../helpers/wasm-office.js';

interface ImageSize {
  width: number;
  height: number;
}

/** Sizes of the images a PDF draws (pdfimages -list). */
function pdfImageSizes(file: string): ImageSize[] {
  const lines = execFileSync('pdfimages', ['-list', file]).toString().split('\n').slice(2);
  return lines
    .map((line) => line.trim().split(/\s+/))
    .filter((cols) => cols.length > 4)
    .map((cols) => ({ width: Number(cols[3]), height: Number(cols[4]) }));
}

interface Vector {
  name: string;
  /** File name in the allowed dir (its extension is what the service is told). */
  file: string;
  bytes: (secrets: Secrets, listener: LoopbackListener) => Buffer;
  formats: string[];
  /** Blocked by the OS sandbox only: no LibreOffice setting stops it (see README, profile-only hosts). */
  osSandboxOnly?: boolean;
}

const TEXT_FORMATS = ['pdf', 'txt'];

const VECTORS: Vector[] = [
  {
    name: 'ODT page background: file:// PNG',
    file: 'page-png.odt',
    bytes: (s) => odtPageBackground(fileUrl(s.png)),
    formats: TEXT_FORMATS,
    osSandboxOnly: true,
  },
  { name: 'ODT page background: file:// PDF', file: 'page-pdf.odt', bytes: (s) => odtPageBackground(fileUrl(s.pdf)), formats: TEXT_FORMATS },
  {
    name: 'ODT page background: file:// SVG with text',
    file: 'page-svg.odt',
    bytes: (s) => odtPageBackground(fileUrl(s.svg)),
    formats: TEXT_FORMATS,
    osSandboxOnly: true,
  },
  { name: 'ODT page background: relative ../../ path', file: 'page-relative.odt', bytes: (s) => odtPageBackground(climbingPath(s.pdf)), formats: TEXT_FORMATS },
  { name: 'ODT page background: http:// loopback', file: 'page-http.odt', bytes: (_s, l) => odtPageBackground(l.url('bg.png')), formats: TEXT_FORMATS },
  { name: 'ODT paragraph background: file:// PDF', file: 'paragraph-pdf.odt', bytes: (s) => odtParagraphBackground(fileUrl(s.pdf)), formats: TEXT_FORMATS },
  {
    name: 'ODT paragraph background: http:// loopback',
    file: 'paragraph-http.odt',
    bytes: (_s, l) => odtParagraphBackground(l.url('para.png')),
    formats: TEXT_FORMATS,
  },
  { name: 'ODT frame background: file:// PNG', file: 'frame-png.odt', bytes: (s) => odtFrameBackground(fileUrl(s.png)), formats: TEXT_FORMATS },
  {
    name: 'ODT embedding an SVG whose <image> links to file:// PNG',
    file: 'svg-link.odt',
    bytes: (s) => odtEmbeddedSvgLinkingOut(fileUrl(s.png)),
    formats: TEXT_FORMATS,
    osSandboxOnly: true,
  },
  {
    name: 'ODT embedding an SVG whose <image> links to http:// loopback',
    file: 'svg-http.odt',
    bytes: (_s, l) => odtEmbeddedSvgLinkingOut(l.url('svg.png')),
    formats: TEXT_FORMATS,
  },
  { name: 'ODS page background: file:// PDF', file: 'sheet-page.ods', bytes: (s) => odsPageBackground(fileUrl(s.pdf)), formats: ['pdf'] },
  { name: 'ODS cell background: file:// PNG', file: 'sheet-cell.ods', bytes: (s) => odsCellBackground(fileUrl(s.png)), formats: ['pdf'] },
  { name: 'ODS cell background: http:// loopback', file: 'sheet-http.ods', bytes: (_s, l) => odsCellBackground(l.url('cell.png')), formats: ['pdf'] },
  { name: 'ODP bitmap fill: file:// PNG', file: 'slides-fill.odp', bytes: (s) => odpBitmapFill(fileUrl(s.png)), formats: ['pdf'], osSandboxOnly: true },
  { name: 'ODP bitmap fill: http:// loopback', file: 'slides-http.odp', bytes: (_s, l) => odpBitmapFill(l.url('fill.png')), formats: ['pdf'] },
  { name: 'RTF INCLUDEPICTURE of a plain path', file: 'include-path.rtf', bytes: (s) => rtfField(`INCLUDEPICTURE "${s.pdf}" \\\\d`), formats: TEXT_FORMATS },
  {
    name: 'RTF INCLUDEPICTURE of a file:// URL',
    file: 'include-url.rtf',
    bytes: (s) => rtfField(`INCLUDEPICTURE "${fileUrl(s.pdf)}" \\\\d`),
    formats: TEXT_FORMATS,
  },
  {
    name: 'RTF INCLUDEPICTURE split over groups',
    file: 'include-split.rtf',
    bytes: (s) => rtfField(`{INCLUDE}{\\b0 PICTURE} "${s.pdf}"`),
    formats: TEXT_FORMATS,
  },
  {
    name: 'RTF INCLUDEPICTURE of http:// loopback',
    file: 'include-http.rtf',
    bytes: (_s, l) => rtfField(`INCLUDEPICTURE "${l.url('rtf.png')}" \\\\d`),
    formats: TEXT_FORMATS,
  },
  { name: 'RTF INCLUDETEXT of a plain path', file: 'include-text.rtf', bytes: (s) => rtfField(`INCLUDETEXT "${s.txt}"`), formats: TEXT_FORMATS },
  { name: 'RTF INCLUDEPICTURE bytes named .docx', file: 'rtf-named.docx', bytes: (s) => rtfField(`INCLUDEPICTURE "${s.pdf}" \\\\d`), formats: TEXT_FORMATS },
  { name: 'RTF INCLUDEPICTURE bytes named .doc', file: 'rtf-named.doc', bytes: (s) => rtfField(`INCLUDEPICTURE "${s.pdf}" \\\\d`), formats: TEXT_FORMATS },
  { name: 'RTF INCLUDEPICTURE bytes named .odt', file: 'rtf-named.odt', bytes: (s) => rtfField(`INCLUDEPICTURE "${s.pdf}" \\\\d`), formats: TEXT_FORMATS },
  { name: 'DOCX INCLUDEPICTURE field', file: 'include-picture.docx', bytes: (s) => docxField(`INCLUDEPICTURE "${s.pdf}" \\d`), formats: TEXT_FORMATS },
  { name: 'DOCX INCLUDETEXT field', file: 'include-text.docx', bytes: (s) => docxField(`INCLUDETEXT "${s.txt}"`), formats: TEXT_FORMATS },
];

/** The protections to run the vectors under: what this machine offers, the profile alone, and the WebAssembly office. */
const MODES = [...usableSandboxModes((process.env.DOCWASM_TEST_SANDBOXES ?? 'auto,namespace,profile').split(',')), 'wasm'];

describe.each(MODES)('untrusted documents under --allow-dir (--document-sandbox %s)', { timeout: WASM_TEST_TIMEOUT_MS }, (mode) => {
  let service: RunningService;
  let listener: LoopbackListener;
  let secrets: Secrets;
  let root: string;
  const allowed = (name: string) => path.join(root, 'allowed', name);

  beforeAll(async () => {
    root = tempDir('docwasm-containment-');
    fs.mkdirSync(path.join(root, 'allowed'));
    fs.mkdirSync(path.join(root, 'outside'));
    const files = secretFiles(path.join(root, 'outside'));
    for (const [file, bytes] of Object.values(files)) fs.writeFileSync(file, bytes);
    secrets = { png: files.png[0], pdf: files.pdf[0], svg: files.svg[0], txt: files.txt[0] };
    listener = await loopbackListener(files.png[1]);
    const choice = mode === 'auto' ? [] : mode === 'wasm' ? ['--document-backend', 'wasm'] : ['--document-backend', 'libreoffice', '--document-sandbox', mode];
    service = await startService(['--workers', '1', '--allow-dir', path.join(root, 'allowed'), ...choice]);
    await waitForOfficeReady(service);
  }, WASM_TEST_TIMEOUT_MS);

  afterAll(async () => {
    const pid = service?.child.pid;
    await service?.stop();
    if (pid !== undefined) expect(await waitFor(() => officeProcessesOf(pid).length === 0, 5000)).toBe(true);
    await listener?.close();
    for (const dir of [root, service?.dir]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const convert = (input: string, output: string, format: string): Promise<ApiResponse> =>
    service.post('/api/convert', { input: allowed(input), output: allowed(output), format });

  /** A clean conversion (the document's own text, no secret) or INVALID_INPUT with no output. */
  function expectContained(response: ApiResponse, output: string, format: string): void {
    if (response.status !== 200) {
      expect(response.body, JSON.stringify(response.body)).toMatchObject({ success: false, code: 'INVALID_INPUT' });
      expect(fs.existsSync(output)).toBe(false);
      return;
    }
    const text = format === 'pdf' ? pdfText(output) : fs.readFileSync(output, 'utf8');
    expect(text).toContain(VISIBLE_TEXT);
    expect(text).not.toContain(SECRET_TEXT);
    if (format === 'pdf') expect(pdfImageSizes(output)).not.toContainEqual(SECRET_PNG_SIZE);
  }

  it('reports the protection in force in GET /api/health', async () => {
    const { body } = await service.get('/api/health');
    const sandbox = (body.data?.document as { sandbox?: string } | undefined)?.sandbox;
    expect(['bwrap', 'namespace', 'profile', 'wasm']).toContain(sandbox);
    if (mode !== 'auto') expect(sandbox).toBe(mode);
  });

  for (const vector of VECTORS) {
    it.skipIf(mode === 'profile' && vector.osSandboxOnly)(`keeps outside content out: ${vector.name}`, async () => {
      fs.writeFileSync(allowed(vector.file), vector.bytes(secrets, listener));
      const hitsBefore = listener.hits().length;
      for (const format of vector.formats) {
        const output = `${vector.file}.out.${format}`;
        expectContained(await convert(vector.file, output, format), allowed(output), format);
      }
      expect(listener.hits().slice(hitsBefore)).toEqual([]);
    });
  }

  it('refuses RTF content under another extension (judged by content)', async () => {
    for (const name of ['plain-rtf.docx', 'plain-rtf.doc', 'plain-rtf.odt']) {
      fs.writeFileSync(allowed(name), Buffer.from(`{\\rtf1\\ansi ${VISIBLE_TEXT}\\par}\n`, 'latin1'));
      const { status, body } = await convert(name, `${name}.pdf`, 'pdf');
      expect(status).toBe(422);
      expect(body).toMatchObject({ code: 'INVALID_INPUT', error: expect.stringContaining('RTF') });
    }
  });

  it('still converts pictures embedded in the document (positive control)', async () => {
    const picture = { width: 61, height: 37 };
    fs.writeFileSync(allowed('embedded.odt'), odtEmbeddedPng(solidPng(picture.width, picture.height, [20, 120, 220])));
    const { status } = await convert('embedded.odt', 'embedded.pdf', 'pdf');
    expect(status).toBe(200);
    expect(pdfText(allowed('embedded.pdf'))).toContain(VISIBLE_TEXT);
    expect(pdfImageSizes(allowed('embedded.pdf'))).toContainEqual(picture);
  });
});

describe('the token stays with the service (DOCWASM_TOKEN set)', () => {
  const token = `docwasm-test-token-${process.pid}-${Date.now()}`;
  let service: RunningService;

  beforeAll(async () => {
    service = await startService(['--workers', '1'], { DOCWASM_TOKEN: token });
  });
  afterAll(async () => {
    const pid = service?.child.pid;
    await service?.stop();
    if (pid !== undefined) expect(await waitFor(() => officeProcessesOf(pid).length === 0, 5000)).toBe(true);
    if (service) fs.rmSync(service.dir, { recursive: true, force: true });
  });

  it('no LibreOffice process has the token in its environment', async () => {
    fs.writeFileSync(path.join(service.dir, 'note.rtf'), Buffer.from(`{\\rtf1\\ansi ${VISIBLE_TEXT}\\par}\n`, 'latin1'));
    const { status } = await service.post('/api/convert', { input: 'note.rtf', output: 'note.pdf', format: 'pdf' }, { authorization: `Bearer ${token}` });
    expect(status).toBe(200);
    const offices = officeProcessesOf(service.child.pid as number);
    expect(offices.length).toBeGreaterThan(0);
    for (const office of offices) {
      const environ = fs.readFileSync(`/proc/${office.pid}/environ`, 'utf8');
      expect(environ, office.args).not.toContain(token);
      // LibreOffice's own temp files (lu*.tmp) go to the service's dir, not the system's.
      expect(environ.split('\0').find((v) => v.startsWith('TMPDIR='))).toContain(`docwasm-soffice-${service.child.pid}-`);
    }
  });
});
