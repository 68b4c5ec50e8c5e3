// pdf/sign and pdf/signatures end to end over HTTP (and from the CLI): certificates made by
// openssl in the test, signatures checked by poppler's pdfsig and by `openssl cms -verify` on
// the CMS cut out of the file, a second signature leaving the first valid, and the service's
// own listing agreeing with them.

import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../helpers/make-pdf.js';
import { CLI, leftoverTempFiles, startService, type RunningService } from '../helpers/service.js';
import { pageText } from '../helpers/pdf-inspect.js';
import { pdfsig } from '../helpers/pdfsig.js';
import { qpdfCheck, sha256 } from '../helpers/tools.js';

const PASSWORD = 'p12-secret';

/** The byte ranges and CMS of every signature, read from the file's bytes (/ByteRange), not with docwasm. */
function signedParts(file: string): { signed: Buffer; cms: Buffer }[] {
  const bytes = fs.readFileSync(file);
  return [...bytes.toString('latin1').matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)].map((m) => {
    const [a, b, c, d] = [m[1], m[2], m[3], m[4]].map(Number) as [number, number, number, number];
    const hex = bytes.subarray(a + b + 1, c - 1).toString('latin1');
    return { signed: Buffer.concat([bytes.subarray(a, a + b), bytes.subarray(c, c + d)]), cms: derOnly(Buffer.from(hex, 'hex')) };
  });
}

/** /Contents is the DER padded with zeros: cut it at the length its header gives (a DER may end in a zero byte). */
function derOnly(padded: Buffer): Buffer {
  const first = padded[1] ?? 0;
  if (first < 0x80) return padded.subarray(0, 2 + first);
  const count = first & 0x7f;
  return padded.subarray(0, 2 + count + padded.subarray(2, 2 + count).reduce((total, byte) => total * 256 + byte, 0));
}

