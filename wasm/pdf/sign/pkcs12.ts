// A signing identity from a PKCS#12 file (.p12/.pfx): the private key and its certificate, with
// the chain the file carries. node-forge reads the container (MAC, PBES2/AES or legacy 3DES
// bags); the key is handed to Node's crypto, which signs.

import crypto from 'node:crypto';
import forge from 'node-forge';
import { ApiError } from '../../../core/errors.js';

export interface SigningIdentity {
  privateKey: crypto.KeyObject;
  /** DER of the certificate that matches the key. */
  certificate: Buffer;
  /** DER of the other certificates in the file (the chain), in file order. */
  chain: Buffer[];
}

/** Names the field and, for the command line, the ways that keep the password out of `ps`. */
const CERTIFICATE_PASSWORD_NEEDED =
  'The certificate file is protected by a password: give certificatePassword (command line: DOCWASM_CERTIFICATE_PASSWORD in the environment, or --certificate-password-stdin)';

export function loadIdentity(p12: Uint8Array, password: string | undefined): SigningIdentity {
  const container = openContainer(p12, password ?? '');
  const keyBag = [...bagsOf(container, forge.pki.oids.pkcs8ShroudedKeyBag as string), ...bagsOf(container, forge.pki.oids.keyBag as string)].find(
    (bag) => bag.key,
  );
  if (!keyBag?.key) throw new ApiError('INVALID_INPUT', 'The certificate file holds no private key (or one of a kind other than RSA)');
  const privateKey = crypto.createPrivateKey(forge.pki.privateKeyToPem(keyBag.key));
  const certificates = bagsOf(container, forge.pki.oids.certBag as string).flatMap((bag) =>
    bag.cert ? [Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(bag.cert)).getBytes(), 'binary')] : [],
  );
  const publicKey = crypto.createPublicKey(privateKey).export({ type: 'spki', format: 'der' });
  const certificate = certificates.find((der) => new crypto.X509Certificate(der).publicKey.export({ type: 'spki', format: 'der' }).equals(publicKey));
  if (!certificate) throw new ApiError('INVALID_INPUT', 'The certificate file holds no certificate for its private key');
  return { privateKey, certificate, chain: certificates.filter((der) => der !== certificate) };
}

function openContainer(p12: Uint8Array, password: string): forge.pkcs12.Pkcs12Pfx {
  let asn1: forge.asn1.Asn1;
  try {
    asn1 = forge.asn1.fromDer(forge.util.createBuffer(Buffer.from(p12).toString('binary')));
  } catch {
    throw new ApiError('INVALID_INPUT', 'The certificate is not a PKCS#12 file (.p12/.pfx)');
  }
  try {
    return withKdfBudget(() => forge.pkcs12.pkcs12FromAsn1(asn1, false, password));
  } catch (err) {
    if (err instanceof ApiError) throw err;
    if (/MAC could not be verified|Invalid password|decrypt/i.test((err as Error).message)) {
      throw new ApiError('PASSWORD_REQUIRED', password === '' ? CERTIFICATE_PASSWORD_NEEDED : 'The certificate password is wrong');
    }
    throw new ApiError('INVALID_INPUT', `The certificate file cannot be read (${(err as Error).message})`);
  }
}

/**
 * Key derivation iterations one certificate file may ask for, MAC and every encrypted bag
 * together: three times OpenSSL's `-iter 100000` (its default is 2048; Java's keytool uses
 * 10,000). forge derives keys in JavaScript at about 7 µs an iteration here, so this bounds a file
 * to about 2 s; a file asking 1,000,000 an item took 17 s before it was refused.
 */
const MAX_KDF_ITERATIONS = 300_000;

type Kdf = (...args: unknown[]) => unknown;
/** forge's three key derivations and the position of their iteration count. */
const KDFS: readonly { owner: Record<string, unknown>; name: string; iterationsAt: number }[] = [
  { owner: forge.pkcs12 as unknown as Record<string, unknown>, name: 'generateKey', iterationsAt: 3 },
  { owner: (forge as unknown as { pbe: Record<string, unknown> }).pbe, name: 'generatePkcs12Key', iterationsAt: 3 },
  { owner: forge.pkcs5 as unknown as Record<string, unknown>, name: 'pbkdf2', iterationsAt: 2 },
];

/**
 * Runs `read` with forge's key derivations counting their iterations and refusing, before any
 * work, the one that would pass the budget. forge reads the counts from the file and derives
 * inside pkcs12FromAsn1 (the MAC, then each bag, some only once an outer bag is decrypted), so the
 * count is checked where forge derives, not guessed from the ASN.1 beforehand. The derivations
 * are forge's own shared functions: they are wrapped only while `read` runs (synchronously, in
 * this worker's one thread) and put back after.
 */
function withKdfBudget<T>(read: () => T): T {
  let spent = 0;
  const originals = KDFS.map(({ owner, name }) => owner[name] as Kdf);
  KDFS.forEach(({ owner, name, iterationsAt }, i) => {
    const original = originals[i] as Kdf;
    owner[name] = (...args: unknown[]) => {
      const iterations = Number(args[iterationsAt]);
      spent += Number.isFinite(iterations) && iterations > 0 ? iterations : 0;
      if (spent > MAX_KDF_ITERATIONS) {
        throw new ApiError(
          'INVALID_INPUT',
          `The certificate file asks for more than ${MAX_KDF_ITERATIONS.toLocaleString('en-US')} key-derivation iterations (this item alone: ${iterations.toLocaleString('en-US')}); export it again with fewer (openssl pkcs12 -export -iter 2048)`,
        );
      }
      return original(...args);
    };
  });
  try {
    return read();
  } finally {
    KDFS.forEach(({ owner, name }, i) => {
      owner[name] = originals[i];
    });
  }
}

function bagsOf(container: forge.pkcs12.Pkcs12Pfx, bagType: string): forge.pkcs12.Bag[] {
  return container.getBags({ bagType })[bagType] ?? [];
}
