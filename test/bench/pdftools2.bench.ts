// Rows of the PDF tools redact, stamp, forms and sign: redact a 100-page text PDF by pattern (per
// page figure: Debian's mutool has no pattern redaction to compare with), fill + flatten a
// 10-field form (target ≤ 100 ms warm), stamp 100 pages, and sign a ~10 MB PDF against
// `openssl cms -sign` over the same bytes (the CMS alone, without writing a PDF).

import fs from 'node:fs';
import path from 'node:path';
import { makeImagePdf, serializePdf } from '../helpers/make-pdf.js';
import { textFieldsForm } from '../helpers/form-fixtures.js';
import { postOk, runCommand, type BenchSuite } from './harness.js';

/** 100 pages of 40 lines, each line with an e-mail address and a phone number. */
function personalPages(): Buffer {
  const objects = ['<< /Type /Catalog /Pages 2 0 R >>', '', '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'];
  const kids: string[] = [];
  for (let p = 0; p < 100; p++) {
    const lines = Array.from(
      { length: 40 },
      (_, i) => `BT /F1 10 Tf 50 ${760 - i * 18} Td (Line ${i}: write to user${p}.${i}@example.com or call +49 30 1234 ${1000 + i}) Tj ET`,
    ).join('\n');
    kids.push(`${objects.length + 1} 0 R`);
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${objects.length + 2} 0 R >>`);
    objects.push(`<< /Length ${lines.length} >>\nstream\n${lines}\nendstream`);
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.join(' ')}] /Count 100 >>`;
  return serializePdf(objects);
}

const suite: BenchSuite = async ({ service, work }) => {
  const dir = path.join(work, 'pdftools2');
  fs.mkdirSync(dir, { recursive: true });
  process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  const at = (name: string) => path.join(dir, name);
  fs.writeFileSync(at('personal.pdf'), personalPages());
  fs.writeFileSync(at('form.pdf'), textFieldsForm(10));
  fs.writeFileSync(at('ten-mb.pdf'), makeImagePdf(4, 950));
  await runCommand('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    at('key.pem'),
    '-out',
    at('cert.pem'),
    '-days',
    '2',
    '-subj',
    '/CN=Bench',
  ]);
  await runCommand('openssl', ['pkcs12', '-export', '-inkey', at('key.pem'), '-in', at('cert.pem'), '-out', at('bench.p12'), '-passout', 'pass:bench']);
  const values = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`field${i + 1}`, `Value ${i + 1}`]));
  return [
    {
      group: 'pdf',
      name: 'redact 100 text pages by pattern (email, phone; 8,000 matches)',
      ours: () => postOk(service, '/api/pdf/redact', { input: at('personal.pdf'), output: at('redacted.pdf'), patterns: ['email', 'phone'] }),
      iterations: 3,
    },
    {
      group: 'pdf',
      name: 'fill + flatten a 10-field form',
      ours: () => postOk(service, '/api/pdf/fill', { input: at('form.pdf'), output: at('filled.pdf'), values, flatten: true }),
      targetMs: 100,
    },
    {
      group: 'pdf',
      name: 'stamp text on 100 pages',
      ours: () => postOk(service, '/api/pdf/stamp', { input: at('personal.pdf'), output: at('stamped.pdf'), text: 'PAID' }),
    },
    {
      group: 'pdf',
      name: 'sign a 10 MB PDF (PAdES B-B)',
      ours: () =>
        postOk(service, '/api/pdf/sign', { input: at('ten-mb.pdf'), output: at('signed.pdf'), certificate: at('bench.p12'), certificatePassword: 'bench' }),
      native: {
        tool: 'openssl cms -sign',
        run: () =>
          runCommand('openssl', [
            'cms',
            '-sign',
            '-binary',
            '-in',
            at('ten-mb.pdf'),
            '-signer',
            at('cert.pem'),
            '-inkey',
            at('key.pem'),
            '-outform',
            'DER',
            '-md',
            'sha256',
            '-out',
            at('openssl.der'),
          ]),
      },
    },
  ];
};

export default suite;
