// A signing identity from a PKCS#12 file (.p12/.pfx): the private key and its certificate, with
// the chain the file carries. node-forge reads the container (MAC, PBES2/AES or legacy 3DES
// bags); the key is handed to Node's crypto, which signs.

import crypto from 'node:crypto';
import forge from 'node-forge';
import { ApiError } from '../../../src/errors.js';

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
  const keyBag = [...bagsOf(container, forge.pki.oids.pkcs8ShroudedKeyBag as string), ...bagsOf(container, forge.pki.oids.keyBag as string)].find((bag) => bag.key);
  if (!keyBag?.key) throw new ApiError('INVALID_INPUT', 'The certificate file holds no private key (or one of a kind other than RSA)');
  const privateKey = crypto.createPrivateKey(forge.pki.privateKeyToPem(keyBag.key));
  const certificates = bagsOf(container, forge.pki.oids.certBag as string).flatMap((bag) => (bag.cert ? [Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(bag.cert)).getBytes(), 'binary')] : []));
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
    return forge.pkcs12.pkcs12FromAsn1(asn1, false, password);
  } catch (err) {
    if (/MAC could not be verified|Invalid password|decrypt/i.test((err as Error).message)) {
      throw new ApiError('PASSWORD_REQUIRED', password === '' ? CERTIFICATE_PASSWORD_NEEDED : 'The certificate password is wrong');
    }
    throw new ApiError('INVALID_INPUT', `The certificate file cannot be read (${(err as Error).message})`);
  }
}

function bagsOf(container: forge.pkcs12.Pkcs12Pfx, bagType: string): forge.pkcs12.Bag[] {
  return container.getBags({ bagType })[bagType] ?? [];
}
