// PDF forms end to end over HTTP (and once from the CLI): fields listed as the form holds them,
// filled values read back by qpdf (the field dictionaries) and poppler (the drawn text, the
// embedded font), refused values naming their field, and flattening that leaves no AcroForm.

import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM_FIELDS, formPdf } from '../helpers/form-fixtures.js';
import { personalDataPdf } from '../helpers/redact-fixtures.js';
import { allText, decompressed, qpdfJson } from '../helpers/pdf2-checks.js';
import { CLI, leftoverTempFiles, startService, type RunningService } from '../helpers/service.js';
import { qpdfCheck, sha256 } from '../helpers/tools.js';

interface QpdfAcroForm {
  acroform: { hasacroform: boolean; fields: { fullname: string; value: unknown; appearancestate: string }[] };
}

/** Field values as qpdf reads them (radio and checkbox values are names, "/medium"). */
function qpdfValues(file: string): Record<string, unknown> {
  const { acroform } = qpdfJson(file, 'acroform') as unknown as QpdfAcroForm;
  return Object.fromEntries(acroform.fields.map((field) => [field.fullname, field.value]));
}

const hasAcroForm = (file: string) => (qpdfJson(file, 'acroform') as unknown as QpdfAcroForm).acroform.hasacroform;
const embeddedFonts = (file: string) =>
  execFileSync('pdffonts', [file])
    .toString()
    .split('\n')
    .slice(2)
    .filter((line) => / yes +yes +yes /.test(line));

