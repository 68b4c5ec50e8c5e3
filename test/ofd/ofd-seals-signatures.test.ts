// OFD seals and signatures (issue 47, CONTRACT v0.5), on ofdrw's signed files (fixtures/ofd/,
// Apache-2.0) and tampered copies made here. Judged by tools that are not docwasm's: the seal's
// red is counted in pdftoppm's picture of its StampAnnot box by ImageMagick; a signature docwasm
// calls valid is verified again by OpenSSL (SM3 digests of the referenced files, the SM2
// signature over the seal's TBS_Sign), and every tampered copy must be reported invalid with the
// problem named.

import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import forge from 'node-forge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeZip } from '../helpers/zip.js';
import { ROOT, startService, tempDir, type RunningService } from '../helpers/service.js';
import type { DocumentSignature } from '../../core/document-signature.js';

const FIXTURES = path.join(ROOT, 'fixtures/ofd');
const run = (tool: string, args: string[], cwd?: string) => execFileSync(tool, args, { encoding: 'utf8', maxBuffer: 1 << 26, cwd });

/** A part's bytes as unzip reads them (exit 1 is unzip's "warnings, completed": ofdrw's packages draw one). */
function unzipPart(file: string, name: string): Buffer {
  const result = spawnSync('unzip', ['-p', file, name], { maxBuffer: 1 << 26 });
  if (result.status !== 0 && result.status !== 1) throw new Error(`unzip -p ${file} ${name} exited ${result.status}`);
  return result.stdout;
}
const partNames = (file: string) =>
  run('unzip', ['-Z1', file])
    .split('\n')
    .filter((n) => n && !n.endsWith('/'));

/** A copy of an OFD with `change` applied to its parts (name → bytes; undefined removes the part). */
function tampered(file: string, change: (name: string, bytes: Buffer) => Buffer | undefined): Buffer {
  return makeZip(
    partNames(file).flatMap((name) => {
      const bytes = change(name, unzipPart(file, name));
      return bytes ? [{ name, data: bytes }] : [];
    }),
  );
}

/** Flips the bits of one byte: at `at` counted from the end when negative. */
function flipByte(bytes: Buffer, at: number): Buffer {
  const copy = Buffer.from(bytes);
  const i = at < 0 ? copy.length + at : at;
  copy[i] = (copy[i] as number) ^ 0xff;
  return copy;
}

/** The StampAnnot of the document's first signature: its page (1-based) and Boundary (mm), read with unzip. */
function stampOf(file: string): { page: number; box: number[] } {
  const signature = unzipPart(file, partNames(file).find((n) => /Sign_0\/Signature\.xml$/i.test(n)) as string).toString('utf8');
  const stamp = /<(?:ofd:)?StampAnnot\b[^>]*>/.exec(signature)?.[0] ?? '';
  const pageId = /PageRef="([^"]+)"/.exec(stamp)?.[1];
  const document = unzipPart(file, 'Doc_0/Document.xml').toString('utf8');
  const pageIds = [...document.matchAll(/<(?:ofd:)?Page\b[^>]*\bID="([^"]+)"/g)].map((m) => m[1]);
  return { page: pageIds.indexOf(pageId) + 1, box: (/Boundary="([^"]+)"/.exec(stamp)?.[1] ?? '').trim().split(/\s+/).map(Number) };
}

/** The share of seal-red pixels (R high, G and B low: not the invoice's brown, 156/82/35) in the stamp's box of the PDF's page, drawn by pdftoppm, counted by ImageMagick. */
function redShare(pdf: string, stamp: { page: number; box: number[] }, dir: string): number {
  const dpi = 150;
  const prefix = path.join(dir, `page-${path.basename(pdf)}`);
  run('pdftoppm', ['-r', String(dpi), '-f', String(stamp.page), '-l', String(stamp.page), '-singlefile', '-png', pdf, prefix]);
  const px = (mm: number) => Math.round((mm / 25.4) * dpi);
  const [x, y, w, h] = stamp.box as [number, number, number, number];
  const crop = `${px(w)}x${px(h)}+${px(x)}+${px(y)}`;
  const share = run('convert', [`${prefix}.png`, '-crop', crop, '+repage', '-fx', 'r>0.75 && g<0.3 && b<0.3 ? 1 : 0', '-format', '%[fx:mean]', 'info:']);
  return Number(share);
}

