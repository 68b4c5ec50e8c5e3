// An OFD's signatures checked (GB/T 33190 §18, GB/T 38540): for each entry of the Signatures
// list, every file its Signature.xml references is hashed again (SM3, or the algorithm its
// CheckMethod names) and compared with the recorded CheckValue; then the signature value
// (SignedValue.dat) is verified against Signature.xml with the signer's certificate. Values come
// in three shapes: an electronic seal's SES_Signature (v1 or v4, seal.ts), a GB/T 35275 /
// PKCS #7 SignedData (digital signatures), or a bare SM2 value that carries no certificate and so
// cannot be verified here. The first thing found wrong is the signature's `problem`. Whether the
// certificate chains to a trusted root is not judged (`trusted: null`).

import crypto from 'node:crypto';
import forge from 'node-forge';
import { isElement, textOf, type XmlElement } from '../read/xml.js';
import { directoryOf, resolveLocation, type OfdParts } from './locations.js';
import { parseSesSignature } from './seal.js';
import { algorithmName, bytesOf, children, oidOf, parseDer, readCertificate, SM2_WITH_SM3, verifySignatureValue } from './signature-value.js';
import type { DocumentSignature } from '../../core/document-signature.js';

/** An OFD's signature, checked (core/document-signature.ts). */
export type OfdSignature = DocumentSignature;

const local = (name: string) => name.slice(name.indexOf(':') + 1);
const kids = (element: XmlElement | undefined, name: string): XmlElement[] =>
  element ? element.children.filter((c): c is XmlElement => isElement(c) && local(c.name) === name) : [];
const kidText = (element: XmlElement | undefined, name: string): string | undefined => {
  const found = kids(element, name)[0];
  return found ? textOf(found).trim() : undefined;
};

/** CheckMethod values as writers spell them (OIDs, SM3's with a suffix, or names) → Node's digest names. */
function digestName(method: string | undefined): string | undefined {
  const m = (method ?? '').trim().toLowerCase().replace(/[-_]/g, '');
  if (m === '' || m === 'sm3' || m.startsWith('1.2.156.10197.1.401')) return 'sm3';
  const named: Record<string, string> = {
    sha1: 'sha1',
    '1.3.14.3.2.26': 'sha1',
    sha256: 'sha256',
    '2.16.840.1.101.3.4.2.1': 'sha256',
    sha384: 'sha384',
    '2.16.840.1.101.3.4.2.2': 'sha384',
    sha512: 'sha512',
    '2.16.840.1.101.3.4.2.3': 'sha512',
    md5: 'md5',
  };
  return named[m];
}

const digest = (algorithm: string, bytes: Uint8Array): Buffer => crypto.createHash(algorithm).update(bytes).digest();

/** Every signature of the Signatures list `part` names, checked. */
export function checkSignatures(parts: OfdParts, part: string | undefined): OfdSignature[] {
  const list = parts.xml(part);
  if (!list || part === undefined) return [];
  return kids(list, 'Signature').map((entry) => checkSignature(parts, entry.attrs.ID ?? '', resolveLocation(directoryOf(part), entry.attrs.BaseLoc ?? '')));
}

function checkSignature(parts: OfdParts, id: string, signaturePart: string | undefined): OfdSignature {
  const xml = parts.xml(signaturePart);
  const info = kids(xml, 'SignedInfo')[0];
  const method = kidText(info, 'SignatureMethod') ?? '';
  const result: OfdSignature = {
    id,
    signer: null,
    sealName: null,
    signedAt: signedAt(kidText(info, 'SignatureDateTime')),
    algorithm: algorithmName(method),
    valid: false,
    trusted: null,
  };
  const signatureBytes = parts.bytes(signaturePart);
  if (!xml || !signatureBytes || signaturePart === undefined) return { ...result, problem: `its Signature.xml (${signaturePart ?? 'no location'}) is missing` };
  const referenceProblem = checkReferences(parts, info);
  const valuePart = resolveLocation(directoryOf(signaturePart), kidText(xml, 'SignedValue') ?? '');
  const value = parts.bytes(valuePart);
  if (!value) return { ...result, problem: referenceProblem ?? `its signature value (${valuePart ?? 'no location'}) is missing` };
  const checked = checkValue(value, signatureBytes, method);
  const problem = referenceProblem ?? checked.problem;
  return { ...result, ...checked.about, valid: problem === undefined, ...(problem !== undefined && { problem }) };
}