describe('PDF forms over HTTP', () => {
  let service: RunningService;
  const file = (name: string) => path.join(service.dir, name);

  beforeAll(async () => {
    service = await startService();
    fs.writeFileSync(file('form.pdf'), formPdf());
    fs.writeFileSync(file('annotated.pdf'), personalDataPdf());
  });
  afterAll(async () => {
    await service.stop();
  });

  describe('POST /api/pdf/form-fields', () => {
    it('lists every field with its type, value, options, page and read-only flag', async () => {
      const response = await service.post('/api/pdf/form-fields', { input: 'form.pdf' });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body.data?.fields).toEqual(FORM_FIELDS);
    });
  });

  describe('POST /api/pdf/fill', () => {
    it('fills text, checkbox, radio and choice fields; qpdf reads the values back', async () => {
      const values = { fullName: 'Ada Lovelace', agree: true, size: 'medium', country: 'China', colour: 'green' };
      const response = await service.post('/api/pdf/fill', { input: 'form.pdf', output: 'filled.pdf', values });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body.data).toEqual({ filled: Object.keys(values), flattened: false });
      const out = file('filled.pdf');
      expect(qpdfCheck(out)).toBe(true);
      expect(qpdfValues(out)).toMatchObject({
        fullName: 'u:Ada Lovelace',
        agree: '/Yes',
        size: '/medium',
        country: 'u:China',
        colour: 'u:green',
        office: 'u:Head office',
      });
      const listed = await service.post('/api/pdf/form-fields', { input: 'filled.pdf' });
      expect((listed.body.data?.fields as { name: string; value: unknown }[]).map((field) => [field.name, field.value])).toEqual([
        ['fullName', 'Ada Lovelace'],
        ['office', 'Head office'],
        ['agree', true],
        ['size', 'medium'],
        ['country', 'China'],
        ['colour', 'green'],
      ]);
    });

    it('shows CJK values in an embedded font that has the glyphs, and flattens them into findable text', async () => {
      const response = await service.post('/api/pdf/fill', {
        input: 'form.pdf',
        output: 'cjk.pdf',
        values: { fullName: '张三 Zhang', agree: true },
        flatten: true,
      });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      const out = file('cjk.pdf');
      expect(allText(out)).toContain('张三 Zhang');
      expect(embeddedFonts(out).join('\n')).toMatch(/Droid Sans Fallback/);
      expect(hasAcroForm(out)).toBe(false);
    });

    it('refuses unknown names and values a field cannot take, naming the field, writing nothing', async () => {
      const before = sha256(file('form.pdf'));
      const cases: [Record<string, unknown>, string][] = [
        [{ nobody: 'x' }, 'nobody'],
        [{ fullName: 'ok', size: 'huge' }, 'size'],
        [{ agree: 'yes' }, 'agree'],
        [{ fullName: true }, 'fullName'],
        [{ office: 'Branch' }, 'office'],
        [{ country: 'Atlantis' }, 'country'],
        [{ fullName: 'two\nlines' }, 'fullName'],
      ];
      for (const [values, field] of cases) {
        const response = await service.post('/api/pdf/fill', { input: 'form.pdf', output: 'refused.pdf', values });
        expect([response.status, response.body.code], JSON.stringify(values)).toEqual([400, 'VALIDATION_ERROR']);
        expect(response.body.error).toContain(field);
      }
      const empty = await service.post('/api/pdf/fill', { input: 'form.pdf', output: 'refused.pdf', values: {} });
      expect(empty.body.code).toBe('VALIDATION_ERROR');
      expect(fs.existsSync(file('refused.pdf'))).toBe(false);
      expect(leftoverTempFiles(service.dir)).toEqual([]);
      expect(sha256(file('form.pdf'))).toBe(before);
    });
  });

  describe('POST /api/pdf/flatten', () => {
    it('turns fields into page content and leaves no AcroForm', async () => {
      await service.post('/api/pdf/fill', { input: 'form.pdf', output: 'to-flatten.pdf', values: { fullName: 'Grace Hopper', country: 'Germany' } });
      const response = await service.post('/api/pdf/flatten', { input: 'to-flatten.pdf', output: 'flat.pdf' });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body.data).toEqual({ fields: 6, annotations: true });
      const out = file('flat.pdf');
      expect(hasAcroForm(out)).toBe(false);
      const text = allText(out);
      for (const shown of ['Grace Hopper', 'Head office', 'Germany']) expect(text).toContain(shown);
      const listed = await service.post('/api/pdf/form-fields', { input: 'flat.pdf' });
      expect(listed.body.data?.fields).toEqual([]);
    });

    it('keeps annotations as annotations with annotations: false, and bakes them by default', async () => {
      const kept = await service.post('/api/pdf/flatten', { input: 'annotated.pdf', output: 'kept.pdf', annotations: false });
      expect(kept.status, JSON.stringify(kept.body)).toBe(200);
      // The note annotation of the fixture, as qpdf writes its dictionary.
      const annotationsOf = (name: string) => decompressed(file(name)).match(/\/Subtype \/Text\b/g)?.length ?? 0;
      expect(annotationsOf('kept.pdf')).toBe(1);
      expect(hasAcroForm(file('kept.pdf'))).toBe(false);
      const baked = await service.post('/api/pdf/flatten', { input: 'annotated.pdf', output: 'baked.pdf' });
      expect(baked.status).toBe(200);
      expect(annotationsOf('baked.pdf')).toBe(0);
    });

    it('runs from the command line, and fill takes its values as JSON', () => {
      const run = (args: string[]) => spawnSync(process.execPath, [CLI, ...args], { cwd: service.dir, encoding: 'utf8' });
      const filled = run(['pdf', 'fill', 'form.pdf', '-o', 'cli-filled.pdf', '--values', JSON.stringify({ fullName: 'Cli User', agree: true }), '--flatten']);
      expect(filled.status, filled.stderr).toBe(0);
      expect(allText(file('cli-filled.pdf'))).toContain('Cli User');
      const flat = run(['pdf', 'flatten', 'form.pdf', '-o', 'cli-flat.pdf', '--json']);
      expect(flat.status, flat.stderr).toBe(0);
      expect(hasAcroForm(file('cli-flat.pdf'))).toBe(false);
      const listed = run(['pdf', 'form-fields', 'form.pdf', '--json']);
      expect(JSON.parse(listed.stdout)).toMatchObject({ success: true, data: { fields: FORM_FIELDS } });
      const refused = run(['pdf', 'fill', 'form.pdf', '-o', 'cli-bad.pdf', '--values', '{"nobody":"x"}']);
      expect(refused.status).toBe(2);
      expect(refused.stderr).toContain('VALIDATION_ERROR');
    });
  });
});
