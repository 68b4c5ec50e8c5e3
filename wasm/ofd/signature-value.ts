// Does a signature value verify? The signer's public key is read from its X.509 certificate (DER,
// walked with node-forge: SM2 certificates are not ones forge's own certificate reader knows);
// SM2 with SM3 is checked by sm-crypto (with the standard's default signer ID,
// 1234567812345678), RSA and ECDSA by Node's crypto. Whether the certificate chains to a root
// anyone trusts is not judged here.

import crypto from 'node:crypto';
import forge from 'node-forge';
import smCrypto from 'sm-crypto';

const { asn1 } = forge;
type Node = forge.asn1.Asn1;

export const SM2_WITH_SM3 = '1.2.156.10197.1.501';

/** Signature algorithms by OID: SM2 with SM3, and those of RSA and ECDSA a certificate may use. */
const ALGORITHMS: Readonly<Record<string, { name: string; hash: string }>> = {
  [SM2_WITH_SM3]: { name: 'SM2-with-SM3', hash: 'sm3' },
  '1.2.840.113549.1.1.5': { name: 'RSA-SHA1', hash: 'sha1' },
  '1.2.840.113549.1.1.11': { name: 'RSA-SHA256', hash: 'sha256' },
  '1.2.840.113549.1.1.12': { name: 'RSA-SHA384', hash: 'sha384' },
  '1.2.840.113549.1.1.13': { name: 'RSA-SHA512', hash: 'sha512' },
  '1.2.840.10045.4.1': { name: 'ECDSA-SHA1', hash: 'sha1' },
  '1.2.840.10045.4.3.2': { name: 'ECDSA-SHA256', hash: 'sha256' },
  '1.2.840.10045.4.3.3': { name: 'ECDSA-SHA384', hash: 'sha384' },
  '1.2.840.10045.4.3.4': { name: 'ECDSA-SHA512', hash: 'sha512' },
};

/** The algorithm's name for people ('SM2-with-SM3', 'RSA-SHA256' …), or the OID when it is not one known here. */
export const algorithmName = (oid: string): string => ALGORITHMS[oid]?.name ?? oid;

/** node-forge's reader with its options (its type declarations know only `strict`). */
const fromDer = asn1.fromDer as unknown as (bytes: forge.util.ByteBuffer, options: { strict: boolean; decodeBitStrings: boolean }) => Node;
/** DER read as written: BIT STRINGs kept as bytes (a signature is not an ASN.1 value to open). */
export const parseDer = (der: Uint8Array): Node =>
  fromDer(forge.util.createBuffer(Buffer.from(der).toString('binary')), { strict: false, decodeBitStrings: false });
export const children = (node: Node | undefined): Node[] => (node && Array.isArray(node.value) ? node.value : []);
export const bytesOf = (node: Node | undefined): Uint8Array => (node && typeof node.value === 'string' ? Buffer.from(node.value, 'binary') : new Uint8Array());
export const oidOf = (node: Node | undefined): string =>
  node?.type === asn1.Type.OID && typeof node.value === 'string' ? asn1.derToOid(forge.util.createBuffer(node.value)) : '';
const toDer = (node: Node): Buffer => Buffer.from(asn1.toDer(node).getBytes(), 'binary');

interface Certificate {
  /** The subject's common name (else its whole name as text). */
  subject: string;
  /** SubjectPublicKeyInfo, DER. */
  spki: Buffer;
  /** The key's own bits (an EC point 04‖x‖y for SM2). */
  key: Uint8Array;
}

/** The parts of an X.509 certificate verification needs, or undefined when it cannot be read. */
export function readCertificate(der: Uint8Array): Certificate | undefined {
  try {
    const tbs = children(children(parseDer(der))[0]);
    // An explicit version ([0]) may open the TBSCertificate; subject and key follow issuer and validity.
    const rest = tbs[0]?.tagClass === asn1.Class.CONTEXT_SPECIFIC ? tbs.slice(1) : tbs;
    const [subject, spki] = [rest[4], rest[5]];
    if (!subject || !spki) return undefined;
    return { subject: nameOf(subject), spki: toDer(spki), key: bytesOf(children(spki)[1]).subarray(1) };
  } catch {
    return undefined;
  }
}

function nameOf(name: Node): string {
  const parts: string[] = [];
  for (const rdn of children(name))
    for (const attribute of children(rdn)) {
      const [type, value] = children(attribute);
      const text = Buffer.from(typeof value?.value === 'string' ? value.value : '', 'binary').toString(
        value?.type === asn1.Type.BMPSTRING ? 'utf16le' : 'utf8',
      );
      if (oidOf(type) === '2.5.4.3') return text;
      parts.push(text);
    }
  return parts.join(', ');
}

/** Does `signature` over `data` verify with the certificate's key under `algorithm` (an OID)? */
export function verifySignatureValue(algorithm: string, certificate: Certificate, data: Uint8Array, signature: Uint8Array): boolean {
  const known = ALGORITHMS[algorithm];
  if (!known) return false;
  try {
    if (algorithm === SM2_WITH_SM3) return verifySm2(certificate.key, data, signature);
    const key = crypto.createPublicKey({ key: certificate.spki, format: 'der', type: 'spki' });
    return crypto.verify(known.hash, data, key, signature);
  } catch {
    return false;
  }
}

/** SM2 with SM3 (GB/T 32918): the value is DER SEQUENCE { r, s } (or r‖s, 64 bytes, as some writers store it). */
function verifySm2(point: Uint8Array, data: Uint8Array, signature: Uint8Array): boolean {
  let r: Uint8Array;
  let s: Uint8Array;
  if (signature.length === 64) [r, s] = [signature.subarray(0, 32), signature.subarray(32)];
  else {
    const values = children(parseDer(signature));
    if (values.length !== 2) return false;
    [r, s] = values.map(bytesOf) as [Uint8Array, Uint8Array];
  }
  // Integers may carry a leading zero byte (and short ones fewer than 32 bytes): 64 hex digits each.
  const hex = (n: Uint8Array) => Buffer.from(n).toString('hex').replace(/^0+/, '').padStart(64, '0');
  if (hex(r).length > 64 || hex(s).length > 64) return false;
  return smCrypto.sm2.doVerifySignature(Array.from(data), hex(r) + hex(s), Buffer.from(point).toString('hex'), { hash: true });
}
