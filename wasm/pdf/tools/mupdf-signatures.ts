// signatures on mupdf: every signature of a PDF checked against the file's own bytes (which
// bytes it signs: sign/byte-range.ts; the CMS: sign/cms.ts) and judged for trust against the
// roots the service was given (sign/trust.ts). Signing is mupdf-sign.ts.

import crypto from 'node:crypto';
import type * as mupdf from 'mupdf';
import type { SignatureInfo } from '../engine.js';
import { signedRevision, type SignedRevision } from '../sign/byte-range.js';
import { verifySignedData, type SignatureCheck } from '../sign/cms.js';
import { describeCertificate, judgeTrust, type Trust } from '../sign/trust.js';
import { openPdf, readInPlace } from '../mupdf-document.js';
import { withFields } from './mupdf-form-fields.js';
import { pdfDateToIso } from './pdf-date.js';

/**
 * Every signature of the document, in field order, checked against the file's bytes. A
 * signature is valid only when its byte range is sound (sign/byte-range.ts), the dictionary read
 * now is the one the signed revision holds (an update appended since may not rewrite its name,
 * reason, byte range or /Contents), and the CMS verifies over exactly the signed bytes. It is
 * trusted only when it is valid and its certificate chains to one of `trustRoots` (PEM) as
 * sign/trust.ts judges. A signature dictionary reached from several fields (a field added later
 * whose /V points at an existing signature) is one signature, listed at its first field.
 */
export function listSignatures(doc: mupdf.PDFDocument, bytes: Uint8Array, password: string | undefined, trustRoots: readonly string[]): SignatureInfo[] {
  const file = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const checks = { file, revisions: new SignedRevisions(doc, file, password), roots: trustRoots.map((pem) => new crypto.X509Certificate(pem)) };
  const seen = new Set<number>();
  try {
    return withFields(doc, (fields) =>
      [...fields.values()]
        .filter((entry) => entry.field.type === 'signature')
        .flatMap((entry) => {
          const widget = (entry.widgets[0] as mupdf.PDFWidget).getObject();
          const value = widget.get('V');
          // No /V: an unsigned field. A /V that does not load as a dictionary (its object broken,
          // e.g. by a string closed early in the /Contents) is a signature that is not valid.
          if (!value.isDictionary() && !value.isIndirect()) return [];
          if (value.isIndirect()) {
            if (seen.has(value.asIndirect())) return [];
            seen.add(value.asIndirect());
          }
          return [describeSignature(entry.field.name, { widget, value }, checks)];
        }),
    );
  } finally {
    checks.revisions.destroy();
  }
}

/** A signature dictionary and the widget it hangs from (the way to find it again in another revision). */
interface SignatureDictionary {
  widget: mupdf.PDFObject;
  value: mupdf.PDFObject;
}

interface Checks {
  file: Buffer;
  revisions: SignedRevisions;
  roots: crypto.X509Certificate[];
}

function describeSignature(name: string, signature: SignatureDictionary, { file, revisions, roots }: Checks): SignatureInfo {
  const fields = reportedFields(signature.value);
  const signedAt = fields.signedAt && pdfDateToIso(fields.signedAt);
  const revision = soundRevision(signature.value, file);
  const signedAsRead = revision !== undefined && revisions.holdsUnchanged(revision.end, signature);
  let check: SignatureCheck = { valid: false, certificate: undefined, carried: [] };
  if (revision && signedAsRead) {
    try {
      const cms = Buffer.from(signature.value.get('Contents').asByteString());
      const signed = (hash: string) =>
        crypto.createHash(hash).update(file.subarray(0, revision.gapStart)).update(file.subarray(revision.gapEnd, revision.end)).digest();
      check = verifySignedData(cms, signed);
    } catch {
      // An unreadable CMS: not valid, no certificate.
    }
  }
  const { valid, certificate, carried } = check;
  return {
    name: fields.name ?? name,
    signedAt,
    reason: fields.reason,
    location: fields.location,
    valid,
    coversWholeDocument: revision?.end === file.length,
    certificate: certificate ? describeCertificate(certificate) : null,
    ...trustOf(valid, certificate, carried, roots, signedAt),
  };
}

