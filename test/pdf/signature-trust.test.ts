// pdf/signatures tells callers whom to trust (contract, Refinements v0.5; issue 41 items 5 and 9).
// Certificates are made by openssl in the test: a genuine "Trusted Root CA" and Alice under it,
// Mallory's own root with the very same names and her look-alike Alice, a self-signed Alice, an
// Alice whose certificate had expired (and one not yet valid) under the genuine root, and Bob
// under an intermediate CA of the genuine root. Each signs the same PDF with docwasm's pdf/sign
// (a .p12 made by openssl), and the two Alices also with poppler's pdfsig (NSS), whose own verdict
// on them is compared; the service runs with --trust-cert genuine-root.pem. The serial and
// SHA-256 fingerprint answered are compared with `openssl x509`'s. A second field whose /V points
// at the signed dictionary (added by an incremental update written here) is one signature.

import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../helpers/make-pdf.js';
import { appendRevision, lastSignature, objectBody } from '../helpers/pdf-forgery.js';
import { pdfsig } from '../helpers/pdfsig.js';
import { CLI, freePort, startService, tempDir, type RunningService } from '../helpers/service.js';
import { qpdfCheck } from '../helpers/tools.js';

interface Listed {
  name: string;
  valid: boolean;
  coversWholeDocument: boolean;
  trusted: boolean;
  trustProblem?: string;
  certificate: {
    subject: string;
    issuer: string;
    serialNumber: string;
    sha256: string;
    validFrom: string;
    validTo: string;
    selfSigned: boolean;
    notAfter: string;
  } | null;
}

const dir = tempDir('docwasm-trust-');
const at = (name: string) => path.join(dir, name);
const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] }).toString();

const CA_EXTENSIONS = ['-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'];

/** A root CA named `name`, self-signed, valid for ten years. */
function root(file: string, name: string): void {
  openssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    `${file}-key.pem`,
    '-out',
    `${file}.pem`,
    '-days',
    '3650',
    '-subj',
    `/CN=${name}`,
    ...CA_EXTENSIONS,
  );
}

/**
 * A certificate for `subject` issued by `issuer` with `openssl ca`, which takes any start and end
 * date (OpenSSL 3.0's `x509 -req` cannot backdate); `ca` makes it an intermediate CA.
 */
