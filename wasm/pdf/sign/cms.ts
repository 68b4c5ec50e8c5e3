// CMS SignedData for PAdES B-B (ETSI EN 319 142-1): detached, SHA-256, signed attributes
// content-type, message-digest and ESS signing-certificate-v2 (no signing-time: the time goes in
// the signature dictionary's /M). Built with node-forge's ASN.1 DER codec; signed and verified
// with Node's crypto.

import crypto from 'node:crypto';
import forge from 'node-forge';

const { asn1 } = forge;
const { Class, Type } = asn1;

const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  sha256: '2.16.840.1.101.3.4.2.1',
  rsaEncryption: '1.2.840.113549.1.1.1',
  sha256WithRsa: '1.2.840.113549.1.1.11',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
};

const seq = (items: forge.asn1.Asn1[]) => asn1.create(Class.UNIVERSAL, Type.SEQUENCE, true, items);
const set = (items: forge.asn1.Asn1[]) => asn1.create(Class.UNIVERSAL, Type.SET, true, sortedDer(items));
const oid = (id: string) => asn1.create(Class.UNIVERSAL, Type.OID, false, asn1.oidToDer(id).getBytes());
const int = (n: number) => asn1.create(Class.UNIVERSAL, Type.INTEGER, false, asn1.integerToDer(n).getBytes());
const octets = (bytes: Buffer) => asn1.create(Class.UNIVERSAL, Type.OCTETSTRING, false, bytes.toString('binary'));
const context = (tag: number, items: forge.asn1.Asn1[]) => asn1.create(Class.CONTEXT_SPECIFIC, tag, true, items);
const algorithm = (id: string, withNull = true) => seq([oid(id), ...(withNull ? [asn1.create(Class.UNIVERSAL, Type.NULL, false, '')] : [])]);
const fromDer = (der: Buffer) => asn1.fromDer(forge.util.createBuffer(der.toString('binary')));
const toDer = (node: forge.asn1.Asn1) => Buffer.from(asn1.toDer(node).getBytes(), 'binary');

/** DER orders the members of a SET OF by their encodings. */
function sortedDer(items: forge.asn1.Asn1[]): forge.asn1.Asn1[] {
  return items
    .map((item) => ({ item, der: toDer(item) }))
    .sort((a, b) => Buffer.compare(a.der, b.der))
    .map(({ item }) => item);
}

/** The issuer Name and serial INTEGER of a certificate, as DER nodes taken from it. */
function issuerAndSerial(certificate: Buffer): { issuer: forge.asn1.Asn1; serial: forge.asn1.Asn1 } {
  const tbs = (fromDer(certificate).value as forge.asn1.Asn1[])[0] as forge.asn1.Asn1;
  const fields = tbs.value as forge.asn1.Asn1[];
  // tbsCertificate: [0] version (present in v3), serial, signature, issuer, ...
  const offset = fields[0]?.tagClass === Class.CONTEXT_SPECIFIC ? 1 : 0;
  return { serial: fields[offset] as forge.asn1.Asn1, issuer: fields[offset + 2] as forge.asn1.Asn1 };
}

function attribute(type: string, value: forge.asn1.Asn1): forge.asn1.Asn1 {
  return seq([oid(type), set([value])]);
}

/** ESS signing-certificate-v2: the SHA-256 of the signer's certificate and its issuer and serial. */
function signingCertificateV2(certificate: Buffer): forge.asn1.Asn1 {
  const { issuer, serial } = issuerAndSerial(certificate);
  const hash = crypto.createHash('sha256').update(certificate).digest();
  const issuerSerial = seq([seq([context(4, [issuer])]), serial]);
  return seq([seq([seq([octets(hash), issuerSerial])])]);
}

export interface SignInput {
  /** SHA-256 of the signed bytes (the PDF's byte ranges). */
  digest: Buffer;
  privateKey: crypto.KeyObject;
  certificate: Buffer;
  chain: readonly Buffer[];
}

/** A DER ContentInfo holding a detached SignedData over `digest`. */
export function buildSignedData({ digest, privateKey, certificate, chain }: SignInput): Buffer {
  const signedAttributes = [
    attribute(OID.contentType, oid(OID.data)),
    attribute(OID.messageDigest, octets(digest)),
    attribute(OID.signingCertificateV2, signingCertificateV2(certificate)),
  ];
  // The signature covers the attributes encoded as a SET (tag 0x31), not as the [0] they are stored in.
  const signature = crypto.sign('sha256', toDer(set(signedAttributes)), privateKey);
  const { issuer, serial } = issuerAndSerial(certificate);
  const ec = privateKey.asymmetricKeyType === 'ec';
  const signerInfo = seq([
    int(1),
    seq([issuer, serial]),
    algorithm(OID.sha256),
    asn1.create(Class.CONTEXT_SPECIFIC, 0, true, sortedDer(signedAttributes)),
    ec ? algorithm(OID.ecdsaWithSha256, false) : algorithm(OID.sha256WithRsa),
    octets(signature),
  ]);
  const signedData = seq([
    int(1),
    set([algorithm(OID.sha256)]),
    seq([oid(OID.data)]),
    asn1.create(Class.CONTEXT_SPECIFIC, 0, true, [certificate, ...chain].map(fromDer)),
    set([signerInfo]),
  ]);
  return toDer(seq([oid(OID.signedData), context(0, [signedData])]));
}

