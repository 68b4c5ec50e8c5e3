// setMetadata on mupdf. The Info dictionary is the source of truth (pdfinfo and most viewers
// read it); when the document already has an XMP packet it is replaced by one regenerated from
// the updated Info dictionary, so both agree. Other XMP properties of the old packet are
// dropped, except a PDF/A or PDF/UA identification (see xmp.ts). A document without XMP gets none.

import type * as mupdf from 'mupdf';
import { METADATA_FIELDS, type MetadataField, type MetadataUpdate } from '../../../src/shared/pdf-metadata.js';
import { readMetadata } from './mupdf-info.js';
import { toPdfDate } from './pdf-date.js';
import { buildXmp, readIdentification } from './xmp.js';
import { ApiError } from '../../../src/errors.js';

const INFO_KEYS: Record<MetadataField, string> = {
  title: 'Title',
  author: 'Author',
  subject: 'Subject',
  keywords: 'Keywords',
  creator: 'Creator',
};

export function applyMetadata(doc: mupdf.PDFDocument, update: MetadataUpdate, now = new Date()): void {
  const info = infoDictionary(doc);
  for (const field of METADATA_FIELDS) {
    const value = update[field];
    if (value === undefined) continue;
    if (value === '') info.delete(INFO_KEYS[field]);
    else info.put(INFO_KEYS[field], doc.newString(value));
  }
  info.put('ModDate', doc.newString(toPdfDate(now)));
  refreshXmp(doc);
}

/** The Info dictionary, created (indirect, in the trailer) when the document has none. */
function infoDictionary(doc: mupdf.PDFDocument): mupdf.PDFObject {
  const trailer = doc.getTrailer();
  const info = trailer.get('Info');
  if (info.isDictionary()) return info;
  const created = doc.addObject(doc.newDictionary());
  trailer.put('Info', created);
  return created;
}

function refreshXmp(doc: mupdf.PDFDocument): void {
  const root = doc.getTrailer().get('Root');
  if (!root.isDictionary()) throw new ApiError('INVALID_INPUT', 'The PDF has no document catalog (damaged beyond repair)');
  const old = root.get('Metadata');
  if (!old.isStream()) return;
  const xmp = buildXmp(readMetadata(doc), readIdentification(old.readStream().asString()));
  root.put('Metadata', doc.addStream(xmp, { Type: doc.newName('Metadata'), Subtype: doc.newName('XML') }));
}