/**
 * Trusted only when valid and chained to a root; the problem is named whenever the certificate
 * is the reason (an invalid signature with a sound chain is untrusted, `valid: false` says why).
 * The signing time is the one the dictionary states (/M), else now.
 */
function trustOf(
  valid: boolean,
  certificate: crypto.X509Certificate | undefined,
  carried: readonly crypto.X509Certificate[],
  roots: readonly crypto.X509Certificate[],
  signedAt: string | null,
): Trust {
  if (!certificate) return { trusted: false };
  const trust = judgeTrust(certificate, carried, roots, signedAt ? new Date(signedAt) : new Date());
  return valid || !trust.trusted ? trust : { trusted: false };
}

function reportedFields(value: mupdf.PDFObject): { name: string | null; signedAt: string | null; reason: string | null; location: string | null } {
  const text = (key: string) => (value.get(key).isString() ? value.get(key).asString() : null);
  return { name: text('Name'), signedAt: text('M'), reason: text('Reason'), location: text('Location') };
}

/** The revision the dictionary's /ByteRange signs, when the range is one the contract accepts. */
function soundRevision(value: mupdf.PDFObject, file: Buffer): SignedRevision | undefined {
  const range = value.get('ByteRange');
  const contents = value.get('Contents');
  if (!range.isArray() || !contents.isString()) return undefined;
  const numbers: string[] = [];
  // toString, not asNumber: asNumber goes through a float and rounds offsets past 2^24.
  for (let i = 0; i < range.length; i++) numbers.push(range.get(i).isInteger() ? range.get(i).toString() : '');
  return signedRevision(file, numbers, contents.asByteString());
}

/**
 * The revisions signatures sign, each opened as a document of its own (the file's first `end`
 * bytes, read in place), to compare a signature dictionary as the signed revision holds it with
 * the one read now.
 */
class SignedRevisions {
  private readonly opened = new Map<number, mupdf.PDFDocument | null>();

  constructor(
    private readonly doc: mupdf.PDFDocument,
    private readonly file: Buffer,
    private readonly password: string | undefined,
  ) {}

  /** The revision ending at `end` opens without repair and holds this dictionary as it is read now. */
  holdsUnchanged(end: number, signature: SignatureDictionary): boolean {
    const revision = this.revision(end);
    if (!revision) return false;
    if (revision === this.doc) return true;
    const then = sameDictionaryIn(revision, signature);
    return (
      then !== undefined &&
      then.resolve().toString() === signature.value.resolve().toString() &&
      JSON.stringify(reportedFields(then)) === JSON.stringify(reportedFields(signature.value))
    );
  }

  destroy(): void {
    for (const doc of this.opened.values()) if (doc && doc !== this.doc) doc.destroy();
  }

  private revision(end: number): mupdf.PDFDocument | null {
    if (end === this.file.length) return this.doc.wasRepaired() ? null : this.doc;
    if (!this.opened.has(end)) this.opened.set(end, this.open(end));
    return this.opened.get(end) ?? null;
  }

  private open(end: number): mupdf.PDFDocument | null {
    let doc: mupdf.PDFDocument;
    try {
      doc = openPdf(readInPlace(this.file.subarray(0, end)), this.password);
    } catch {
      return null;
    }
    // A revision mupdf had to rebuild does not end where its %%EOF says: not a revision.
    if (!doc.wasRepaired()) return doc;
    doc.destroy();
    return null;
  }
}

/** The object at the same place in another revision: the same indirect object, or the /V of the same widget. */
function sameDictionaryIn(revision: mupdf.PDFDocument, { widget, value }: SignatureDictionary): mupdf.PDFObject | undefined {
  const found = value.isIndirect()
    ? revision.newIndirect(value.asIndirect()).resolve()
    : widget.isIndirect()
      ? revision.newIndirect(widget.asIndirect()).resolve().get('V')
      : undefined;
  return found?.isDictionary() ? found : undefined;
}