export interface SignatureCheck {
  /** The signed digest matches `digest` and the signature verifies with the signer's certificate. */
  valid: boolean;
  certificate: crypto.X509Certificate | undefined;
  /** Every certificate the CMS carries (the signer's among them): the chain it offers. */
  carried: crypto.X509Certificate[];
}

/** Checks a detached SignedData (as buildSignedData or another signer writes it) against the digest of the signed bytes. */
export function verifySignedData(padded: Buffer, digestOf: (algorithm: string) => Buffer): SignatureCheck {
  const signedData = ((fromPadded(padded).value as forge.asn1.Asn1[])[1]?.value as forge.asn1.Asn1[])[0] as forge.asn1.Asn1;
  const parts = signedData.value as forge.asn1.Asn1[];
  const certificates = parts
    .filter((part) => part.tagClass === Class.CONTEXT_SPECIFIC && part.type === 0)
    .flatMap((part) => (part.value as forge.asn1.Asn1[]).map((cert) => new crypto.X509Certificate(toDer(cert))));
  const signerInfo = ((parts.at(-1) as forge.asn1.Asn1).value as forge.asn1.Asn1[])[0] as forge.asn1.Asn1;
  const fields = signerInfo.value as forge.asn1.Asn1[];
  const sid = fields[1] as forge.asn1.Asn1;
  const serialHex = Buffer.from(((sid.value as forge.asn1.Asn1[])[1] as forge.asn1.Asn1).value as string, 'binary')
    .toString('hex')
    .replace(/^0+/, '')
    .toUpperCase();
  const certificate = certificates.find((cert) => cert.serialNumber.replace(/^0+/, '').toUpperCase() === serialHex) ?? certificates[0];
  const digestAlgorithm = asn1.derToOid(
    forge.util.createBuffer((((fields[2] as forge.asn1.Asn1).value as forge.asn1.Asn1[])[0] as forge.asn1.Asn1).value as string),
  );
  // SHA-2 only: SHA-1 has chosen-prefix collisions (SHA-1 is a Shambles, 2020), so a SHA-1 digest
  // of the signed bytes no longer pins them.
  const hash =
    digestAlgorithm === OID.sha256
      ? 'sha256'
      : digestAlgorithm === '2.16.840.1.101.3.4.2.3'
        ? 'sha512'
        : digestAlgorithm === '2.16.840.1.101.3.4.2.2'
          ? 'sha384'
          : undefined;
  const attributes = fields[3];
  if (!certificate || !hash || attributes?.tagClass !== Class.CONTEXT_SPECIFIC) return { valid: false, certificate, carried: certificates };
  // Exactly one message-digest attribute (RFC 5652 5.3): with two, which one a reader compares is a guess.
  const digestAttributes = (attributes.value as forge.asn1.Asn1[]).filter(
    (attr) => asn1.derToOid(forge.util.createBuffer(((attr.value as forge.asn1.Asn1[])[0] as forge.asn1.Asn1).value as string)) === OID.messageDigest,
  );
  if (digestAttributes.length !== 1) return { valid: false, certificate, carried: certificates };
  const [digestAttribute] = digestAttributes;
  const signedDigest = Buffer.from(
    ((((digestAttribute?.value as forge.asn1.Asn1[])[1] as forge.asn1.Asn1).value as forge.asn1.Asn1[])[0] as forge.asn1.Asn1).value as string,
    'binary',
  );
  const signature = Buffer.from((fields[5] as forge.asn1.Asn1).value as string, 'binary');
  const attributesAsSet = toDer(asn1.create(Class.UNIVERSAL, Type.SET, true, attributes.value as forge.asn1.Asn1[]));
  const valid = signedDigest.equals(digestOf(hash)) && crypto.verify(hash, attributesAsSet, certificate.publicKey, signature);
  return { valid, certificate, carried: certificates };
}

/**
 * A signature's /Contents holds the CMS followed by zeros up to the placeholder's size: the CMS
 * alone, parsed as far as its own length goes. NSS (poppler's pdfsig, LibreOffice) writes it in
 * BER with indefinite lengths (`30 80 …`), which forge reads; the signed attributes, the only
 * part whose encoding is signed, are DER in every signer (RFC 5652 5.3) and re-encoded as such.
 */
function fromPadded(contents: Buffer): forge.asn1.Asn1 {
  const parse = asn1.fromDer as unknown as (bytes: forge.util.ByteBuffer, options: { parseAllBytes: boolean }) => forge.asn1.Asn1;
  return parse(forge.util.createBuffer(contents.toString('binary')), { parseAllBytes: false });
}
