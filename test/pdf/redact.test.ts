// pdf/redact end to end over HTTP (and once from the CLI): what lies under a redaction is gone
// from the file — pdftotext finds none of it, nor does a grep of every decompressed stream
// (qpdf --qdf) — while the neighbouring words stay, image pixels under an area are blanked, and
// matches leave annotations, form values, bookmarks and metadata.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf, serializePdf } from '../helpers/make-pdf.js';
import { IMAGE_BOX, personalDataPdf, SECRETS } from '../helpers/redact-fixtures.js';
import { allText, decompressed, pixelAt } from '../helpers/pdf2-checks.js';
import { pdfinfo } from '../helpers/pdf-inspect.js';
import { CLI, leftoverTempFiles, startService, type RunningService } from '../helpers/service.js';
import { outlineTitles, qpdfCheck, sha256 } from '../helpers/tools.js';

const ALL_PRESETS = ['email', 'phone', 'credit-card', 'iban', 'cn-id'];

/** Each secret as it would be written in a content stream, and its digits alone (a TJ could split them). */
const needles = (secret: string) => [secret, secret.replace(/ /g, '')];

describe('POST /api/pdf/redact', () => {
  let service: RunningService;
  const file = (name: string) => path.join(service.dir, name);

  beforeAll(async () => {
    service = await startService();
    fs.writeFileSync(file('personal.pdf'), personalDataPdf());
  });
  afterAll(async () => {
    await service.stop();
  });

  it('removes every preset match and an exact phrase from the text, keeping the words around them', async () => {
    const response = await service.post('/api/pdf/redact', { input: 'personal.pdf', output: 'out/presets.pdf', patterns: ALL_PRESETS, text: [SECRETS.phrase] });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.data).toMatchObject({ pages: [1] });
    const out = file('out/presets.pdf');
    expect(qpdfCheck(out)).toBe(true);
    const text = allText(out);
    const raw = decompressed(out);
    for (const secret of Object.values(SECRETS)) {
      for (const needle of needles(secret)) {
        expect(text, `pdftotext still finds ${needle}`).not.toContain(needle);
        expect(raw, `the decompressed file still holds ${needle}`).not.toContain(needle);
      }
    }
    for (const word of [
      'Contact',
      'today',
      'Phone',
      'evenings',
      'Card',
      'valid',
      'IBAN',
      'wired',
      'Resident',
      'here',
      'Secret',
      'launch',
      'Nothing personal here',
    ])
      expect(text).toContain(word);
    // Look-alikes whose check digits fail are not personal data: they stay.
    for (const kept of ['4111 1111 1111 1112', 'DE89 3704 0044 0532 0130 01', '110105194912310021']) expect(text).toContain(kept);
  });

  it('removes matches from annotations, form values, bookmarks and metadata too', async () => {
    const response = await service.post('/api/pdf/redact', { input: 'personal.pdf', output: 'elsewhere.pdf', patterns: ['email'] });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.data).toMatchObject({ removedElsewhere: { annotations: 1, fields: 1, bookmarks: 1, metadata: 1 } });
    const out = file('elsewhere.pdf');
    expect(decompressed(out)).not.toContain('alice');
    expect(pdfinfo(out).Title).toBe('Report for');
    expect(pdfinfo(out).Author).toBe('Records office');
    expect(outlineTitles(out).map((item) => item.title)).toEqual(['About ']);
  });

  it('blanks the image pixels under an area and paints the box in the fill colour; the rest of the image stays', async () => {
    const half = IMAGE_BOX.size / 2;
    const area = { page: 1, x: IMAGE_BOX.x, y: IMAGE_BOX.top, width: half, height: IMAGE_BOX.size };
    const response = await service.post('/api/pdf/redact', { input: 'personal.pdf', output: 'area.pdf', areas: [area], fill: '#00ff00' });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.data).toMatchObject({ redactions: 1, pages: [1] });
    const out = file('area.pdf');
    const imageDir = file('images');
    fs.mkdirSync(imageDir);
    expect(spawnSync('pdfimages', ['-png', out, path.join(imageDir, 'im')]).status).toBe(0);
    const [image] = fs.readdirSync(imageDir);
    const pixel = (x: number) =>
      spawnSync('convert', [path.join(imageDir, image as string), '-format', `%[pixel:p{${x},10}]`, 'info:'], { encoding: 'utf8' }).stdout.trim();
    expect(pixel(2)).not.toBe('srgb(255,0,0)');
    expect(pixel(17)).toBe('srgb(255,0,0)');
    const middle = IMAGE_BOX.top + half;
    expect(pixelAt(out, 1, IMAGE_BOX.x + half / 2, middle)).toBe('srgb(0,255,0)');
    expect(pixelAt(out, 1, IMAGE_BOX.x + half + half / 2, middle)).toBe('srgb(255,0,0)');
    expect(allText(out)).toContain(`Contact ${SECRETS.email} today`);
  });

  it('redacts a plain document with no outline, no Info dictionary and no form', async () => {
    fs.writeFileSync(file('plain.pdf'), makePdf({ pages: ['Mail bob@example.org now', 'Second page'] }));
    const response = await service.post('/api/pdf/redact', { input: 'plain.pdf', output: 'plain-out.pdf', patterns: ['email'] });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.data).toMatchObject({ redactions: 1, pages: [1] });
    const text = allText(file('plain-out.pdf'));
    expect(text).not.toContain('bob@example.org');
    expect(text).toContain('Second page');
  });

  // Many producers space words by moving the pen (a TJ offset), not with a space character;
  // pdftotext reads a gap of 0.14 em as a space, and so must the match: the e-mail pattern once
  // took "orghere" and a glued local part whole.
  it('keeps the words beside a match where the words are spaced by position, not by a space character', async () => {
    fs.writeFileSync(file('glued.pdf'), pdfWithWords(['Second', 'page', 'mail', 'bob@example.org', 'here']));
    expect(allText(file('glued.pdf'))).toContain('Second page mail bob@example.org here');
    for (const [name, patterns] of [
      ['email', ['email']],
      ['regex', ['[a-z]+@[a-z]+\\.[a-z]+']],
    ] as const) {
      const response = await service.post('/api/pdf/redact', { input: 'glued.pdf', output: `glued-${name}.pdf`, patterns });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      const text = allText(file(`glued-${name}.pdf`));
      expect(text, name).not.toContain('bob@example.org');
      expect(text, name).toContain('Second page mail');
      expect(text, name).toContain('here');
    }
  });

  it('answers the contract codes for bad requests, leaving no output and the input as it was', async () => {
    const before = sha256(file('personal.pdf'));
    const cases: [Record<string, unknown>, number, string][] = [
      [{ input: 'personal.pdf', output: 'bad.pdf' }, 400, 'VALIDATION_ERROR'],
      [{ input: 'personal.pdf', output: 'bad.pdf', patterns: ['(unclosed'] }, 400, 'VALIDATION_ERROR'],
      [{ input: 'personal.pdf', output: 'bad.pdf', text: ['x'], fill: 'red' }, 400, 'VALIDATION_ERROR'],
      [{ input: 'personal.pdf', output: 'bad.pdf', areas: [{ page: 1, x: 0, y: 0, width: 0, height: 5 }] }, 400, 'VALIDATION_ERROR'],
      [{ input: 'personal.pdf', output: 'bad.pdf', areas: [{ page: 3, x: 0, y: 0, width: 5, height: 5 }] }, 422, 'INVALID_PAGE_RANGE'],
      [{ input: 'missing.pdf', output: 'bad.pdf', text: ['x'] }, 404, 'FILE_NOT_FOUND'],
    ];
    for (const [body, status, code] of cases) {
      const response = await service.post('/api/pdf/redact', body);
      expect([response.status, response.body.code], JSON.stringify(body)).toEqual([status, code]);
    }
    expect(fs.existsSync(file('bad.pdf'))).toBe(false);
    expect(leftoverTempFiles(service.dir)).toEqual([]);
    expect(sha256(file('personal.pdf'))).toBe(before);
  });

  it('runs from the command line with areas as JSON and presets as repeated options', () => {
    const result = spawnSync(
      process.execPath,
      [
        CLI,
        'pdf',
        'redact',
        'personal.pdf',
        '-o',
        'cli.pdf',
        '--patterns',
        'email',
        '--areas',
        JSON.stringify({ page: 2, x: 0, y: 0, width: 612, height: 100 }),
        '--json',
      ],
      { cwd: service.dir, encoding: 'utf8' },
    );
    expect(result.status, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ success: true, data: { pages: [1, 2] } });
    const text = allText(file('cli.pdf'));
    expect(text).not.toContain(SECRETS.email);
    expect(text).not.toContain('Nothing personal');
  });
});

/** One line of Helvetica words set apart by a TJ offset of 0.14 em and no space character. */
function pdfWithWords(words: string[]): Buffer {
  const line = `BT /F1 12 Tf 72 700 Td [${words.map((word) => `(${word})`).join('-140')}] TJ ET`;
  return serializePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>',
    `<< /Length ${line.length} >>\nstream\n${line}\nendstream`,
  ]);
}