type Signature = DocumentSignature;

/**
 * OpenSSL's own verdict on an SES_Signature (GB/T 38540 v4) in `value`: the SM2 signature (default
 * signer ID) over TBS_Sign with the certificate the value carries. Offsets come from asn1parse.
 */
function opensslVerifiesSeal(value: Buffer, dir: string): boolean {
  const valueFile = path.join(dir, 'SignedValue.dat');
  fs.writeFileSync(valueFile, value);
  const top = run('openssl', ['asn1parse', '-inform', 'DER', '-in', valueFile])
    .split('\n')
    .map((line) => /^\s*(\d+):d=1\s+hl=\s*(\d+)\s+l=\s*(\d+)\s+\w+:\s*(.+?)\s*(?::|$)/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ offset: Number(m[1]), header: Number(m[2]), length: Number(m[3]), type: (m[4] as string).trim() }));
  const [tbs, cert, , signature] = top as [(typeof top)[number], (typeof top)[number], unknown, (typeof top)[number]];
  fs.writeFileSync(path.join(dir, 'tbs.der'), value.subarray(tbs.offset, tbs.offset + tbs.header + tbs.length));
  fs.writeFileSync(path.join(dir, 'cert.der'), value.subarray(cert.offset + cert.header, cert.offset + cert.header + cert.length));
  // A BIT STRING's first content byte counts unused bits: the signature's DER follows it.
  fs.writeFileSync(path.join(dir, 'sig.der'), value.subarray(signature.offset + signature.header + 1, signature.offset + signature.header + signature.length));
  fs.writeFileSync(path.join(dir, 'pub.pem'), run('openssl', ['x509', '-inform', 'DER', '-in', 'cert.der', '-pubkey', '-noout'], dir));
  const verdict = spawnSync(
    'openssl',
    [
      'pkeyutl',
      '-verify',
      '-pubin',
      '-inkey',
      'pub.pem',
      '-rawin',
      '-in',
      'tbs.der',
      '-sigfile',
      'sig.der',
      '-digest',
      'sm3',
      '-pkeyopt',
      'distid:1234567812345678',
    ],
    { cwd: dir, encoding: 'utf8' },
  );
  return verdict.status === 0 && /Verified Successfully/.test(verdict.stdout);
}

/** OpenSSL's SM3 of every file Signature.xml references equals its CheckValue. */
function opensslDigestsMatch(file: string, signatureXml: string, dir: string): boolean {
  const references = [...signatureXml.matchAll(/FileRef="\/?([^"]+)"[^>]*>\s*<(?:ofd:)?CheckValue>([^<]+)</g)];
  return (
    references.length > 0 &&
    references.every(([, name, recorded]) => {
      const target = path.join(dir, 'part');
      fs.writeFileSync(target, unzipPart(file, name as string));
      return execFileSync('openssl', ['dgst', '-sm3', '-binary', target]).toString('base64') === recorded?.trim();
    })
  );
}

const NS = 'xmlns:ofd="http://www.ofdspec.org/2016"';

