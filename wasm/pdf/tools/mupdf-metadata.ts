// setMetadata on mupdf. The Info dictionary is the source of truth (pdfinfo and most viewers
// read it); when the document already has an XMP packet it is replaced by one regenerated from
// the updated Info dictionary, so both agree. Fields the packet holds and the Info dictionary
// lacks (an XMP-only PDF) are first copied into the Info dictionary, so an edit of one field does
// not lose the others. Other XMP properties of the old packet are dropped, except a PDF/A or
// PDF/UA identification (see xmp.ts). A document without XMP gets none.

import type * as mupdf from 'mupdf';
import { METADATA_FIELDS, type MetadataField, type MetadataUpdate } from '../../../core/pdf-metadata.js';
import { readMetadata } from './mupdf-info.js';
import { toPdfDate } from './pdf-date.js';
import { buildXmp, readIdentification, readXmpFields, type XmpFields } from './xmp.js';
import { ApiError } from '../../../core/errors.js';

const INFO_KEYS: Record<MetadataField, string> = {
  title: 'Title',
  author: 'Author',
  subject: 'Subject',
  keywords: 'Keywords',
  creator: 'Creator',
};

/** Info keys of the XMP fields that are carried over into an Info dictionary lacking them. */
const CARRIED_KEYS: Partial<Record<keyof XmpFields, string>> = { ...INFO_KEYS, producer: 'Producer', creationDate: 'CreationDate' };

export function applyMetadata(doc: mupdf.PDFDocument, update: MetadataUpdate, now = new Date()): void {
  const xmp = xmpStream(doc);
  const info = infoDictionary(doc);
  if (xmp) carryOver(doc, info, readXmpFields(xmp.readStream().asString()));
  for (const field of METADATA_FIELDS) {
    const value = update[field];
    if (value === undefined) continue;
    if (value === '') info.delete(INFO_KEYS[field]);
    else info.put(INFO_KEYS[field], doc.newString(value));
  }
  info.put('ModDate', doc.newString(toPdfDate(now)));
  if (xmp) replaceXmp(doc, xmp);
}

/**
 * The Info dictionary, created (indirect, in the trailer) when the document has none. The
 * trailer is read after the new object is added: adding the first object to a document read from
 * a file starts a new xref section with its own copy of the trailer, and an Info entry put in
 * the copy read before would never be written (the defect of issue 19).
 */
function infoDictionary(doc: mupdf.PDFDocument): mupdf.PDFObject {
  const info = doc.getTrailer().get('Info');
  if (info.isDictionary()) return info;
  const created = doc.addObject(doc.newDictionary());
  doc.getTrailer().put('Info', created);
  return created;
}

function carryOver(doc: mupdf.PDFDocument, info: mupdf.PDFObject, fields: Partial<XmpFields>): void {
  for (const [field, key] of Object.entries(CARRIED_KEYS) as [keyof XmpFields, string][]) {
    const value = fields[field];
    if (!value || !info.get(key).isNull()) continue;
    const date = field === 'creationDate' ? pdfDateOf(value) : value;
    if (date !== undefined) info.put(key, doc.newString(date));
  }
}

/** An XMP date (ISO 8601) as a PDF date; undefined when it does not parse. */
function pdfDateOf(iso: string): string | undefined {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? undefined : toPdfDate(new Date(time));
}

function catalog(doc: mupdf.PDFDocument): mupdf.PDFObject {
  const root = doc.getTrailer().get('Root');
  if (!root.isDictionary()) throw new ApiError('INVALID_INPUT', 'The PDF has no document catalog (damaged beyond repair)');
  return root;
}

function xmpStream(doc: mupdf.PDFDocument): mupdf.PDFObject | undefined {
  const metadata = catalog(doc).get('Metadata');
  return metadata.isStream() ? metadata : undefined;
}

function replaceXmp(doc: mupdf.PDFDocument, old: mupdf.PDFObject): void {
  const xmp = buildXmp(readMetadata(doc), readIdentification(old.readStream().asString()));
  const stream = doc.addStream(xmp, { Type: doc.newName('Metadata'), Subtype: doc.newName('XML') });
  catalog(doc).put('Metadata', stream);
}
