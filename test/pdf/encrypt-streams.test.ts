// mupdf's encrypt of documents with large streams (set aside and encrypted with Node's AES, see
// wasm/pdf/mupdf-encrypt.ts): every stream reads back, through qpdf and poppler, exactly as it
// was, whichever way it was encrypted; strings stay encrypted by mupdf.

import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EncryptionAlgorithm } from '../../wasm/pdf/engine.js';
import { encryptPdf } from '../../wasm/pdf/mupdf-encrypt.js';
import { readLayout } from '../../wasm/pdf/saved-layout.js';
import { serializePdf } from '../helpers/make-pdf.js';
import { pdfinfo } from '../helpers/pdf-inspect.js';
import { pdfPageTexts, qpdfCheck, requiresPassword } from '../helpers/tools.js';

let dir: string;
const file = (name: string) => path.join(dir, name);

/** Numbers of the fixture's stream objects (serializePdf numbers objects from 1). */
const STREAMS = [5, 6, 7, 8, 9];
const noise = (bytes: number) => randomBytes(bytes).toString('latin1');

/**
 * Two pages: a large raw image, a large image whose dictionary holds a string, small and large
 * (Flate-looking) page contents, a large XMP packet, an Info dictionary with strings.
 */
function fixture(): Buffer {
  const text = 'BT /F1 24 Tf 72 700 Td (Locked away) Tj ET q 100 0 0 100 72 500 cm /Im0 Do Q';
  const longText = `BT /F1 12 Tf 72 650 Td (Second page) Tj ET ${'% filler comment line\n'.repeat(4000)}`;
  const xmp = `<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/">${' '.repeat(80_000)}</x:xmpmeta><?xpacket end="w"?>`;
  const image = (extra: string, bytes: string) =>
    `<< /Type /XObject /Subtype /Image /Width 200 /Height 200 /ColorSpace /DeviceRGB /BitsPerComponent 8${extra} /Length ${bytes.length} >>\nstream\n${bytes}\nendstream`;
  const page = (contents: number) =>
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 10 0 R >> /XObject << /Im0 6 0 R /Im1 7 0 R >> >> /Contents ${contents} 0 R >>`;
  return serializePdf(
    [
      '<< /Type /Catalog /Pages 2 0 R /Metadata 9 0 R >>',
      '<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>',
      page(5),
      page(8),
      `<< /Length ${text.length} >>\nstream\n${text}\nendstream`,
      image('', noise(200 * 200 * 3)),
      image(' /Caption (a string in a stream dictionary)', noise(200 * 200 * 3)),
      `<< /Length ${longText.length} >>\nstream\n${longText}\nendstream`,
      `<< /Type /Metadata /Subtype /XML /Length ${xmp.length} >>\nstream\n${xmp}\nendstream`,
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
      '<< /Title (A locked title) /Author (Ann Author) >>',
    ],
    ' /Info 11 0 R',
  );
}

const rawStream = (name: string, num: number, password?: string) =>
  execFileSync('qpdf', [...(password ? [`--password=${password}`] : []), `--show-object=${num}`, '--raw-stream-data', file(name)]);

/** Returns how many streams were encrypted aside of mupdf. */
function encrypt(output: string, algorithm: EncryptionAlgorithm, userPassword = 'secret', ownerPassword = 'owner'): number {
  const sink = (pdf: Uint8Array) => fs.writeFileSync(file(output), pdf);
  return encryptPdf(new Uint8Array(fs.readFileSync(file('plain.pdf'))), { userPassword, ownerPassword, algorithm }, sink);
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docwasm-encrypt-'));
  fs.writeFileSync(file('plain.pdf'), fixture());
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe.each([
  // AES-256: the raw image, the long page contents and the XMP packet; not the image whose
  // dictionary holds a string, nor the small contents.
  ['aes256', 'AESv3', 3],
  ['aes128', 'AESv2', 0],
] as [EncryptionAlgorithm, string, number][])('mupdf encrypt (%s) of large streams', (algorithm, method, setAside) => {
  const output = `locked-${algorithm}.pdf`;
  let aside: number;
  beforeAll(() => (aside = encrypt(output, algorithm)));

  it(`encrypts ${setAside} streams aside of mupdf`, () => expect(aside).toBe(setAside));

  it('opens with the user or the owner password only, encrypted with the method asked for', () => {
    expect(requiresPassword(file(output))).toBe(true);
    expect(qpdfCheck(file(output), 'secret')).toBe(true);
    expect(qpdfCheck(file(output), 'owner')).toBe(true);
    expect(qpdfCheck(file(output), 'wrong')).toBe(false);
    expect(execFileSync('qpdf', ['--password=secret', '--show-encryption', file(output)]).toString()).toContain(`stream encryption method: ${method}`);
  });

  it('keeps every stream byte for byte', () => {
    for (const num of STREAMS) expect(rawStream(output, num, 'secret').equals(rawStream('plain.pdf', num)), `object ${num}`).toBe(true);
  });

  it('keeps strings and text readable with the password', () => {
    expect(pdfinfo(file(output), { password: 'secret' })).toMatchObject({ Title: 'A locked title', Author: 'Ann Author', Pages: '2' });
    expect(pdfPageTexts(file(output), 'secret')).toEqual(['Locked away', 'Second page']);
  });
});

it('encrypts with a password of non-ASCII characters', () => {
  encrypt('unicode.pdf', 'aes256', 'pässwörd 密码', 'ówner');
  expect(requiresPassword(file('unicode.pdf'))).toBe(true);
  expect(qpdfCheck(file('unicode.pdf'), 'pässwörd 密码')).toBe(true);
  expect(rawStream('unicode.pdf', 6, 'pässwörd 密码').equals(rawStream('plain.pdf', 6))).toBe(true);
});

describe('readLayout', () => {
  it('reads a classic cross-reference table and refuses anything else', () => {
    const plain = new Uint8Array(fs.readFileSync(file('plain.pdf')));
    expect(readLayout(plain)?.sections[0]?.entries).toHaveLength(12);
    execFileSync('qpdf', ['--object-streams=generate', file('plain.pdf'), file('xref-stream.pdf')]);
    expect(readLayout(new Uint8Array(fs.readFileSync(file('xref-stream.pdf'))))).toBeUndefined();
    expect(readLayout(new TextEncoder().encode('not a PDF'))).toBeUndefined();
  });
});