/** A one-page OFD (100 × 50 mm) with `layer` as its content and `extra` parts; `signatures` names a Signatures list. */
function ofdPackage(layer: string, extra: { name: string; data: Buffer | string }[] = [], signatures?: string): Buffer {
  return makeZip([
    {
      name: 'OFD.xml',
      data: `<ofd:OFD ${NS} DocType="OFD" Version="1.0"><ofd:DocBody><ofd:DocInfo/><ofd:DocRoot>Doc_0/Document.xml</ofd:DocRoot>${signatures ? `<ofd:Signatures>${signatures}</ofd:Signatures>` : ''}</ofd:DocBody></ofd:OFD>`,
    },
    {
      name: 'Doc_0/Document.xml',
      data: `<ofd:Document ${NS}><ofd:CommonData><ofd:PageArea><ofd:PhysicalBox>0 0 100 50</ofd:PhysicalBox></ofd:PageArea></ofd:CommonData><ofd:Pages><ofd:Page ID="1" BaseLoc="Pages/Page_0/Content.xml"/></ofd:Pages></ofd:Document>`,
    },
    { name: 'Doc_0/Pages/Page_0/Content.xml', data: `<ofd:Page ${NS}><ofd:Content><ofd:Layer ID="2">${layer}</ofd:Layer></ofd:Content></ofd:Page>` },
    ...extra,
  ]);
}

/** A GB/T 38540 v4 SES_Signature (DER, built with node-forge) whose seal picture is `picture` of `type`; certificate and signature are dummies. */
function sesSignature(type: string, picture: Buffer): Buffer {
  const { asn1 } = forge;
  const { Class, Type } = asn1;
  const make = (type: number, value: string | forge.asn1.Asn1[]) => asn1.create(Class.UNIVERSAL, type, Array.isArray(value), value);
  const int = (n: number) => make(Type.INTEGER, asn1.integerToDer(n).getBytes());
  const ia5 = (text: string) => make(Type.IA5STRING, text);
  const time = make(Type.GENERALIZEDTIME, '20260101000000Z');
  const oid = make(Type.OID, asn1.oidToDer('1.2.156.10197.1.501').getBytes());
  const bits = make(Type.BITSTRING, '\0' + 'x'.repeat(64));
  const sealInfo = make(Type.SEQUENCE, [
    make(Type.SEQUENCE, [ia5('ES'), int(4), ia5('test')]),
    ia5('esID'),
    make(Type.SEQUENCE, [int(1), make(Type.UTF8, forge.util.encodeUtf8('测试章')), int(1), make(Type.SEQUENCE, []), time, time, time]),
    make(Type.SEQUENCE, [ia5(type), make(Type.OCTETSTRING, picture.toString('binary')), int(40), int(40)]),
  ]);
  const seal = make(Type.SEQUENCE, [sealInfo, make(Type.OCTETSTRING, 'cert'), oid, bits]);
  const tbs = make(Type.SEQUENCE, [int(4), seal, time, bits, ia5('/Doc_0/Signs/Sign_0/Signature.xml')]);
  return Buffer.from(asn1.toDer(make(Type.SEQUENCE, [tbs, make(Type.OCTETSTRING, 'cert'), oid, bits])).getBytes(), 'binary');
}

/** An OFD whose one signature stamps `stamps` copies of a seal whose picture is the OFD (or other bytes) `picture`. */
function sealedWith(picture: Buffer, stamps: number, type = 'OFD'): Buffer {
  const annots = Array.from({ length: stamps }, (_, i) => `<ofd:StampAnnot ID="${i + 1}" PageRef="1" Boundary="${i % 60} 5 40 40"/>`).join('');
  return ofdPackage(
    '<ofd:TextObject ID="3" Boundary="10 10 80 8" Size="5"><ofd:TextCode X="0" Y="5" DeltaX="g 4 5">sealed</ofd:TextCode></ofd:TextObject>',
    [
      { name: 'Doc_0/Signs/Signatures.xml', data: `<ofd:Signatures ${NS}><ofd:Signature ID="1" Type="Seal" BaseLoc="Sign_0/Signature.xml"/></ofd:Signatures>` },
      {
        name: 'Doc_0/Signs/Sign_0/Signature.xml',
        data: `<ofd:Signature ${NS}><ofd:SignedInfo><ofd:SignatureMethod>1.2.156.10197.1.501</ofd:SignatureMethod><ofd:References CheckMethod="1.2.156.10197.1.401"/>${annots}</ofd:SignedInfo><ofd:SignedValue>SignedValue.dat</ofd:SignedValue></ofd:Signature>`,
      },
      { name: 'Doc_0/Signs/Sign_0/SignedValue.dat', data: sesSignature(type, picture) },
    ],
    '/Doc_0/Signs/Signatures.xml',
  );
}

