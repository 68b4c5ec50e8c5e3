// What one-shot commands print for the data they answer (contract "Refinements (v0.4)"): one
// line a property, form field, signature, page or file, in columns aligned by display width
// (a Chinese character takes two), checked against poppler's pdfinfo and pdfsig; --json
// still prints the envelope.

import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { formPdf } from '../helpers/form-fixtures.js';
import { makePdf } from '../helpers/make-pdf.js';
import { renderText } from '../helpers/ocr-images.js';
import { pdfOfSizes } from '../helpers/pdf-tool-fixtures.js';
import { makeScannedPdf } from '../helpers/scanned-pdf.js';
import { CLI, leftoverTempFiles, tempDir } from '../helpers/service.js';

const SLOW = 180_000;
let dir: string;

function docwasm(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('DOCWASM_')));
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd: dir, env, encoding: 'utf8', timeout: SLOW });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function succeeded(...args: string[]): string[] {
  const run = docwasm(...args);
  expect([run.status, run.stderr]).toEqual([0, '']);
  return run.stdout.trimEnd().split('\n');
}

/** A line as the terminal shows it, a cell a column: CJK ideographs and full-width forms take two (counted here on their own). */
const screen = (line: string): string[] => [...line].flatMap((c) => (/[\u4e00-\u9fff\u3000-\u303f\uff00-\uff60]/u.test(c) ? [c, ''] : [c]));

/** The screen column at which `text` starts on `line`. */
const startColumn = (line: string, text: string): number => screen(line.slice(0, line.indexOf(text))).length;

/** Whether a cell starts at screen column `column` of `line`: a space before it, a character at it. */
const cellStartsAt = (line: string, column: number): boolean => {
  const cells = screen(line);
  return cells[column - 1] === ' ' && cells[column] !== undefined && cells[column] !== ' ';
};

/** The form fixture with its first field named 姓名 and holding 张三 (PDF text strings in UTF-16BE). */
function chineseFormPdf(): Buffer {
  // And "office" holds two lines (a PDF literal string's \n), which must stay on the field's one line.
  const form = formPdf()
    .toString('latin1')
    .replace('/T (fullName) /V ()', '/T <FEFF59D3540D> /V <FEFF5F204E09>')
    .replace('/V (Head office)', '/V (Head\\noffice)');
  return Buffer.from(form, 'latin1');
}

beforeAll(async () => {
  dir = tempDir('docwasm-listings-');
  fs.writeFileSync(
    path.join(dir, 'sizes.pdf'),
    pdfOfSizes([
      [612, 792],
      [612, 792],
      [595, 842],
    ]),
  );
  // The edits moved the objects: qpdf writes the file again with a true cross-reference table.
  fs.writeFileSync(path.join(dir, 'form-edited.pdf'), chineseFormPdf());
  const rewritten = spawnSync('qpdf', ['form-edited.pdf', 'form.pdf'], { cwd: dir, encoding: 'utf8' });
  expect([0, 3], rewritten.stderr).toContain(rewritten.status);
  expect(spawnSync('qpdf', ['--check', 'form.pdf'], { cwd: dir }).status).toBe(0);
  fs.writeFileSync(path.join(dir, 'three.pdf'), makePdf({ pages: ['One', 'Two', 'Three'] }));
  const pages = await Promise.all(
    ['First scanned page', 'Second scanned page'].map(async (text) => ({ image: await renderText(text, { width: 1200 }), dpi: 300 })),
  );
  fs.writeFileSync(path.join(dir, 'scans.pdf'), await makeScannedPdf(pages));
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'key.pem', '-out', 'cert.pem', '-days', '30', '-subj', '/CN=Ada Lovelace/O=Example');
  openssl('pkcs12', '-export', '-inkey', 'key.pem', '-in', 'cert.pem', '-out', 'ada.p12', '-passout', 'pass:');
}, SLOW);