function issue(file: string, subject: string, issuer: string, { start, end, ca = false }: { start: string; end: string; ca?: boolean }): void {
  fs.writeFileSync(
    at('ca.cnf'),
    [
      '[ca]',
      'default_ca = issuer',
      '[issuer]',
      'database = index.txt',
      'new_certs_dir = .',
      'serial = serial.txt',
      'default_md = sha256',
      'policy = any',
      'unique_subject = no',
      'x509_extensions = extensions',
      '[any]',
      'commonName = supplied',
      'organizationName = optional',
      '[extensions]',
      `basicConstraints = critical,CA:${ca ? 'TRUE' : 'FALSE'}`,
      ...(ca ? ['keyUsage = critical,keyCertSign,cRLSign'] : []),
      'subjectKeyIdentifier = hash',
      'authorityKeyIdentifier = keyid',
      '',
    ].join('\n'),
  );
  openssl('req', '-new', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${file}-key.pem`, '-out', `${file}.csr`, '-subj', subject);
  openssl(
    'ca',
    '-batch',
    '-notext',
    '-config',
    'ca.cnf',
    '-cert',
    `${issuer}.pem`,
    '-keyfile',
    `${issuer}-key.pem`,
    '-in',
    `${file}.csr`,
    '-out',
    `${file}.pem`,
    '-startdate',
    start,
    '-enddate',
    end,
  );
}

/** A .p12 of the key and certificate, with `chain` (PEM files) carried along. */
function p12(file: string, chain: string[] = []): void {
  if (chain.length) fs.writeFileSync(at(`${file}-chain.pem`), chain.map((name) => fs.readFileSync(at(`${name}.pem`), 'latin1')).join(''));
  openssl(
    'pkcs12',
    '-export',
    '-inkey',
    `${file}-key.pem`,
    '-in',
    `${file}.pem`,
    '-out',
    `${file}.p12`,
    '-passout',
    'pass:',
    ...(chain.length ? ['-certfile', `${file}-chain.pem`] : []),
  );
}

const ALICE = '/CN=Alice Example/O=Example Ltd';
const NOW_MINUS_YEARS = (years: number) => `${new Date().getUTCFullYear() - years}0101000000Z`;

let service: RunningService;

beforeAll(async () => {
  fs.writeFileSync(at('index.txt'), '');
  fs.writeFileSync(at('serial.txt'), '1001\n');
  root('genuine-root', 'Trusted Root CA');
  issue('alice', ALICE, 'genuine-root', { start: NOW_MINUS_YEARS(1), end: `${new Date().getUTCFullYear() + 2}0101000000Z` });
  // Mallory: her own root, with the genuine one's name, and Alice's name under it.
  root('mallory-root', 'Trusted Root CA');
  issue('mallory-alice', ALICE, 'mallory-root', { start: NOW_MINUS_YEARS(1), end: `${new Date().getUTCFullYear() + 2}0101000000Z` });
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'self-alice-key.pem', '-out', 'self-alice.pem', '-days', '365', '-subj', ALICE);
  issue('expired-alice', ALICE, 'genuine-root', { start: '20200101000000Z', end: '20210101000000Z' });
  issue('future-alice', ALICE, 'genuine-root', { start: '20990101000000Z', end: '20991231000000Z' });
  issue('intermediate', '/CN=Example Issuing CA/O=Example Ltd', 'genuine-root', {
    start: NOW_MINUS_YEARS(1),
    end: `${new Date().getUTCFullYear() + 5}0101000000Z`,
    ca: true,
  });
  issue('bob', '/CN=Bob Example/O=Example Ltd', 'intermediate', { start: NOW_MINUS_YEARS(1), end: `${new Date().getUTCFullYear() + 2}0101000000Z` });
  // Alice's own (not a CA) certificate used to issue one for Mallory: no chain to trust.
  issue('alice-issued', '/CN=Mallory Example', 'alice', { start: NOW_MINUS_YEARS(1), end: `${new Date().getUTCFullYear() + 1}0101000000Z` });
  for (const name of ['alice', 'self-alice', 'expired-alice', 'future-alice']) p12(name);
  p12('mallory-alice', ['mallory-root']);
  p12('bob', ['intermediate']);
  p12('alice-issued', ['alice']);
  fs.writeFileSync(at('contract.pdf'), makePdf({ pages: ['Contract page one'] }));
  service = await startService(['--base-dir', dir, '--trust-cert', 'genuine-root.pem']);
  for (const name of ['alice', 'mallory-alice', 'self-alice', 'expired-alice', 'future-alice', 'bob', 'alice-issued']) {
    const signed = await service.post('/api/pdf/sign', { input: 'contract.pdf', output: `${name}.pdf`, certificate: `${name}.p12` });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
  }
}, 120_000);
afterAll(() => service.stop());

const listed = async (name: string): Promise<Listed[]> => {
  const response = await service.post('/api/pdf/signatures', { input: name });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data?.signatures as Listed[];
};

/** openssl's serial (hex, leading zeros dropped) and SHA-256 fingerprint of a PEM certificate. */
function opensslIdentity(pem: string): { serialNumber: string; sha256: string } {
  const serial = /serial=([0-9A-F]+)/.exec(openssl('x509', '-in', pem, '-noout', '-serial'))?.[1] ?? '';
  const sha256 = /Fingerprint=([0-9A-F:]+)/.exec(openssl('x509', '-in', pem, '-noout', '-fingerprint', '-sha256'))?.[1] ?? '';
  return { serialNumber: serial.replace(/^0+(?=.)/, ''), sha256 };
}

describe('pdf/signatures: whom to trust', () => {
  it("trusts Alice's genuine signature and answers her certificate as openssl reads it", async () => {
    const [alice] = await listed('alice.pdf');
    expect(alice).toMatchObject({ valid: true, trusted: true, coversWholeDocument: true });
    expect(alice).not.toHaveProperty('trustProblem');
    expect(alice?.certificate).toMatchObject({
      subject: 'CN=Alice Example, O=Example Ltd',
      issuer: 'CN=Trusted Root CA',
      selfSigned: false,
      ...opensslIdentity('alice.pem'),
    });
    const dates = openssl('x509', '-in', 'alice.pem', '-noout', '-startdate', '-enddate');
    expect(Date.parse(alice?.certificate?.validFrom ?? '')).toBe(Date.parse(/notBefore=(.*)/.exec(dates)?.[1] ?? ''));
    expect(Date.parse(alice?.certificate?.validTo ?? '')).toBe(Date.parse(/notAfter=(.*)/.exec(dates)?.[1] ?? ''));
    expect(pdfsig(at('alice.pdf'))[0]?.valid).toBe(true);
  });

  it("does not trust Mallory's look-alike: the same subject and issuer names, another root (unknown-issuer)", async () => {
    const [genuine] = await listed('alice.pdf');
    const [lookalike] = await listed('mallory-alice.pdf');
    // Everything a reader of names would compare is the same …
    expect(lookalike?.certificate?.subject).toBe(genuine?.certificate?.subject);
    expect(lookalike?.certificate?.issuer).toBe(genuine?.certificate?.issuer);
    expect(lookalike?.valid).toBe(true);
    // … the fingerprint, the chain and the verdict are not.
    expect(lookalike?.certificate).toMatchObject(opensslIdentity('mallory-alice.pem'));
    expect(lookalike?.certificate?.sha256).not.toBe(genuine?.certificate?.sha256);
    expect(lookalike).toMatchObject({ trusted: false, trustProblem: 'unknown-issuer' });
  });

  it('names self-signed, expired and not-yet-valid certificates, and a chain through a certificate that is no CA', async () => {
    const [self] = await listed('self-alice.pdf');
    expect(self).toMatchObject({
      valid: true,
      trusted: false,
      trustProblem: 'self-signed',
      certificate: { selfSigned: true, ...opensslIdentity('self-alice.pem') },
    });
    const [expired] = await listed('expired-alice.pdf');
    expect(expired).toMatchObject({
      valid: true,
      trusted: false,
      trustProblem: 'expired',
      certificate: { validTo: '2021-01-01T00:00:00.000Z', ...opensslIdentity('expired-alice.pem') },
    });
    const [future] = await listed('future-alice.pdf');
    expect(future).toMatchObject({ valid: true, trusted: false, trustProblem: 'not-yet-valid', certificate: { validFrom: '2099-01-01T00:00:00.000Z' } });
    const [issuedByLeaf] = await listed('alice-issued.pdf');
    expect(issuedByLeaf).toMatchObject({
      valid: true,
      trusted: false,
      trustProblem: 'unknown-issuer',
      certificate: { issuer: 'CN=Alice Example, O=Example Ltd' },
    });
  });

  it('trusts a chain through an intermediate CA the signature carries; an altered signature is never trusted', async () => {
    const [bob] = await listed('bob.pdf');
    expect(bob).toMatchObject({ valid: true, trusted: true, certificate: { issuer: 'CN=Example Issuing CA, O=Example Ltd', ...opensslIdentity('bob.pem') } });
    const bytes = fs.readFileSync(at('alice.pdf'));
    bytes.write('Contract page 0ne', bytes.indexOf('Contract page one'), 'latin1');
    fs.writeFileSync(at('altered.pdf'), bytes);
    const [altered] = await listed('altered.pdf');
    expect(altered).toMatchObject({ valid: false, trusted: false });
  });

  it("agrees with poppler's pdfsig, trusting the genuine root in NSS, on files pdfsig signs: Alice trusted, Mallory's look-alike not", async () => {
    // Each signer's own NSS database holding her key; a third, holding only the genuine root as a
    // trusted CA, is the one pdfsig verifies with. (NSS ties a nickname to a subject: two Alices
    // cannot share one database.)
    const nss = (name: string) => {
      fs.mkdirSync(at(name));
      execFileSync('certutil', ['-N', '--empty-password', '-d', `sql:${at(name)}`], { stdio: 'pipe' });
      return `sql:${at(name)}`;
    };
    execFileSync('certutil', ['-A', '-d', nss('nss-verify'), '-n', 'genuine root', '-t', 'CT,C,C', '-i', at('genuine-root.pem')], { stdio: 'pipe' });
    for (const name of ['alice', 'mallory-alice']) {
      const db = nss(`nss-${name}`);
      openssl('pkcs12', '-export', '-inkey', `${name}-key.pem`, '-in', `${name}.pem`, '-out', `${name}-named.p12`, '-passout', 'pass:', '-name', name);
      execFileSync('pk12util', ['-i', at(`${name}-named.p12`), '-d', db, '-W', ''], { stdio: 'pipe' });
      // pdfsig signs, then may complain on exit that NSS objects are still in use: judge by the file.
      spawnSync('pdfsig', [at('contract.pdf'), at(`poppler-${name}.pdf`), '-add-signature', '-nssdir', db, '-nick', name], { stdio: 'pipe' });
    }
    expect(pdfsig(at('poppler-alice.pdf'), at('nss-verify'))).toEqual([expect.objectContaining({ valid: true, certificate: 'Certificate is Trusted.' })]);
    expect(pdfsig(at('poppler-mallory-alice.pdf'), at('nss-verify'))).toEqual([
      expect.objectContaining({ valid: true, certificate: 'Certificate issuer is unknown.' }),
    ]);
    expect(await listed('poppler-alice.pdf')).toEqual([
      expect.objectContaining({ valid: true, trusted: true, certificate: expect.objectContaining(opensslIdentity('alice.pem')) }),
    ]);
    expect(await listed('poppler-mallory-alice.pdf')).toEqual([
      expect.objectContaining({
        valid: true,
        trusted: false,
        trustProblem: 'unknown-issuer',
        certificate: expect.objectContaining(opensslIdentity('mallory-alice.pem')),
      }),
    ]);
  });

  it('trusts nothing without --trust-cert, and trusts Mallory only when her root is given (DOCWASM_TRUST_CERTS, two files)', async () => {
    const plain = await startService(['--base-dir', dir]);
    try {
      const answer = await plain.post('/api/pdf/signatures', { input: 'alice.pdf' });
      expect(answer.body.data?.signatures).toEqual([expect.objectContaining({ valid: true, trusted: false, trustProblem: 'unknown-issuer' })]);
    } finally {
      await plain.stop();
    }
    const both = await startService(['--base-dir', dir], { DOCWASM_TRUST_CERTS: [at('genuine-root.pem'), at('mallory-root.pem')].join(path.delimiter) });
    try {
      for (const name of ['alice.pdf', 'mallory-alice.pdf']) {
        const answer = await both.post('/api/pdf/signatures', { input: name });
        expect(answer.body.data?.signatures, name).toEqual([expect.objectContaining({ trusted: true })]);
      }
    } finally {
      await both.stop();
    }
  }, 60_000);

  it('refuses at start (exit 2) a --trust-cert file that is missing or not a PEM certificate', async () => {
    const port = String(await freePort());
    fs.writeFileSync(at('not-pem.pem'), 'just text\n');
    fs.writeFileSync(at('broken.pem'), '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n');
    for (const [file, message] of [
      ['missing.pem', /--trust-cert .*missing\.pem cannot be read \(ENOENT\)/],
      ['not-pem.pem', /--trust-cert .*not-pem\.pem holds no PEM certificate/],
      ['broken.pem', /--trust-cert .*broken\.pem holds a PEM block that is not a certificate/],
    ] as const) {
      const run = spawnSync(process.execPath, [CLI, 'serve', '--port', port, '--base-dir', dir, '--trust-cert', file], { encoding: 'utf8', timeout: 60_000 });
      expect(run.status, run.stderr).toBe(2);
      expect(run.stderr).toMatch(message);
    }
  });
});

describe('pdf/signatures: one signature dictionary reached from two fields', () => {
  /** A signed file with an update adding another signature field whose /V is the file's last signature dictionary. */
  function secondFieldOnSameSignature(signed: Buffer): Buffer {
    const text = signed.toString('latin1');
    const signature = lastSignature(signed).object;
    const acroForm = Number([...text.matchAll(/\/AcroForm\s*(\d+) 0 R/g)].at(-1)?.[1]);
    const page = Number([...text.matchAll(/\/P\s*(\d+) 0 R/g)].at(-1)?.[1]);
    const fresh = Number([...text.matchAll(/\/Size\s+(\d+)/g)].at(-1)?.[1]);
    // The new widget is a field of the form and an annotation of the page, as a viewer adds one.
    const form = objectBody(signed, acroForm).replace(/\/Fields\s*\[/, `/Fields[${fresh} 0 R `);
    const pageBody = objectBody(signed, page).replace(/\/Annots\s*\[/, `/Annots[${fresh} 0 R `);
    expect(form).toContain(`${fresh} 0 R`);
    expect(pageBody).toContain(`${fresh} 0 R`);
    return appendRevision(signed, {
      [fresh]: `<</Type/Annot/Subtype/Widget/FT/Sig/T(Copy of the signature)/V ${signature} 0 R/F 132/Rect[0 0 0 0]/P ${page} 0 R>>`,
      [acroForm]: form,
      [page]: pageBody,
    });
  }

  it('lists it once (it was counted twice: "2 signature(s), 2 valid")', async () => {
    fs.writeFileSync(at('two-fields.pdf'), secondFieldOnSameSignature(fs.readFileSync(at('alice.pdf'))));
    expect(qpdfCheck(at('two-fields.pdf'))).toBe(true);
    const response = await service.post('/api/pdf/signatures', { input: 'two-fields.pdf' });
    expect(response.body.message).toBe('1 signature(s), 1 valid, 1 trusted');
    expect(response.body.data?.signatures).toEqual([expect.objectContaining({ valid: true, trusted: true, coversWholeDocument: false })]);
  });

  it('still lists two signatures of two dictionaries, each once, when one of them is also reached from a third field', async () => {
    const countersigned = await service.post('/api/pdf/sign', { input: 'alice.pdf', output: 'alice-bob.pdf', certificate: 'bob.p12' });
    expect(countersigned.status, JSON.stringify(countersigned.body)).toBe(200);
    fs.writeFileSync(at('three-fields.pdf'), secondFieldOnSameSignature(fs.readFileSync(at('alice-bob.pdf'))));
    const signatures = await listed('three-fields.pdf');
    // The new field (on Bob's dictionary, the file's last) comes first on the page: order aside, each once.
    expect(signatures.map((s) => `${s.certificate?.subject} ${s.valid}`).sort()).toEqual([
      'CN=Alice Example, O=Example Ltd true',
      'CN=Bob Example, O=Example Ltd true',
    ]);
  });
});