let service: RunningService;
let scratch: string;

beforeAll(async () => {
  service = await startService();
  scratch = tempDir('ofd-signatures-');
  for (const name of [
    'invoice-v4signed.ofd',
    'invoice-xbrl.ofd',
    'invoice-templates.ofd',
    'sealed.ofd',
    'dashes-glyph-ids.ofd',
    'digital-sign-no-certificate.ofd',
  ])
    fs.copyFileSync(path.join(FIXTURES, name), path.join(service.dir, name));
}, 120_000);

afterAll(async () => {
  await service.stop();
});

const signaturesOf = async (input: string, route: 'read' | 'convert' = 'read'): Promise<Signature[]> => {
  const answer = await service.post(`/api/${route}`, route === 'read' ? { input } : { input, output: `${input}.pdf` });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return (answer.body.data as { signatures: Signature[] }).signatures;
};

describe('seals drawn (GB/T 38540 v1 and v4; pictures PNG and OFD)', () => {
  // invoice-v4signed (ofdrw's 发票示例 as signed) and invoice-xbrl: v4 seals whose picture is an OFD;
  // sealed: a v1 seal with a PNG picture; invoice-templates: a v4 OFD seal on a page of five.
  it.each(['invoice-v4signed.ofd', 'invoice-xbrl.ofd', 'invoice-templates.ofd', 'sealed.ofd'])(
    '%s: the PDF shows the seal in its StampAnnot box (≥ 3 % red pixels, pdftoppm + ImageMagick)',
    async (name) => {
      const answer = await service.post('/api/convert', { input: name, output: `${name}.pdf` });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const pdf = path.join(service.dir, `${name}.pdf`);
      expect(run('qpdf', ['--check', pdf])).toMatch(/No syntax or stream encoding errors found/);
      const share = redShare(pdf, stampOf(path.join(FIXTURES, name)), scratch);
      // Before: 0.13–0.43 % (the invoice's own red lines crossing the box); a seal's ring and star are ~10 %.
      expect(share).toBeGreaterThan(0.03);
    },
    120_000,
  );
});

describe('read shows each seal at its place', () => {
  it('[seal: name] in the Markdown, on the stamped page; digital signatures (no seal) add nothing', async () => {
    const markdown = async (input: string) => {
      const answer = await service.post('/api/read', { input });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      // Markdown escapes the bracket (\[seal: …]): read as text.
      return (answer.body as { text: string }).text.replaceAll('\\[', '[');
    };
    // The invoice's stamp is at its top, below its title: read between the title and the date.
    expect(await markdown('invoice-v4signed.ofd')).toMatch(/电子普通发票[^]*\[seal: 测试全国统一发票监制章国家税务总局重庆市税务局\][^]*开票日期/);
    // sealed.ofd stamps page 2 of 2 (a v1 seal).
    const pages = (await markdown('sealed.ofd')).split('<!-- page 2 -->');
    expect(pages[0]).not.toContain('[seal:');
    expect(pages[1]).toContain('[seal: 某某省人力资源和社会测试章]');
    expect(await markdown('dashes-glyph-ids.ofd')).not.toContain('[seal:');
  }, 120_000);
});

