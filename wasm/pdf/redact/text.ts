// The text of a PDF that is not page content, redacted: annotation contents (and their
// appearance, regenerated), text-field values, bookmark titles, the Info dictionary and the XMP
// packet. A match is removed from the string, which otherwise stays as it was.

import type * as mupdf from 'mupdf';
import { removeMatches, type TextMatcher } from '../../../core/redact-patterns.js';
import type { TextRemovals } from '../engine.js';
import { unescapeXmlCharacters } from '../tools/text-readings.js';

/** Removes matches outside page content; adds the pages whose annotations or fields changed to `touched`. */
export function removeFromDocumentText(doc: mupdf.PDFDocument, matchers: readonly TextMatcher[], touched: Set<number>): DocumentTextRemovals {
  const redact = (text: string) => removeMatches(text, matchers);
  const removals: DocumentTextRemovals = { annotations: 0, fields: 0, bookmarks: 0, metadata: 0 };
  for (let index = 0; index < doc.countPages(); index++) {
    const page = doc.loadPage(index);
    try {
      const annotations = redactAnnotations(page, redact);
      const fields = redactFields(page, redact);
      if (annotations + fields > 0) touched.add(index + 1);
      removals.annotations += annotations;
      removals.fields += fields;
    } finally {
      page.destroy();
    }
  }
  removals.bookmarks = redactOutline(doc, redact);
  removals.metadata = redactInfo(doc, redact) + redactXmp(doc, redact);
  return removals;
}

type Redact = (text: string) => string;
type DocumentTextRemovals = Omit<TextRemovals, 'attachments' | 'other'>;

function redactAnnotations(page: mupdf.PDFPage, redact: Redact): number {
  let changed = 0;
  for (const annot of page.getAnnotations()) {
    const obj = annot.getObject();
    let hit = false;
    for (const key of ['Contents', 'T', 'Subj', 'RC']) {
      if (redactString(page._doc, obj, key, redact)) hit = true;
    }
    if (hit) {
      annot.update();
      changed++;
    }
  }
  return changed;
}

/** Text fields get their value replaced (and appearance regenerated); every field its /V and /TU strings. */
function redactFields(page: mupdf.PDFPage, redact: Redact): number {
  let changed = 0;
  for (const widget of page.getWidgets()) {
    let hit = false;
    if (widget.isText()) {
      const value = widget.getValue();
      const kept = redact(value);
      if (kept !== value) {
        widget.setTextValue(kept);
        hit = true;
      }
    }
    if (redactString(page._doc, widget.getObject(), 'TU', redact)) hit = true;
    if (hit) {
      widget.update();
      changed++;
    }
  }
  return changed;
}

/** Bookmark titles, walked through /First and /Next; a cycle in a damaged outline is walked once. */
function redactOutline(doc: mupdf.PDFDocument, redact: Redact): number {
  const seen = new Set<number>();
  let changed = 0;
  const walk = (first: mupdf.PDFObject) => {
    for (let item = first; item.isDictionary(); item = item.get('Next')) {
      if (item.isIndirect()) {
        if (seen.has(item.asIndirect())) return;
        seen.add(item.asIndirect());
      }
      if (redactString(doc, item, 'Title', redact)) changed++;
      walk(item.get('First'));
    }
  };
  // PDFObject.Null (an absent key) cannot be read further: look each level up in turn.
  const outlines = doc.getTrailer().get('Root').get('Outlines');
  if (outlines.isDictionary()) walk(outlines.get('First'));
  return changed;
}

function redactInfo(doc: mupdf.PDFDocument, redact: Redact): number {
  const info = doc.getTrailer().get('Info');
  if (!info.isDictionary()) return 0;
  const keys: string[] = [];
  info.forEach((_value, key) => keys.push(String(key)));
  return keys.filter((key) => redactString(doc, info, key, redact)).length;
}

function redactXmp(doc: mupdf.PDFDocument, redact: Redact): number {
  const xmp = doc.getTrailer().get('Root').get('Metadata');
  if (!xmp.isStream()) return 0;
  // Characters written as XML references (&#83;ECRET) are read as the characters.
  const packet = unescapeXmlCharacters(xmp.readStream().asString());
  const kept = redact(packet);
  if (kept === packet) return 0;
  xmp.writeStream(kept);
  return 1;
}

/** Replaces the string at `key` of `dict` by its redacted text; true when it changed. */
function redactString(doc: mupdf.PDFDocument, dict: mupdf.PDFObject, key: string, redact: Redact): boolean {
  const value = dict.get(key);
  if (!value.isString()) return false;
  const text = value.asString();
  const kept = redact(text);
  if (kept === text) return false;
  dict.put(key, doc.newString(kept));
  return true;
}
