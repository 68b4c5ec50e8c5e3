// An electronic seal's signature (GB/T 38540, in a signature's SignedValue.dat): SES_Signature in
// its two shapes — v1 (the 2016 draft: TBS_Sign carries the signer's certificate and algorithm,
// then the signature) and v4 (GB/T 38540-2020: TBS_Sign, then certificate, algorithm, signature).
// Both hold the seal (SESeal) with its name and picture (PNG, JPEG, GIF, BMP, or an OFD of its
// own). Parsed with node-forge's DER reader; what is signed (TBS_Sign) is kept as its original
// bytes, since verifying needs them exactly as the signer hashed them.

import forge from 'node-forge';
import { bytesOf, children, oidOf, parseDer } from './signature-value.js';

const { asn1 } = forge;
type Node = forge.asn1.Asn1;

export interface SealPicture {
  /** The type the seal names (PNG, JPG, GIF, BMP, OFD …), upper-cased. */
  type: string;
  bytes: Uint8Array;
}

export interface SesSignature {
  version: 1 | 4;
  sealName: string | undefined;
  picture: SealPicture | undefined;
  /** The DER of TBS_Sign, as stored: what the signature value signs. */
  signed: Uint8Array;
  /** SM3 (or the algorithm's digest) of Signature.xml, as the signer recorded it. */
  dataHash: Uint8Array;
  /** The signer's X.509 certificate (DER). */
  certificate: Uint8Array;
  /** The signature algorithm's OID (1.2.156.10197.1.501 for SM2 with SM3). */
  algorithm: string;
  signature: Uint8Array;
}

/** The picture of a seal file (Seal.esl: an SESeal, v1 or v4), or undefined when it holds none. */
export function parseSealFile(der: Uint8Array): SealPicture | undefined {
  const root = parse(der);
  return root ? picture(children(children(root)[0])[3]) : undefined;
}

function parse(der: Uint8Array): Node | undefined {
  try {
    return parseDer(der);
  } catch {
    return undefined;
  }
}

/** The seal signature in `der`, or undefined when it is not an SES_Signature (a plain digital signature, say). */
export function parseSesSignature(der: Uint8Array): SesSignature | undefined {
  const root = parse(der);
  if (!root) return undefined;
  const top = children(root);
  const tbs = children(top[0]);
  // Both versions open TBS_Sign with its version number and the seal.
  if (top.length < 2 || tbs.length < 5 || tbs[0]?.type !== asn1.Type.INTEGER || tbs[1]?.type !== asn1.Type.SEQUENCE) return undefined;
  const v1 = top.length === 2;
  const certificate = v1 ? tbs[5] : top[1];
  const algorithm = v1 ? tbs[6] : top[2];
  const signature = v1 ? top[1] : top[3];
  if (!certificate || !algorithm || !signature || algorithm.type !== asn1.Type.OID) return undefined;
  const sealInfo = children(children(tbs[1])[0]);
  return {
    version: v1 ? 1 : 4,
    sealName: stringOf(children(sealInfo[2])[1]),
    picture: picture(sealInfo[3]),
    signed: firstElement(der),
    dataHash: bitString(tbs[3]),
    certificate: bytesOf(certificate),
    algorithm: oidOf(algorithm),
    signature: bitString(signature),
  };
}

function picture(node: Node | undefined): SealPicture | undefined {
  const [type, data] = children(node);
  if (!type || !data || data.type !== asn1.Type.OCTETSTRING) return undefined;
  return { type: (stringOf(type) ?? '').toUpperCase(), bytes: bytesOf(data) };
}

const stringOf = (node: Node | undefined): string | undefined =>
  node && typeof node.value === 'string' ? Buffer.from(node.value, 'binary').toString(node.type === asn1.Type.UTF8 ? 'utf8' : 'latin1') : undefined;
/** A BIT STRING's bits (its first byte counts the unused bits of the last). */
const bitString = (node: Node | undefined): Uint8Array => (node ? bytesOf(node).subarray(1) : new Uint8Array());

/** The bytes of the first element inside the DER SEQUENCE `der` (header included). */
function firstElement(der: Uint8Array): Uint8Array {
  const outer = header(der, 0);
  const inner = header(der, outer.contentStart);
  return der.subarray(outer.contentStart, inner.contentStart + inner.length);
}

function header(der: Uint8Array, offset: number): { contentStart: number; length: number } {
  const first = der[offset + 1] ?? 0;
  if (first < 0x80) return { contentStart: offset + 2, length: first };
  let length = 0;
  const count = first & 0x7f;
  for (let i = 0; i < count; i++) length = length * 256 + (der[offset + 2 + i] ?? 0);
  return { contentStart: offset + 2 + count, length };
}