describe('a seal whose picture is an OFD: drawn by the same painter, under the same budgets', () => {
  /** A red ring of `operations` path operations, on a 40 × 40 mm page. */
  const ring = (operations: number) =>
    ofdPackage(
      `<ofd:PathObject ID="3" Boundary="0 0 100 50" Stroke="true" LineWidth="3"><ofd:StrokeColor Value="255 0 0"/><ofd:AbbreviatedData>M 20 5 ${Array.from({ length: operations - 1 }, (_, i) => `L ${(20 + 15 * Math.sin((2 * Math.PI * (i + 1)) / (operations - 1))).toFixed(2)} ${(20 - 15 * Math.cos((2 * Math.PI * (i + 1)) / (operations - 1))).toFixed(2)}`).join(' ')}</ofd:AbbreviatedData></ofd:PathObject>`,
    ).toString('binary');

  it('a seal OFD drawn at every stamp, its cost charged at each: 20 stamps of 30,000 operations draw, 200 (6,000,000) are TOO_LARGE', async () => {
    const picture = Buffer.from(ring(30_000), 'binary');
    fs.writeFileSync(path.join(service.dir, 'seal-20.ofd'), sealedWith(picture, 20));
    const drawn = await service.post('/api/convert', { input: 'seal-20.ofd', output: 'seal-20.pdf' });
    expect(drawn.status, JSON.stringify(drawn.body)).toBe(200);
    const pdf = path.join(service.dir, 'seal-20.pdf');
    expect(redShare(pdf, { page: 1, box: [0, 5, 40, 40] }, scratch)).toBeGreaterThan(0.03);
    fs.writeFileSync(path.join(service.dir, 'seal-200.ofd'), sealedWith(picture, 200));
    const refused = await service.post('/api/convert', { input: 'seal-200.ofd', output: 'seal-200.pdf' });
    expect(refused.status).toBe(413);
    expect(refused.body.code).toBe('TOO_LARGE');
    expect(fs.existsSync(path.join(service.dir, 'seal-200.pdf'))).toBe(false);
  }, 300_000);

  it('a seal OFD that is a zip bomb is TOO_LARGE; one that is not an OFD is left out and the page drawn', async () => {
    const bomb = makeZip([
      { name: 'OFD.xml', data: `<ofd:OFD ${NS}/>` },
      { name: 'Doc_0/big.bin', data: Buffer.alloc(64 * 1024 * 1024) },
    ]);
    fs.writeFileSync(path.join(service.dir, 'seal-bomb.ofd'), sealedWith(bomb, 1));
    const refused = await service.post('/api/convert', { input: 'seal-bomb.ofd', output: 'seal-bomb.pdf' });
    expect(refused.status).toBe(413);
    expect(fs.existsSync(path.join(service.dir, 'seal-bomb.pdf'))).toBe(false);
    fs.writeFileSync(path.join(service.dir, 'seal-junk.ofd'), sealedWith(makeZip([{ name: 'a.txt', data: 'not an OFD' }]), 1));
    const drawn = await service.post('/api/convert', { input: 'seal-junk.ofd', output: 'seal-junk.pdf' });
    expect(drawn.status, JSON.stringify(drawn.body)).toBe(200);
    expect(run('pdftotext', [path.join(service.dir, 'seal-junk.pdf'), '-']).replace(/\s+/g, '')).toContain('sealed');
  }, 300_000);
});

