// sign on mupdf (the signatures of a file are read in mupdf-signatures.ts). A signature is added as an incremental update (mupdf's
// incremental save appends only the new and changed objects, so the bytes an earlier signature
// covers stay as they were): a signature field and its widget (invisible, or visible with an
// appearance naming the signer), and a /Sig dictionary with placeholders — a /ByteRange of
// fixed width and a /Contents sized to the CMS a dry run produced. The placeholders are then
// filled in the saved bytes: the byte ranges around /Contents, and the CMS over their SHA-256.

import crypto from 'node:crypto';
import * as mupdf from 'mupdf';
import { ApiError } from '../../../core/errors.js';
import type { SignOptions } from '../engine.js';
import { buildSignedData } from '../sign/cms.js';
import type { SigningIdentity } from '../sign/pkcs12.js';
import { copyOf, isEncrypted, openPdf, PLAIN } from '../mupdf-document.js';
import { withFields } from './mupdf-form-fields.js';
import { toPdfDate } from './pdf-date.js';
import { embedText } from './watermark-font.js';

/** Written by mupdf in full, then overwritten with the real ranges padded by spaces. */
const BYTE_RANGE_PLACEHOLDER = [0, 1_000_000_000, 1_000_000_000, 1_000_000_000];
/** Room for DER length variance between the dry run and the real signature (ECDSA). */
const CONTENTS_SLACK = 32;

export function signPdf(pdf: Uint8Array, identity: SigningIdentity, options: SignOptions, password: string | undefined, now = new Date()): Uint8Array {
  const base = signableBytes(pdf, password);
  const size = buildSignedData({ digest: Buffer.alloc(32), ...identity }).length + CONTENTS_SLACK;
  const doc = openPdf(base);
  let saved: Uint8Array;
  try {
    addSignatureField(doc, identity, options, size, now);
    const buffer = doc.saveToBuffer('incremental=yes,compress=yes');
    try {
      saved = buffer.asUint8Array().slice();
    } finally {
      buffer.destroy();
    }
  } finally {
    doc.destroy();
  }
  return fillPlaceholders(Buffer.from(saved.buffer, saved.byteOffset, saved.length), base.length, size, identity);
}

/**
 * Bytes an incremental update can be appended to: the input itself, unless it is encrypted (the
 * output is written unencrypted, as every tool but encrypt writes it) or mupdf had to repair it
 * (its xref cannot be appended to): then a clean full save of it.
 */
function signableBytes(pdf: Uint8Array, password: string | undefined): Uint8Array {
  const doc = openPdf(pdf, password);
  try {
    if (!isEncrypted(doc) && !doc.wasRepaired()) return pdf;
    return copyOf(doc.saveToBuffer(PLAIN));
  } finally {
    doc.destroy();
  }
}

function addSignatureField(doc: mupdf.PDFDocument, identity: SigningIdentity, options: SignOptions, contentsSize: number, now: Date): void {
  const signer = options.name ?? commonName(identity.certificate);
  const value = doc.addObject({
    Type: doc.newName('Sig'),
    Filter: doc.newName('Adobe.PPKLite'),
    SubFilter: doc.newName('ETSI.CAdES.detached'),
    ByteRange: BYTE_RANGE_PLACEHOLDER,
    Contents: doc.newByteString(new Uint8Array(contentsSize)),
    M: doc.newString(toPdfDate(now)),
    ...(signer && { Name: doc.newString(signer) }),
    ...(options.reason && { Reason: doc.newString(options.reason) }),
    ...(options.location && { Location: doc.newString(options.location) }),
  });
  const pageIndex = (options.visible?.page ?? 1) - 1;
  if (pageIndex >= doc.countPages())
    throw new ApiError('INVALID_PAGE_RANGE', `The signature is placed on page ${pageIndex + 1}, but the document has ${doc.countPages()} page(s)`);
  const page = doc.findPage(pageIndex);
  const rect = options.visible ? visibleRect(doc, pageIndex, options.visible) : [0, 0, 0, 0];
  const widget = doc.addObject({
    Type: doc.newName('Annot'),
    Subtype: doc.newName('Widget'),
    FT: doc.newName('Sig'),
    T: doc.newString(`Signature${countSignatureFields(doc) + 1}`),
    V: value,
    // Print + Locked; an invisible signature is also Hidden.
    F: options.visible ? 132 : 134,
    Rect: rect,
    P: page,
  });
  if (options.visible) widget.put('AP', doc.newDictionary()).put('N', appearance(doc, rect, signer, options, now));
  appendTo(doc, page, 'Annots', widget);
  const form = acroForm(doc);
  appendTo(doc, form, 'Fields', widget);
  form.put('SigFlags', 3);
}

