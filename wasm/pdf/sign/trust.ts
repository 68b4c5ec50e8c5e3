// Whom a signature's certificate names, and whether to trust it (contract, Refinements v0.5). A
// valid signature only says that the key of the certificate the CMS carries signed the bytes:
// anyone can make a certificate with Alice's subject and an issuer called "Trusted Root CA". It is
// trusted only when its certificate chains — through the certificates the CMS carries, each issuer
// a CA whose name and key identifiers match and whose key verifies the certificate below it — to
// a root the service was given (--trust-cert), and every certificate of that chain was within its
// validity at the signing time. Node's X509Certificate (OpenSSL) does the checks.

import crypto from 'node:crypto';

export type TrustProblem = 'self-signed' | 'unknown-issuer' | 'expired' | 'not-yet-valid';

export interface CertificateSummary {
  subject: string;
  issuer: string;
  /** Hexadecimal, upper case, as `openssl x509 -serial` prints it (without leading zeros). */
  serialNumber: string;
  /** SHA-256 of the certificate's DER, as `openssl x509 -fingerprint -sha256` prints it (AB:CD:…). */
  sha256: string;
  validFrom: string;
  validTo: string;
  /** The v0.4 names of validFrom and validTo, kept for callers that read them. */
  notBefore: string;
  notAfter: string;
  /** Issued by itself: its issuer is its subject and its own key verifies it. */
  selfSigned: boolean;
}

export type Trust = { trusted: true } | { trusted: false; trustProblem?: TrustProblem };

/** More certificates than any real chain holds (root, a few intermediates, the signer). */
const MAX_CHAIN = 10;

export function describeCertificate(certificate: crypto.X509Certificate): CertificateSummary {
  const validFrom = new Date(certificate.validFrom).toISOString();
  const validTo = new Date(certificate.validTo).toISOString();
  return {
    subject: certificate.subject.replace(/\n/g, ', '),
    issuer: certificate.issuer.replace(/\n/g, ', '),
    serialNumber: certificate.serialNumber.toUpperCase().replace(/^0+(?=.)/, ''),
    sha256: certificate.fingerprint256,
    validFrom,
    validTo,
    notBefore: validFrom,
    notAfter: validTo,
    selfSigned: issues(certificate, certificate, false),
  };
}

/**
 * Whether `signer`, helped by the certificates the CMS carries, chains to one of `roots` with
 * every certificate of the chain valid at `signedAt`. A self-signed signer that is not itself a
 * root is `self-signed`; any other chain that reaches no root is `unknown-issuer`.
 */
export function judgeTrust(
  signer: crypto.X509Certificate,
  carried: readonly crypto.X509Certificate[],
  roots: readonly crypto.X509Certificate[],
  signedAt: Date,
): Trust {
  const chain = chainToRoot(signer, carried, roots);
  if (!chain) return { trusted: false, trustProblem: issues(signer, signer, false) ? 'self-signed' : 'unknown-issuer' };
  for (const certificate of chain) {
    if (signedAt < new Date(certificate.validFrom)) return { trusted: false, trustProblem: 'not-yet-valid' };
    if (signedAt > new Date(certificate.validTo)) return { trusted: false, trustProblem: 'expired' };
  }
  return { trusted: true };
}

/** The signer, the carried certificates that lead up from it, and the root they reach; undefined when none is reached. */
function chainToRoot(
  signer: crypto.X509Certificate,
  carried: readonly crypto.X509Certificate[],
  roots: readonly crypto.X509Certificate[],
): crypto.X509Certificate[] | undefined {
  const chain = [signer];
  for (let current = signer; chain.length <= MAX_CHAIN;) {
    // A root given as the signer's own certificate (pinned) is trusted as it is.
    if (roots.some((root) => root.raw.equals(current.raw))) return chain;
    const root = roots.find((candidate) => issues(candidate, current));
    if (root) return [...chain, root];
    const next = carried.find((candidate) => !chain.some((taken) => taken.raw.equals(candidate.raw)) && issues(candidate, current));
    if (!next) return undefined;
    chain.push(next);
    current = next;
  }
  return undefined;
}

/**
 * `issuer` issued `certificate`: a CA (unless only self-issuance is asked), named as its issuer
 * with matching key identifiers (OpenSSL's X509_check_issued), and its key verifies the signature.
 */
function issues(issuer: crypto.X509Certificate, certificate: crypto.X509Certificate, mustBeCa = true): boolean {
  if (mustBeCa && !issuer.ca) return false;
  return certificate.checkIssued(issuer) && certificate.verify(issuer.publicKey);
}