describe('signatures checked (data.signatures)', () => {
  it('an SM2 seal signature (v4) verifies, as OpenSSL verifies it; read and convert both answer it', async () => {
    const file = path.join(FIXTURES, 'invoice-v4signed.ofd');
    const value = unzipPart(file, 'Doc_0/Signs/Sign_0/SignedValue.dat');
    expect(opensslVerifiesSeal(value, scratch)).toBe(true);
    expect(opensslDigestsMatch(file, unzipPart(file, 'Doc_0/Signs/Sign_0/Signature.xml').toString('utf8'), scratch)).toBe(true);
    const expected = {
      id: '1',
      signer: '全国统一发票监制章国家税务总局重庆市税务局',
      sealName: '测试全国统一发票监制章国家税务总局重庆市税务局',
      signedAt: '2020-10-10T15:11:20',
      algorithm: 'SM2-with-SM3',
      valid: true,
      trusted: null,
    };
    expect(await signaturesOf('invoice-v4signed.ofd')).toEqual([expected]);
    expect(await signaturesOf('invoice-v4signed.ofd', 'convert')).toEqual([expected]);
  }, 120_000);

  it('GB/T 35275 (PKCS #7) digital signatures verify too; a seal whose document changed after signing does not', async () => {
    const digital = await signaturesOf('dashes-glyph-ids.ofd');
    expect(digital).toHaveLength(2);
    for (const signature of digital) expect(signature).toMatchObject({ sealName: null, algorithm: 'SM2-with-SM3', valid: true, trusted: null });
    // ofdrw's n.ofd: its Document.xml's SM3 is not the recorded one (OpenSSL agrees: see below).
    const sealed = path.join(FIXTURES, 'sealed.ofd');
    expect(opensslDigestsMatch(sealed, unzipPart(sealed, 'Doc_0/Signs/Sign_0/Signature.xml').toString('utf8'), scratch)).toBe(false);
    expect(await signaturesOf('sealed.ofd')).toEqual([
      expect.objectContaining({ sealName: '某某省人力资源和社会测试章', valid: false, problem: '/Doc_0/Document.xml has changed since signing' }),
    ]);
    // A bare SM2 value carries no certificate: not verifiable, said so.
    expect(await signaturesOf('digital-sign-no-certificate.ofd')).toEqual([
      expect.objectContaining({ valid: false, problem: expect.stringMatching(/no signer certificate/) }),
    ]);
  }, 120_000);

  it('every tampered copy is reported invalid with its problem named', async () => {
    const cases: { name: string; source: string; change: (part: string, bytes: Buffer) => Buffer | undefined; problem: RegExp }[] = [
      {
        name: 'page-byte',
        source: 'invoice-v4signed.ofd',
        // One digit of the first Boundary changed: still well-formed XML, drawn a little elsewhere.
        change: (part, bytes) =>
          part === 'Doc_0/Pages/Page_0/Content.xml'
            ? Buffer.from(bytes.toString('utf8').replace(/Boundary="(\d)/, (_, d: string) => `Boundary="${(Number(d) + 1) % 10}`))
            : bytes,
        problem: /^\/Doc_0\/Pages\/Page_0\/Content\.xml has changed since signing$/,
      },
      {
        name: 'picture-byte',
        source: 'invoice-v4signed.ofd',
        change: (part, bytes) => (part === 'Doc_0/Res/qr.png' ? flipByte(bytes, -20) : bytes),
        problem: /^\/Doc_0\/Res\/qr\.png has changed since signing$/,
      },
      {
        name: 'removed',
        source: 'invoice-v4signed.ofd',
        change: (part, bytes) => (part === 'Doc_0/Tags/CustomTags.xml' ? undefined : bytes),
        problem: /^\/Doc_0\/Tags\/CustomTags\.xml is missing$/,
      },
      {
        name: 'seal-value',
        source: 'invoice-v4signed.ofd',
        change: (part, bytes) => (part.endsWith('SignedValue.dat') ? flipByte(bytes, -5) : bytes),
        problem: /does not verify/,
      },
      {
        name: 'signature-xml',
        source: 'invoice-v4signed.ofd',
        change: (part, bytes) => (part.endsWith('Signature.xml') ? Buffer.from(bytes.toString('utf8').replace('20201010151120', '20201010151121')) : bytes),
        problem: /^Signature\.xml has changed since signing$/,
      },
      {
        name: 'pkcs7-value',
        source: 'dashes-glyph-ids.ofd',
        change: (part, bytes) => (part === 'Doc_0/Signs/Sign_0/SignedValue.dat' ? flipByte(bytes, -5) : bytes),
        problem: /does not verify/,
      },
    ];
    for (const { name, source, change, problem } of cases) {
      const copy = `tampered-${name}.ofd`;
      fs.writeFileSync(path.join(service.dir, copy), tampered(path.join(FIXTURES, source), change));
      const [first] = await signaturesOf(copy);
      expect(first, name).toMatchObject({ valid: false, trusted: null });
      expect(first?.problem, name).toMatch(problem);
    }
    // The OpenSSL oracle agrees on the tampered seal value.
    const broken = flipByte(unzipPart(path.join(FIXTURES, 'invoice-v4signed.ofd'), 'Doc_0/Signs/Sign_0/SignedValue.dat'), -5);
    expect(opensslVerifiesSeal(broken, scratch)).toBe(false);
  }, 300_000);
});
