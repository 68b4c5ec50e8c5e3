// A file the office left behind is delivered after a stop only when whole (src/installed-office/office-product.ts):
// PDFs written by qpdf and ZIP packages written by LibreOffice, whole and cut short.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { isCompleteProduct } from '../../src/installed-office/office-product.js';
import { documentFixtures, type DocumentFixtures } from '../helpers/documents.js';
import { makePdf } from '../helpers/make-pdf.js';
import { tempDir } from '../helpers/service.js';

let dir: string;
let fx: DocumentFixtures;
const file = (name: string, bytes: Buffer) => {
  const target = path.join(dir, name);
  fs.writeFileSync(target, bytes);
  return target;
};
const cut = (bytes: Buffer, keep: number) => bytes.subarray(0, keep);

beforeAll(async () => {
  dir = tempDir();
  fx = await documentFixtures();
}, 120_000);

describe('isCompleteProduct', () => {
  it('knows a whole PDF from one cut short, at any point', async () => {
    const source = file('source.pdf', makePdf({ pages: ['One', 'Two'] }));
    // Rewritten by qpdf: a PDF as another program writes it.
    execFileSync('qpdf', [source, path.join(dir, 'whole.pdf')]);
    const whole = fs.readFileSync(path.join(dir, 'whole.pdf'));
    expect(await isCompleteProduct(path.join(dir, 'whole.pdf'))).toBe(true);
    for (const keep of [5, 82, Math.floor(whole.length / 2), whole.length - 8])
      expect(await isCompleteProduct(file(`cut-${keep}.pdf`, cut(whole, keep))), `${keep} bytes`).toBe(false);
  });

  it('knows a whole ZIP package (made by LibreOffice) from one cut short', async () => {
    const whole = fs.readFileSync(fx.text[0] as string);
    expect(await isCompleteProduct(file('whole.docx', whole))).toBe(true);
    for (const keep of [4, 82, Math.floor(whole.length / 2), whole.length - 30])
      expect(await isCompleteProduct(file(`cut-${keep}.docx`, cut(whole, keep))), `${keep} bytes`).toBe(false);
  });

  it('does not vouch for a format whose end it cannot see, nor for an empty file', async () => {
    expect(await isCompleteProduct(file('plain.txt', Buffer.from('Converted text\n')))).toBe(false);
    expect(await isCompleteProduct(file('empty.pdf', Buffer.alloc(0)))).toBe(false);
  });
});