describe('POST /api/pdf/sign and /api/pdf/signatures', () => {
  let service: RunningService;
  const file = (name: string) => path.join(service.dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: service.dir, stdio: ['ignore', 'pipe', 'pipe'] });

  beforeAll(async () => {
    service = await startService();
    fs.writeFileSync(file('contract.pdf'), makePdf({ pages: ['Contract page one', 'Contract page two'] }));
    openssl(
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'key.pem',
      '-out',
      'cert.pem',
      '-days',
      '30',
      '-subj',
      '/CN=Ada Signer/O=Docwasm Tests',
    );
    openssl('pkcs12', '-export', '-inkey', 'key.pem', '-in', 'cert.pem', '-out', 'ada.p12', '-passout', `pass:${PASSWORD}`);
    openssl('req', '-x509', '-newkey', 'rsa:3072', '-nodes', '-keyout', 'key2.pem', '-out', 'cert2.pem', '-days', '30', '-subj', '/CN=Bob Countersigner');
    openssl('pkcs12', '-export', '-inkey', 'key2.pem', '-in', 'cert2.pem', '-out', 'bob.p12', '-passout', 'pass:');
    openssl('pkcs12', '-export', '-inkey', 'key.pem', '-in', 'cert.pem', '-out', 'slow.p12', '-passout', `pass:${PASSWORD}`, '-iter', '1000000');
  });
  afterAll(async () => {
    await service.stop();
  });

  it('signs invisibly with a PAdES signature that pdfsig and openssl cms -verify accept', async () => {
    const response = await service.post('/api/pdf/sign', {
      input: 'contract.pdf',
      output: 'signed.pdf',
      certificate: 'ada.p12',
      certificatePassword: PASSWORD,
      reason: 'Approved',
      location: 'Paris',
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const out = file('signed.pdf');
    expect(qpdfCheck(out)).toBe(true);
    // An incremental update: the original bytes come first, unchanged.
    expect(fs.readFileSync(out).subarray(0, fs.statSync(file('contract.pdf')).size)).toEqual(fs.readFileSync(file('contract.pdf')));
    expect(pdfsig(out)).toEqual([
      { ranges: expect.any(String), total: true, valid: true, hash: 'SHA-256', type: 'ETSI.CAdES.detached', certificate: expect.any(String) },
    ]);
    const [part] = signedParts(out);
    fs.writeFileSync(file('sig.der'), part?.cms ?? Buffer.alloc(0));
    fs.writeFileSync(file('signed-bytes.bin'), part?.signed ?? Buffer.alloc(0));
    openssl(
      'cms',
      '-verify',
      '-binary',
      '-inform',
      'DER',
      '-in',
      'sig.der',
      '-content',
      'signed-bytes.bin',
      '-CAfile',
      'cert.pem',
      '-purpose',
      'any',
      '-out',
      'verified.bin',
    );
    // PAdES B-B: the ESS signing-certificate-v2 attribute is signed, no signing-time attribute.
    const dump = openssl('cms', '-cmsout', '-print', '-inform', 'DER', '-in', 'sig.der').toString();
    expect(dump).toContain('id-smime-aa-signingCertificateV2');
    expect(dump).not.toContain('signingTime');
    expect(pageText(out, 1)).toContain('Contract page one');
  });

  it('adds a visible second signature that keeps the first valid, and lists both', async () => {
    const visible = { page: 2, x: 72, y: 600, width: 220, height: 50 };
    const response = await service.post('/api/pdf/sign', { input: 'signed.pdf', output: 'twice.pdf', certificate: 'bob.p12', visible, name: 'Bob 签名' });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const out = file('twice.pdf');
    const report = pdfsig(out);
    expect(report.map((entry) => [entry.valid, entry.total])).toEqual([
      [true, false],
      [true, true],
    ]);
    expect(pageText(out, 2)).toContain('Bob 签名');
    const listed = await service.post('/api/pdf/signatures', { input: 'twice.pdf' });
    expect(listed.status).toBe(200);
    expect(listed.body.data?.signatures).toEqual([
      expect.objectContaining({
        name: 'Ada Signer',
        reason: 'Approved',
        location: 'Paris',
        valid: true,
        coversWholeDocument: false,
        certificate: expect.objectContaining({ subject: 'CN=Ada Signer, O=Docwasm Tests' }),
      }),
      expect.objectContaining({
        name: 'Bob 签名',
        reason: null,
        valid: true,
        coversWholeDocument: true,
        certificate: expect.objectContaining({ subject: 'CN=Bob Countersigner' }),
      }),
    ]);
    const [first] = (listed.body.data?.signatures as { signedAt: string }[]) ?? [];
    expect(Date.parse(first?.signedAt ?? '')).not.toBeNaN();
  });

  it('reports a signature invalid once the signed bytes change', async () => {
    const bytes = fs.readFileSync(file('signed.pdf'));
    const at = bytes.indexOf('Contract page one');
    bytes.write('Contract page 0ne', at, 'latin1');
    fs.writeFileSync(file('tampered.pdf'), bytes);
    const listed = await service.post('/api/pdf/signatures', { input: 'tampered.pdf' });
    expect(listed.body.data?.signatures).toEqual([expect.objectContaining({ valid: false })]);
    expect(pdfsig(file('tampered.pdf'))[0]?.valid).toBe(false);
    const none = await service.post('/api/pdf/signatures', { input: 'contract.pdf' });
    expect(none.body.data?.signatures).toEqual([]);
  });

  it('answers the contract codes: wrong or missing certificate password, not a PKCS#12, bad page; nothing written', async () => {
    const before = sha256(file('contract.pdf'));
    fs.writeFileSync(file('not.p12'), 'just text\n');
    const cases: [Record<string, unknown>, number, string][] = [
      [{ certificate: 'ada.p12', certificatePassword: 'wrong' }, 422, 'PASSWORD_REQUIRED'],
      [{ certificate: 'ada.p12' }, 422, 'PASSWORD_REQUIRED'],
      [{ certificate: 'not.p12' }, 422, 'INVALID_INPUT'],
      [{ certificate: 'missing.p12' }, 404, 'FILE_NOT_FOUND'],
      // 1,000,000 key-derivation iterations an item: forge took 17 s before this was refused.
      [{ certificate: 'slow.p12', certificatePassword: PASSWORD }, 422, 'INVALID_INPUT'],
      [{ certificate: 'ada.p12', certificatePassword: PASSWORD, visible: { page: 9, x: 0, y: 0, width: 10, height: 10 } }, 422, 'INVALID_PAGE_RANGE'],
      [{ certificate: 'ada.p12', certificatePassword: PASSWORD, visible: { page: 1, x: 0, y: 0, width: 0, height: 10 } }, 400, 'VALIDATION_ERROR'],
    ];
    for (const [extra, status, code] of cases) {
      const response = await service.post('/api/pdf/sign', { input: 'contract.pdf', output: 'bad.pdf', ...extra });
      expect([response.status, response.body.code], JSON.stringify(extra)).toEqual([status, code]);
      expect(response.body.error).not.toContain(PASSWORD);
    }
    expect(fs.existsSync(file('bad.pdf'))).toBe(false);
    expect(leftoverTempFiles(service.dir)).toEqual([]);
    expect(sha256(file('contract.pdf'))).toBe(before);
    expect(service.stderr()).not.toContain(PASSWORD);
  });

  it('refuses a certificate file asking for more key-derivation iterations than the budget, and signs with one at its edge', async () => {
    const refused = await service.post('/api/pdf/sign', { input: 'contract.pdf', output: 'slow.pdf', certificate: 'slow.p12', certificatePassword: PASSWORD });
    expect([refused.status, refused.body.code]).toEqual([422, 'INVALID_INPUT']);
    expect(refused.body.error).toMatch(/more than 300,000 key-derivation iterations \(this item alone: 1,000,000\)/);
    expect(fs.existsSync(file('slow.pdf'))).toBe(false);
    // OpenSSL's -iter 100000: MAC, key bag and certificate bag 100,000 each, 300,000 in all.
    openssl('pkcs12', '-export', '-inkey', 'key.pem', '-in', 'cert.pem', '-out', 'edge.p12', '-passout', `pass:${PASSWORD}`, '-iter', '100000');
    const signed = await service.post('/api/pdf/sign', { input: 'contract.pdf', output: 'edge.pdf', certificate: 'edge.p12', certificatePassword: PASSWORD });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    expect(pdfsig(file('edge.pdf'))[0]?.valid).toBe(true);
  });

  it('runs from the command line with the password from DOCWASM_CERTIFICATE_PASSWORD or stdin', () => {
    const run = (args: string[], env: NodeJS.ProcessEnv = {}, input = '') =>
      spawnSync(process.execPath, [CLI, ...args], { cwd: service.dir, encoding: 'utf8', env: { ...process.env, ...env }, input });
    const fromEnv = run(['pdf', 'sign', 'contract.pdf', '-o', 'cli-env.pdf', '--certificate', 'ada.p12'], { DOCWASM_CERTIFICATE_PASSWORD: PASSWORD });
    expect(fromEnv.status, fromEnv.stderr).toBe(0);
    expect(pdfsig(file('cli-env.pdf'))[0]?.valid).toBe(true);
    const fromStdin = run(
      ['pdf', 'sign', 'contract.pdf', '-o', 'cli-stdin.pdf', '--certificate', 'ada.p12', '--certificate-password-stdin'],
      {},
      `${PASSWORD}\n`,
    );
    expect(fromStdin.status, fromStdin.stderr).toBe(0);
    const listed = run(['pdf', 'signatures', 'cli-stdin.pdf', '--json']);
    expect(JSON.parse(listed.stdout)).toMatchObject({ success: true, data: { signatures: [{ valid: true, coversWholeDocument: true }] } });
  });
});
