// Small, valid inputs for every engine, written into a service's base dir.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { textFieldsForm } from '../helpers/form-fixtures.js';
import { makeImagePdf, makePdf } from '../helpers/make-pdf.js';
import { ENGLISH_TEXT, renderPage, renderText } from '../helpers/ocr-images.js';
import { makeDocx } from './docx.js';

export const FIXTURES = {
  pdf: 'doc.pdf',
  pdf2: 'doc2.pdf',
  jpeg: 'photo.jpg',
  png: 'pic.png',
  ocr: 'words.png',
  docx: 'letter.docx',
  csv: 'table.csv',
  form: 'form.pdf',
  p12: 'signer.p12',
} as const;

/** The password of FIXTURES.p12. */
export const P12_PASSWORD = 'reliability';

export const OCR_TEXT = 'Reliability check 4471';

export async function writeFixtures(dir: string): Promise<void> {
  const write = (name: string, data: Buffer | string) => fs.writeFileSync(path.join(dir, name), data);
  write(FIXTURES.pdf, makePdf({ pages: ['First page', 'Second page', 'Third page'] }));
  write(FIXTURES.pdf2, makePdf({ pages: ['Appendix A', 'Appendix B'] }));
  const noise = { type: 'gaussian' as const, mean: 128, sigma: 40 };
  write(
    FIXTURES.jpeg,
    await sharp({ create: { width: 640, height: 480, channels: 3, background: '#808080', noise } })
      .jpeg({ quality: 90 })
      .toBuffer(),
  );
  write(
    FIXTURES.png,
    await sharp({ create: { width: 320, height: 240, channels: 4, background: { r: 200, g: 40, b: 90, alpha: 0.6 } } })
      .png()
      .toBuffer(),
  );
  write(FIXTURES.ocr, await renderText(OCR_TEXT, { width: 900, points: 14 }));
  write(FIXTURES.docx, makeDocx(['Quarterly report', 'Everything held under load.']));
  write(FIXTURES.csv, 'name,amount\nalpha,1\nbeta,2\n');
  write(FIXTURES.form, textFieldsForm(3));
  // A signing identity made by openssl, as a user's would be.
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  openssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'signer-key.pem',
    '-out',
    'signer-cert.pem',
    '-days',
    '30',
    '-subj',
    '/CN=Reliability Signer',
  );
  openssl('pkcs12', '-export', '-inkey', 'signer-key.pem', '-in', 'signer-cert.pem', '-out', FIXTURES.p12, '-passout', `pass:${P12_PASSWORD}`);
  for (const pem of ['signer-key.pem', 'signer-cert.pem']) fs.rmSync(path.join(dir, pem));
}

/** Inputs that keep each engine busy for many seconds on this class of machine. */
export const HEAVY = {
  pdf: 'heavy.pdf',
  image: 'heavy.png',
  ocr: 'heavy-page.png',
  docx: 'heavy.docx',
} as const;

export async function writeHeavyFixture(dir: string, kind: keyof typeof HEAVY): Promise<string> {
  const file = path.join(dir, HEAVY[kind]);
  if (kind === 'pdf') fs.writeFileSync(file, makeImagePdf(16, 1500));
  if (kind === 'image') {
    const noise = { type: 'gaussian' as const, mean: 128, sigma: 50 };
    fs.writeFileSync(
      file,
      await sharp({ create: { width: 4000, height: 4000, channels: 3, background: '#888888', noise } })
        .png()
        .toBuffer(),
    );
  }
  if (kind === 'ocr')
    fs.writeFileSync(
      file,
      await renderPage(
        Array.from({ length: 24 }, () => ENGLISH_TEXT),
        'latin',
      ),
    );
  if (kind === 'docx') fs.writeFileSync(file, makeDocx(Array.from({ length: 20_000 }, (_, i) => `Paragraph ${i}: ${ENGLISH_TEXT}`)));
  return file;
}
