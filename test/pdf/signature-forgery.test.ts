// pdf/signatures against forged files (contract, Refinements v0.4 "Signatures"; issue 28 item 1).
// Each forgery is made by byte manipulation of a real file signed by the service with an
// openssl-made .p12, the way the published attacks make them: signature wrapping (SWA),
// incremental saving (ISA) and shadow attacks (test/helpers/pdf-forgery.ts). Every variant is
// also shown to poppler's pdfsig: where pdfsig finds the signature invalid or not over the whole
// document, docwasm must not say valid-and-whole; the ranges docwasm must refuse are also signed
// afresh by a second key ("Mallory", openssl cms) over exactly the bytes they name, so that only
// the range can be what makes them invalid.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../helpers/make-pdf.js';
import {
  appendRevision,
  fillGap,
  lastSignature,
  objectBody,
  objectHolding,
  resign,
  signatureLayouts,
  textStream,
  wrapSignature,
} from '../helpers/pdf-forgery.js';
import { pageText } from '../helpers/pdf-inspect.js';
import { pdfsig } from '../helpers/pdfsig.js';
import { startService, type RunningService } from '../helpers/service.js';

const PASSWORD = 'p12-secret';

/** The hex inside the gap of the file's (only) signature, read by its /ByteRange whatever the layout. */
function signatureGapHex(file: Buffer): string {
  const [b, c] = (/\/ByteRange\s*\[\s*0\s+(\d+)\s+(\d+)/.exec(file.toString('latin1')) ?? []).slice(1).map(Number) as [number, number];
  return file.subarray(b + 1, c - 1).toString('latin1');
}

interface Listed {
  name: string;
  reason: string | null;
  valid: boolean;
  coversWholeDocument: boolean;
  certificate: { subject: string } | null;
}

describe('pdf/signatures on forged signed files', () => {
  let service: RunningService;
  const file = (name: string) => path.join(service.dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: service.dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let signed: Buffer;

  /** Mallory's detached CMS (SHA-256) over `bytes`, made by openssl. */
  const mallorySigns = (bytes: Buffer): Buffer => {
    fs.writeFileSync(file('to-sign.bin'), bytes);
    openssl(
      'cms',
      '-sign',
      '-binary',
      '-nosmimecap',
      '-md',
      'sha256',
      '-outform',
      'DER',
      '-signer',
      'mallory.pem',
      '-inkey',
      'mallory-key.pem',
      '-in',
      'to-sign.bin',
      '-out',
      'mallory.der',
    );
    return fs.readFileSync(file('mallory.der'));
  };

  const sign = async (input: string, output: string, certificate: string, password?: string): Promise<Buffer> => {
    const response = await service.post('/api/pdf/sign', { input, output, certificate, ...(password && { certificatePassword: password }) });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return fs.readFileSync(file(output));
  };

  const listed = async (name: string, bytes: Buffer): Promise<Listed[]> => {
    fs.writeFileSync(file(name), bytes);
    const response = await service.post('/api/pdf/signatures', { input: name });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body.data?.signatures as Listed[];
  };

  /** Our verdict and pdfsig's, [valid, whole] each, for every signature of the file. */
  const verdicts = async (name: string, bytes: Buffer) => {
    const ours = await listed(name, bytes);
    return { ours: ours.map((s) => [s.valid, s.coversWholeDocument]), pdfsig: pdfsig(file(name)).map((s) => [s.valid, s.total]), listed: ours };
  };

  beforeAll(async () => {
    service = await startService();
    fs.writeFileSync(file('contract.pdf'), makePdf({ pages: ['Contract page one', 'Contract page two'] }));
    openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ada-key.pem', '-out', 'ada.pem', '-days', '30', '-subj', '/CN=Ada Signer');
    openssl('pkcs12', '-export', '-inkey', 'ada-key.pem', '-in', 'ada.pem', '-out', 'ada.p12', '-passout', `pass:${PASSWORD}`);
    openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'bob-key.pem', '-out', 'bob.pem', '-days', '30', '-subj', '/CN=Bob Countersigner');
    openssl('pkcs12', '-export', '-inkey', 'bob-key.pem', '-in', 'bob.pem', '-out', 'bob.p12', '-passout', 'pass:');
    openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'mallory-key.pem', '-out', 'mallory.pem', '-days', '30', '-subj', '/CN=Mallory');
    signed = await sign('contract.pdf', 'signed.pdf', 'ada.p12', PASSWORD);
  });
  afterAll(async () => {
    await service.stop();
  });

  it('the genuine file: valid and whole for both readers', async () => {
    const { ours, pdfsig: theirs } = await verdicts('genuine.pdf', signed);
    expect(ours).toEqual([[true, true]]);
    expect(theirs).toEqual([[true, true]]);
  });

  it('signature wrapping (issue 28): a block after /Contents with a new xref at the old startxref offset, new page text and a /Sig skipping the block is not valid', async () => {
    const forged = wrapSignature(signed, objectHolding(signed, 'Contract page one'), 'Pay Mallory 1,000,000 EUR');
    const { ours, pdfsig: theirs } = await verdicts('swa.pdf', forged);
    // The attack is real: both readers show the new text, and the signed bytes are the original ones.
    expect(pageText(file('swa.pdf'), 1)).toContain('Pay Mallory 1,000,000 EUR');
    const [, b, c, d] = lastSignature(forged).ranges;
    expect(Buffer.concat([forged.subarray(0, b), forged.subarray(c, c + d)])).toEqual(
      Buffer.concat([signed.subarray(0, lastSignature(signed).ranges[1]), signed.subarray(lastSignature(signed).ranges[2])]),
    );
    expect(c + d).toBe(forged.length);
    expect(theirs).not.toContainEqual([true, true]);
    expect(ours).toEqual([[false, false]]);
  });

  it.each([
    ['spaces (legal in a PDF hex string, not in a signature gap)', '    '],
    ['a string closed and reopened inside the gap', '>(hidden)<'],
    ['letters that are not hex digits', 'zzzz'],
  ])('non-hex filler in the /Contents padding: %s → not valid', async (_label, filler) => {
    const { ours, pdfsig: theirs } = await verdicts('filler.pdf', fillGap(signed, filler));
    expect(theirs).not.toContainEqual([true, true]);
    expect(ours).toEqual([[false, false]]);
  });

  it("another signer's layout and BER CMS (poppler's pdfsig with NSS): valid and whole; with an update appended, valid and not whole", async () => {
    openssl('pkcs12', '-export', '-inkey', 'ada-key.pem', '-in', 'ada.pem', '-out', 'ada-named.p12', '-passout', 'pass:', '-name', 'ada');
    fs.mkdirSync(file('nss'));
    execFileSync('certutil', ['-N', '--empty-password', '-d', `sql:${file('nss')}`], { stdio: 'pipe' });
    execFileSync('pk12util', ['-i', file('ada-named.p12'), '-d', `sql:${file('nss')}`, '-W', ''], { stdio: 'pipe' });
    // pdfsig signs, then may complain on exit that NSS objects are still in use: judge by the file.
    try {
      execFileSync(
        'pdfsig',
        [file('contract.pdf'), file('poppler-signed.pdf'), '-add-signature', '-nssdir', `sql:${file('nss')}`, '-nick', 'ada', '-reason', 'Signed by poppler'],
        { stdio: 'pipe' },
      );
    } catch {
      // checked below
    }
    const popplerSigned = fs.readFileSync(file('poppler-signed.pdf'));
    // NSS writes the CMS in BER with indefinite lengths.
    expect(Buffer.from(signatureGapHex(popplerSigned).slice(0, 4), 'hex')).toEqual(Buffer.from([0x30, 0x80]));
    const genuine = await verdicts('poppler-genuine.pdf', popplerSigned);
    expect(genuine.pdfsig).toEqual([[true, true]]);
    expect(genuine.ours).toEqual([[true, true]]);
    expect(genuine.listed[0]).toMatchObject({ reason: 'Signed by poppler', certificate: { subject: 'CN=Ada Signer' } });
    const updated = appendRevision(popplerSigned, { [objectHolding(popplerSigned, 'Contract page one')]: textStream('Pay Mallory 1,000,000 EUR') });
    const after = await verdicts('poppler-isa.pdf', updated);
    expect(after.pdfsig).toEqual([[true, false]]);
    expect(after.ours).toEqual([[true, false]]);
  });

  describe('byte ranges signed afresh by Mallory over exactly the bytes they name', () => {
    const ranges = () => lastSignature(signed).ranges;

    it('control: Mallory over the right ranges is valid and whole for both readers (so every refusal below is the range)', async () => {
      const [, b, c, d] = ranges();
      const { ours, pdfsig: theirs, listed: list } = await verdicts('mallory.pdf', resign(signed, `[0 ${b} ${c} ${d}]`, [0, b, c, d], mallorySigns));
      expect(ours).toEqual([[true, true]]);
      expect(theirs).toEqual([[true, true]]);
      expect(list[0]?.certificate?.subject).toBe('CN=Mallory');
    });

    const cases: [string, (r: [number, number, number, number], length: number) => { written: string; signs: [number, number, number, number] }][] = [
      // The gap also holds the dictionary's /M and /Name (unsigned, so free to change); it still runs from `<` to `>`.
      [
        'a gap longer than the /Contents string, ending at the `>` of the dictionary',
        (r, length) => {
          const end = signed.indexOf('>>', r[2], 'latin1') + 1;
          return { written: `[0 ${r[1]} ${end} ${length - end}]`, signs: [0, r[1], end, length - end] };
        },
      ],
      [
        'a gap shorter than the /Contents string',
        (r, length) => ({ written: `[0 ${r[1]} ${r[2] - 6} ${length - r[2] + 6}]`, signs: [0, r[1], r[2] - 6, length - r[2] + 6] }),
      ],

      [
        'a second range ending before the revision ends (the startxref and %%EOF unsigned)',
        (r) => ({ written: `[0 ${r[1]} ${r[2]} ${r[3] - 12}]`, signs: [0, r[1], r[2], r[3] - 12] }),
      ],
      ['overlapping ranges that cover the whole file twice', (_r, length) => ({ written: `[0 ${length} 0 ${length}]`, signs: [0, length, 0, length] })],
      ['a negative length', (r) => ({ written: `[0 ${r[1]} ${r[2]} -1]`, signs: r })],
      // mupdf reads 2^64 + d as d: the digits another reader sees are not the range that was checked.
      [
        'a length past 2^64 that a 64-bit reader wraps to the right one',
        (r) => ({ written: `[0 ${r[1]} ${r[2]} ${(2n ** 64n + BigInt(r[3])).toString()}]`, signs: r }),
      ],
      ['a number too large for any reader', (r) => ({ written: `[0 ${r[1]} ${r[2]} 99999999999999999999]`, signs: r })],
      ['a real number', (r) => ({ written: `[0 ${r[1]}.0 ${r[2]} ${r[3]}]`, signs: r })],
      ['five numbers', (r) => ({ written: `[0 ${r[1]} ${r[2]} ${r[3]} 0]`, signs: r })],
    ];
    // pdfsig (poppler 22.12) calls this one valid and total: it compares only the end of the last
    // range with the file's size, so the unsigned first byte (`%` of `%PDF`) may be anything.
    it('a first range not starting at 0 → not valid (pdfsig: valid and total)', async () => {
      const [, b, c, d] = ranges();
      const { ours } = await verdicts('ranges.pdf', resign(signed, `[1 ${b - 1} ${c} ${d}]`, [1, b - 1, c, d], mallorySigns));
      expect(ours).toEqual([[false, false]]);
    });

    it.each(cases)('%s → not valid', async (_label, make) => {
      const { written, signs } = make(ranges(), signed.length);
      const { ours, pdfsig: theirs } = await verdicts('ranges.pdf', resign(signed, written, signs, mallorySigns));
      expect(theirs).not.toContainEqual([true, true]);
      expect(ours).toEqual([[false, false]]);
    });
  });

  describe('incremental updates after signing (ISA, shadow attacks): valid for the revision signed, never whole', () => {
    it('ISA: an appended revision with a new page content', async () => {
      const forged = appendRevision(signed, { [objectHolding(signed, 'Contract page one')]: textStream('Pay Mallory 1,000,000 EUR') });
      const { ours, pdfsig: theirs } = await verdicts('isa.pdf', forged);
      expect(pageText(file('isa.pdf'), 1)).toContain('Pay Mallory');
      expect(theirs).toEqual([[true, false]]);
      expect(ours).toEqual([[true, false]]);
    });

    it('ISA without xref and trailer (readers find the new object by repair)', async () => {
      const forged = appendRevision(signed, { [objectHolding(signed, 'Contract page one')]: textStream('Pay Mallory 1,000,000 EUR') }, { xref: false });
      const { ours, pdfsig: theirs } = await verdicts('isa-noxref.pdf', forged);
      expect(theirs).not.toContainEqual([true, true]);
      expect(ours).toEqual([[true, false]]);
    });

    it('shadow hide-and-replace: a signed document with an unused object; the update points the page at it', async () => {
      const prepared = appendRevision(makePdf({ pages: ['Contract page one', 'Contract page two'] }), { 40: textStream('Shadow: pay Mallory') });
      fs.writeFileSync(file('prepared.pdf'), prepared);
      const victim = await sign('prepared.pdf', 'shadow-signed.pdf', 'ada.p12', PASSWORD);
      const page = objectHolding(victim, '/Type/Page/');
      const forged = appendRevision(victim, { [page]: objectBody(victim, page).replace(/\/Contents\s*\d+ 0 R/, '/Contents 40 0 R') });
      const { ours, pdfsig: theirs } = await verdicts('shadow.pdf', forged);
      expect(pageText(file('shadow.pdf'), 1)).toContain('Shadow: pay Mallory');
      expect(theirs).toEqual([[true, false]]);
      expect(ours).toEqual([[true, false]]);
    });

    it('the signature dictionary rewritten by an update (same range and /Contents, a new /Reason) is not valid', async () => {
      const layout = lastSignature(signed);
      const body = objectBody(signed, layout.object).replace(/>>$/, '/Reason(Approved: pay Mallory 1,000,000 EUR)>>');
      const { ours, pdfsig: theirs, listed: list } = await verdicts('respoofed.pdf', appendRevision(signed, { [layout.object]: body }));
      expect(theirs).not.toContainEqual([true, true]);
      expect(list[0]?.reason).toBe('Approved: pay Mallory 1,000,000 EUR');
      expect(ours).toEqual([[false, false]]);
    });

    it("a /ByteRange pointing at another signature's /Contents: Ada's dictionary given Bob's range and CMS is not valid", async () => {
      const twice = await sign('signed.pdf', 'twice.pdf', 'bob.p12');
      const [ada, bob] = signatureLayouts(twice);
      if (!ada || !bob) throw new Error('two signatures expected');
      const bobRange = twice
        .subarray(bob.rangeAt, bob.rangeAt + bob.rangeWidth)
        .toString('latin1')
        .trim();
      const body = objectBody(twice, ada.object)
        .replace(/\/ByteRange\[[^\]]*\]/, `/ByteRange${bobRange}`)
        .replace(/\/Contents<[0-9A-F]*>/, `/Contents<${bob.contentsHex}>`);
      const { ours, pdfsig: theirs, listed: list } = await verdicts('borrowed.pdf', appendRevision(twice, { [ada.object]: body }));
      expect(theirs).not.toContainEqual([true, true]);
      expect(list.map((s) => s.name)).toEqual(['Ada Signer', 'Bob Countersigner']);
      expect(ours).toEqual([
        [false, false],
        [true, false],
      ]);
    });
  });
});