/** The first referenced file that is missing or whose digest differs, named; undefined when all match. */
function checkReferences(parts: OfdParts, info: XmlElement | undefined): string | undefined {
  const references = kids(info, 'References')[0];
  const algorithm = digestName(references?.attrs.CheckMethod);
  if (!algorithm) return `its files' digest algorithm (${references?.attrs.CheckMethod ?? ''}) is not one docwasm knows`;
  const list = kids(references, 'Reference');
  if (list.length === 0) return 'it references no file';
  for (const reference of list) {
    const name = reference.attrs.FileRef ?? '';
    const bytes = parts.bytes(resolveLocation('', name));
    if (!bytes) return `${name} is missing`;
    const recorded = Buffer.from(kidText(reference, 'CheckValue') ?? '', 'base64');
    if (!digest(algorithm, bytes).equals(recorded)) return `${name} has changed since signing`;
  }
  return undefined;
}

interface ValueCheck {
  about: Partial<Pick<OfdSignature, 'signer' | 'sealName' | 'algorithm'>>;
  problem?: string | undefined;
}

const NOT_VERIFIED = 'the signature value does not verify with the signer certificate';
const XML_CHANGED = 'Signature.xml has changed since signing';

/** Verifies the signature value over Signature.xml's bytes. */
function checkValue(value: Uint8Array, signatureXml: Uint8Array, method: string): ValueCheck {
  const seal = parseSesSignature(value);
  if (seal) {
    const certificate = readCertificate(seal.certificate);
    const about = { sealName: seal.sealName ?? null, signer: certificate?.subject ?? null, algorithm: algorithmName(seal.algorithm) };
    if (!certificate) return { about, problem: "the signer's certificate cannot be read" };
    if (!digest('sm3', signatureXml).equals(seal.dataHash) && !digest(hashOf(seal.algorithm), signatureXml).equals(seal.dataHash))
      return { about, problem: XML_CHANGED };
    return { about, problem: verifySignatureValue(seal.algorithm, certificate, seal.signed, seal.signature) ? undefined : NOT_VERIFIED };
  }
  const signedData = checkSignedData(value, signatureXml);
  if (signedData) return signedData;
  return { about: { algorithm: algorithmName(method) }, problem: 'the signature value carries no signer certificate to verify it with' };
}

const hashOf = (algorithm: string): string => (algorithm === SM2_WITH_SM3 ? 'sm3' : 'sha256');

/** SignedData's OIDs: GB/T 35275's (SM2) and PKCS #7's. */
const SIGNED_DATA = new Set(['1.2.156.10197.6.1.4.2.2', '1.2.840.113549.1.7.2']);
const MESSAGE_DIGEST = '1.2.840.113549.1.9.4';
/** Key algorithms a SignerInfo may name, with the digest → the signature algorithm. */
const SIGNER_ALGORITHMS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  '1.2.156.10197.1.301.1': { sm3: SM2_WITH_SM3 },
  [SM2_WITH_SM3]: { sm3: SM2_WITH_SM3 },
  '1.2.840.113549.1.1.1': { sha1: '1.2.840.113549.1.1.5', sha256: '1.2.840.113549.1.1.11', sha384: '1.2.840.113549.1.1.12', sha512: '1.2.840.113549.1.1.13' },
  '1.2.840.10045.2.1': { sha1: '1.2.840.10045.4.1', sha256: '1.2.840.10045.4.3.2', sha384: '1.2.840.10045.4.3.3', sha512: '1.2.840.10045.4.3.4' },
};
const DIGESTS: Readonly<Record<string, string>> = {
  '1.2.156.10197.1.401': 'sm3',
  '1.3.14.3.2.26': 'sha1',
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
};