function countSignatureFields(doc: mupdf.PDFDocument): number {
  return withFields(doc, (fields) => [...fields.values()].filter((entry) => entry.field.type === 'signature').length);
}

/** The area given from the top-left of the page as shown, in the page's own space. */
function visibleRect(doc: mupdf.PDFDocument, pageIndex: number, { x, y, width, height }: NonNullable<SignOptions['visible']>): number[] {
  const page = doc.loadPage(pageIndex);
  try {
    const toPdf = mupdf.Matrix.invert(page.getTransform());
    const [x0, y0, x1, y1] = mupdf.Rect.transform([x, y, x + width, y + height], toPdf);
    return [x0, y0, x1, y1].map((n) => Math.round(n * 1000) / 1000);
  } finally {
    page.destroy();
  }
}

/** A thin frame and two lines: who signed, and when (with the reason when given). */
function appearance(doc: mupdf.PDFDocument, rect: number[], signer: string | undefined, options: SignOptions, now: Date): mupdf.PDFObject {
  const [width, height] = [Math.abs((rect[2] ?? 0) - (rect[0] ?? 0)), Math.abs((rect[3] ?? 0) - (rect[1] ?? 0))];
  const lines = [
    `Digitally signed by ${signer ?? 'unknown'}`,
    `${now.toISOString().slice(0, 19).replace('T', ' ')} UTC${options.reason ? ` · ${options.reason}` : ''}`,
  ];
  const texts = lines.map((line) => embedText(doc, line, 'signature'));
  const size = Math.max(1, Math.min(height / (lines.length * 1.4), (width - 6) / Math.max(...texts.map((text) => text.width), 0.01)));
  const fonts = Object.fromEntries(texts.map((text, i) => [`F${i}`, text.font]));
  const body = texts.map((text, i) => `BT /F${i} ${size.toFixed(2)} Tf 3 ${(height - (i + 1) * size * 1.3).toFixed(2)} Td <${text.glyphs}> Tj ET`).join('\n');
  return doc.addStream(`q 0.5 w 0 0 1 RG 0.25 0.25 ${(width - 0.5).toFixed(2)} ${(height - 0.5).toFixed(2)} re S Q\n0 g\n${body}\n`, {
    Type: doc.newName('XObject'),
    Subtype: doc.newName('Form'),
    BBox: [0, 0, width, height],
    Resources: { Font: fonts },
  });
}

function acroForm(doc: mupdf.PDFDocument): mupdf.PDFObject {
  const root = doc.getTrailer().get('Root');
  const existing = root.get('AcroForm');
  if (existing.isDictionary()) return existing;
  const created = doc.addObject({ Fields: [] });
  root.put('AcroForm', created);
  return created;
}

function appendTo(doc: mupdf.PDFDocument, dict: mupdf.PDFObject, key: string, item: mupdf.PDFObject): void {
  const list = dict.get(key);
  if (list.isArray()) list.push(item);
  else dict.put(key, doc.newArray()).push(item);
}

function commonName(certificate: Buffer): string | undefined {
  return /(?:^|\n)CN=([^\n]+)/.exec(new crypto.X509Certificate(certificate).subject)?.[1];
}

/** Writes the real /ByteRange over its placeholder and the CMS into /Contents. */
function fillPlaceholders(bytes: Buffer, appendedFrom: number, size: number, identity: SigningIdentity): Buffer {
  const hexZeros = `<${'00'.repeat(size)}>`;
  const contentsStart = bytes.indexOf(hexZeros, appendedFrom, 'latin1');
  if (contentsStart < 0) throw new Error('The signature placeholder was not written as expected');
  const contentsEnd = contentsStart + hexZeros.length;
  const placeholder = `[${BYTE_RANGE_PLACEHOLDER.join(' ')}]`;
  const rangeAt =
    bytes.lastIndexOf(placeholder, contentsStart, 'latin1') >= appendedFrom
      ? bytes.lastIndexOf(placeholder, contentsStart, 'latin1')
      : bytes.indexOf(placeholder, contentsEnd, 'latin1');
  if (rangeAt < appendedFrom) throw new Error('The byte range placeholder was not written as expected');
  const range = [0, contentsStart, contentsEnd, bytes.length - contentsEnd];
  bytes.write(`[${range.join(' ')}]`.padEnd(placeholder.length, ' '), rangeAt, 'latin1');
  const digest = crypto.createHash('sha256').update(bytes.subarray(0, contentsStart)).update(bytes.subarray(contentsEnd)).digest();
  const cms = buildSignedData({ digest, ...identity });
  if (cms.length > size) throw new Error(`The signature (${cms.length} bytes) outgrew its placeholder (${size})`);
  bytes.write(cms.toString('hex').toUpperCase(), contentsStart + 1, 'latin1');
  return bytes;
}