describe('listing commands print their data, one line an item', () => {
  it(
    'pdf info: one line a property, as pdfinfo reads them; page sizes in runs of equal pages',
    () => {
      const lines = succeeded('pdf', 'info', 'sizes.pdf');
      const poppler = execFileSync('pdfinfo', [path.join(dir, 'sizes.pdf')], { encoding: 'utf8' });

      expect(lines[0]).toBe('3 page(s), PDF 1.7');
      const property = (label: string) =>
        lines
          .find((line) => line.startsWith(`${label}:`))
          ?.slice(label.length + 1)
          .trim();
      expect(property('Pages')).toBe(/^Pages:\s+(\d+)/m.exec(poppler)?.[1]);
      expect(property('PDF version')).toBe(/^PDF version:\s+(\S+)/m.exec(poppler)?.[1]);
      expect(property('Encrypted')).toBe('no');
      expect(property('Title')).toBe('-');
      expect(property('Pages 1-2')).toBe('612 × 792 pt');
      expect(property('Page 3')).toBe('595 × 842 pt');
      // Values start in one column.
      expect(new Set(lines.slice(1).map((line) => /^[^:]+:\s+/.exec(line)?.[0].length)).size).toBe(1);
    },
    SLOW,
  );

  it(
    'pdf form-fields: a table, one line a field, Chinese names and values aligned by display width',
    () => {
      const lines = succeeded('pdf', 'form-fields', 'form.pdf');

      expect(lines[0]).toBe('6 form field(s)');
      const [header, ...rows] = lines.slice(1);
      expect(header).toMatch(/^NAME\s+TYPE\s+VALUE\s+OPTIONS\s+PAGE\s+READ-ONLY$/);
      expect(rows).toHaveLength(6);
      expect(rows[0]).toMatch(/^姓名\s+text\s+张三\s+1\s+no$/);
      expect(rows[1]).toMatch(/^office\s+text\s+Head\\noffice\s+1\s+yes$/);
      expect(rows[3]).toMatch(/^size\s+radio\s+-\s+small, medium, large\s+1\s+no$/);
      // Every row's cells start in its header's column, whatever the width of the Chinese name before them.
      for (const label of ['TYPE', 'VALUE', 'PAGE', 'READ-ONLY']) {
        const column = startColumn(header as string, label);
        for (const row of rows) expect(cellStartsAt(row, column), `${label} in ${row}`).toBe(true);
      }
    },
    SLOW,
  );

  it(
    'pdf signatures: one line a signature, as pdfsig sees it',
    () => {
      expect(succeeded('pdf', 'sign', 'sizes.pdf', '-o', 'signed.pdf', '--certificate', 'ada.p12', '--reason', '批准', '--location', 'Beijing')[0]).toMatch(
        /^Signed → /,
      );
      const lines = succeeded('pdf', 'signatures', 'signed.pdf');
      const poppler = spawnSync('pdfsig', [path.join(dir, 'signed.pdf')], { encoding: 'utf8' }).stdout;

      expect(poppler).toMatch(/Signer Certificate Common Name: Ada Lovelace/);
      expect(lines[0]).toBe('1 signature(s), 1 valid, 0 trusted');
      expect(lines[1]).toMatch(/^SIGNER\s+SIGNED AT\s+VALID\s+TRUSTED\s+WHOLE FILE\s+REASON\s+LOCATION\s+CERTIFICATE$/);
      // A self-signed certificate and no --trust-cert: valid, not trusted.
      expect(lines[2]).toMatch(
        /^Ada Lovelace\s+\d{4}-\d\d-\d\dT[\d:.]+Z\s+yes\s+no \(self-signed\)\s+yes\s+批准\s+Beijing\s+Ada Lovelace, issued by Ada Lovelace, until \d{4}-\d\d-\d\d$/,
      );
      expect(startColumn(lines[2] as string, 'Beijing')).toBe(startColumn(lines[1] as string, 'LOCATION'));
      expect(lines).toHaveLength(3);
      expect(succeeded('pdf', 'signatures', 'three.pdf')).toEqual(['0 signature(s), 0 valid, 0 trusted']);
    },
    SLOW,
  );

  it(
    'ocr -o: the engine and confidence, then a line a page',
    () => {
      const lines = succeeded('ocr', 'scans.pdf', '-o', 'scans.txt', '--language', 'eng');

      expect(lines[0]).toMatch(/^Recognised \d+ character\(s\) on 2 page\(s\) → /);
      expect(lines).toContain('Language:   eng');
      expect(lines.find((line) => line.startsWith('Engine:'))).toMatch(/tesseract/);
      const header = lines.findIndex((line) => /^PAGE\s+CHARACTERS\s+CONFIDENCE\s+ENGINE$/.test(line));
      expect(header).toBeGreaterThan(0);
      expect(lines.slice(header + 1).map((line) => line.split(/\s+/)[0])).toEqual(['1', '2']);
      expect(lines[header + 1]).toMatch(/^1\s+1[5-9]\s+\d+\s+tesseract$/);
    },
    SLOW,
  );

  it(
    'pdf split and read -o: the files written and the pages read',
    () => {
      const split = succeeded('pdf', 'split', 'three.pdf', '--pages', '1,2-3', '--output-dir', 'parts');
      expect(split.slice(1)).toEqual([`  Wrote ${path.join(dir, 'parts', 'three_1.pdf')}`, `  Wrote ${path.join(dir, 'parts', 'three_2-3.pdf')}`]);

      const read = succeeded('read', 'three.pdf', '-o', 'three.md');
      expect(read.slice(1)).toEqual(['Pages:       3', 'Read by OCR: none', 'Truncated:   no']);
    },
    SLOW,
  );

  it(
    '--json still prints the envelope alone, for scripts',
    () => {
      const run = docwasm('pdf', 'form-fields', 'form.pdf', '--json');
      expect(run.status).toBe(0);
      const envelope = JSON.parse(run.stdout) as { data: { fields: { name: string; value: unknown }[] } };
      expect(envelope.data.fields[0]).toMatchObject({ name: '姓名', value: '张三' });
      expect(envelope.data.fields[1]).toMatchObject({ name: 'office', value: 'Head\noffice' });
      expect(leftoverTempFiles(dir)).toEqual([]);
    },
    SLOW,
  );
});