/**
 * A GB/T 35275 (PKCS #7) SignedData over Signature.xml, as ofdrw checks it: its content, when
 * present, is the digest of Signature.xml (raw or Base64); signed attributes, when present, carry
 * that digest and are what is signed; the signer's certificate is among the value's own.
 */
function checkSignedData(value: Uint8Array, signatureXml: Uint8Array): ValueCheck | undefined {
  let top: forge.asn1.Asn1[];
  try {
    top = children(parseDer(value));
  } catch {
    return undefined;
  }
  if (!SIGNED_DATA.has(oidOf(top[0]))) return undefined;
  const fields = children(children(top[1])[0]);
  const content = bytesOf(children(children(fields[2])[1])[0]);
  const certificates = fields.filter((f) => f.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC && f.type === 0).flatMap(children);
  const signer = children(fields.at(-1))[0];
  const [, issuerSerial, digestAlgorithm, ...rest] = children(signer);
  const attributes = rest[0]?.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC ? rest.shift() : undefined;
  const [keyAlgorithm, encrypted] = rest;
  const hash = DIGESTS[oidOf(children(digestAlgorithm)[0])] ?? 'sm3';
  const algorithm = SIGNER_ALGORITHMS[oidOf(children(keyAlgorithm)[0])]?.[hash] ?? oidOf(children(keyAlgorithm)[0]);
  const certificate = pickCertificate(certificates, children(issuerSerial)[1]);
  const about = { signer: certificate?.subject ?? null, algorithm: algorithmName(algorithm) };
  if (!signer || !certificate) return { about, problem: 'the signature value carries no signer certificate to verify it with' };
  const expected = digest(hash, signatureXml);
  if (content.length > 0 && !expected.equals(content) && !expected.equals(Buffer.from(Buffer.from(content).toString('latin1'), 'base64')))
    return { about, problem: XML_CHANGED };
  let signed: Uint8Array = content;
  if (attributes) {
    const messageDigest = children(attributes).find((a) => oidOf(children(a)[0]) === MESSAGE_DIGEST);
    if (!expected.equals(bytesOf(children(children(messageDigest)[1])[0]))) return { about, problem: XML_CHANGED };
    // Signed attributes are signed as a SET (tag 0x31), not as the [0] they are stored under.
    const der = Buffer.from(forge.asn1.toDer(attributes).getBytes(), 'binary');
    der[0] = 0x31;
    signed = der;
  }
  if (signed.length === 0) return { about, problem: 'the signature value signs nothing docwasm can check' };
  return { about, problem: verifySignatureValue(algorithm, certificate, signed, bytesOf(encrypted)) ? undefined : NOT_VERIFIED };
}

/** The certificate whose serial number is the signer's (else the first). */
function pickCertificate(certificates: forge.asn1.Asn1[], serial: forge.asn1.Asn1 | undefined) {
  const read = certificates.map((c) => ({ node: c, certificate: readCertificate(Buffer.from(forge.asn1.toDer(c).getBytes(), 'binary')) }));
  const wanted = Buffer.from(bytesOf(serial)).toString('hex');
  const serialOf = (node: forge.asn1.Asn1) => {
    const tbs = children(children(node)[0]);
    const rest = tbs[0]?.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC ? tbs.slice(1) : tbs;
    return Buffer.from(bytesOf(rest[0])).toString('hex');
  };
  return (read.find((r) => serialOf(r.node) === wanted) ?? read[0])?.certificate;
}

/** SignatureDateTime (20201010151120, 2020-04-22 16:22:44, ISO …) as YYYY-MM-DDTHH:MM:SS; kept as written when it is none of those. */
function signedAt(text: string | undefined): string | null {
  if (!text) return null;
  const m = /^(\d{4})-?(\d{2})-?(\d{2})(?:[ T]?(\d{2}):?(\d{2}):?(\d{2}))?/.exec(text);
  return m ? `${m[1]}-${m[2]}-${m[3]}T${m[4] ?? '00'}:${m[5] ?? '00'}:${m[6] ?? '00'}` : text;
}
