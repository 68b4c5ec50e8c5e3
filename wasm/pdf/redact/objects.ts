// Redaction of everything in a PDF that is not drawn page content, object by object: every text
// string of every object (choice values and options, field defaults, link URIs, the structure
// tree's /Alt and /ActualText, page labels, layer names, named destinations, JavaScript strings,
// whatever else a writer put there), names, JavaScript and XMP streams (XML character references
// read as the characters), the property lists of marked content in content streams, attachments
// (removed whole when their name, description or body matches), and annotation appearances that
// still show a match (regenerated from the redacted values, or the annotation removed).

import type * as mupdf from 'mupdf';
import { contentStrings, redactPropertyStrings } from '../tools/content-strings.js';
import { isPdfVocabulary } from '../tools/pdf-vocabulary.js';
import { readingsOf, unescapeXmlCharacters } from '../tools/text-readings.js';

type Redact = (text: string) => string;
type Matches = (text: string) => boolean;

export interface ObjectRemovals {
  /** Strings, names and streams that lost a match. */
  objects: number;
  attachments: number;
  /** Annotations whose appearance was drawn again or that were removed because it showed a match. */
  appearances: number;
}

/** Adds the pages whose annotations changed to `touched`. */
export function redactObjects(doc: mupdf.PDFDocument, redact: Redact, matches: Matches, touched: Set<number>): ObjectRemovals {
  const attachments = removeAttachments(doc, matches, touched);
  const contentStreams = pageContentStreams(doc);
  const scripts = javaScriptStreams(doc);
  let objects = 0;
  for (let num = 1; num < doc.countObjects(); num++) {
    const ref = doc.newIndirect(num);
    const obj = ref.resolve();
    if (obj.isString()) objects += rewriteString(doc, obj, redact, (value) => ref.writeObject(value));
    else if (obj.isDictionary() || obj.isArray()) objects += redactContainer(doc, obj, redact);
    // A stream is one through its reference: the resolved dictionary is not.
    if (ref.isStream()) objects += redactStream(ref, contentStreams.has(num), scripts.has(num), redact);
  }
  objects += redactDestinationKeys(doc, redact);
  return { objects, attachments, appearances: redrawAppearances(doc, matches, touched) };
}

/** Strings and names inside a dictionary or array (not following references: each object is visited on its own). */
function redactContainer(doc: mupdf.PDFDocument, container: mupdf.PDFObject, redact: Redact): number {
  let changed = 0;
  container.forEach((value, key) => {
    if (value.isIndirect()) return;
    if (value.isString()) changed += rewriteString(doc, value, redact, (next) => container.put(key, next));
    else if (value.isName()) {
      const name = value.asName();
      if (isPdfVocabulary(doc, name)) return;
      const kept = redact(name);
      if (kept !== name) {
        container.put(key, doc.newName(kept || 'Redacted'));
        changed++;
      }
    } else if (value.isDictionary() || value.isArray()) changed += redactContainer(doc, value, redact);
  });
  return changed;
}

/** A string with a match loses it; characters written as XML references (rich text) are read as the characters. */
function rewriteString(doc: mupdf.PDFDocument, value: mupdf.PDFObject, redact: Redact, put: (next: mupdf.PDFObject) => void): number {
  const text = unescapeXmlCharacters(value.asString());
  const kept = redact(text);
  if (kept === text) return 0;
  put(doc.newString(kept));
  return 1;
}

/** XMP packets (any object's /Metadata), JavaScript streams and the property lists of content streams. */
function redactStream(stream: mupdf.PDFObject, isPageContent: boolean, isScript: boolean, redact: Redact): number {
  const subtype = stream.get('Subtype');
  const type = stream.get('Type');
  if (isPageContent || (subtype.isName() && subtype.asName() === 'Form')) {
    const rewritten = redactPropertyStrings(stream.readStream().asUint8Array(), redact);
    if (!rewritten) return 0;
    stream.writeStream(rewritten);
    return 1;
  }
  const isXmp = (type.isName() && type.asName() === 'Metadata') || (subtype.isName() && subtype.asName() === 'XML');
  if (!isXmp && !isScript) return 0;
  const packet = stream.readStream().asString();
  const readable = isXmp ? unescapeXmlCharacters(packet) : packet;
  const kept = redact(readable);
  if (kept === readable) return 0;
  stream.writeStream(kept);
  return 1;
}

/** The object numbers of the streams that actions name as their /JS. */
function javaScriptStreams(doc: mupdf.PDFDocument): Set<number> {
  const numbers = new Set<number>();
  for (let num = 1; num < doc.countObjects(); num++) {
    const obj = doc.newIndirect(num).resolve();
    if (!obj.isDictionary()) continue;
    const js = obj.get('JS');
    if (js.isIndirect() && js.isStream()) numbers.add(js.asIndirect());
  }
  return numbers;
}

/** The object numbers of every page's content streams. */
function pageContentStreams(doc: mupdf.PDFDocument): Set<number> {
  const numbers = new Set<number>();
  for (let index = 0; index < doc.countPages(); index++) {
    const contents = doc.findPage(index).get('Contents');
    const parts = contents.isArray() ? Array.from({ length: contents.length }, (_, i) => contents.get(i)) : [contents];
    for (const part of parts) if (part.isIndirect()) numbers.add(part.asIndirect());
  }
  return numbers;
}

/** The keys of the catalog's old-style /Dests dictionary are destination names: renamed like the /Dest names that use them. */
function redactDestinationKeys(doc: mupdf.PDFDocument, redact: Redact): number {
  const dests = doc.getTrailer().get('Root').get('Dests');
  if (!dests.isDictionary()) return 0;
  const renames: [string, string][] = [];
  dests.forEach((_value, key) => {
    const kept = redact(String(key));
    if (kept !== String(key)) renames.push([String(key), kept || 'Redacted']);
  });
  for (const [from, to] of renames) {
    dests.put(to, dests.get(from));
    dests.delete(from);
  }
  return renames.length;
}

/** Attachments (the /EmbeddedFiles name tree and FileAttachment annotations) whose name, description or body holds a match are removed. */
function removeAttachments(doc: mupdf.PDFDocument, matches: Matches, touched: Set<number>): number {
  let removed = 0;
  for (const [name, filespec] of Object.entries(doc.getEmbeddedFiles())) {
    if (matches(name) || filespecMatches(doc, filespec, matches)) {
      doc.deleteEmbeddedFile(name);
      removed++;
    }
  }
  for (let index = 0; index < doc.countPages(); index++) {
    const page = doc.loadPage(index);
    try {
      for (const annot of page.getAnnotations()) {
        if (annot.getType() !== 'FileAttachment') continue;
        const filespec = annot.getObject().get('FS');
        if (filespec.isDictionary() && filespecMatches(doc, filespec, matches)) {
          page.deleteAnnotation(annot);
          touched.add(index + 1);
          removed++;
        }
      }
    } finally {
      page.destroy();
    }
  }
  return removed;
}

function filespecMatches(doc: mupdf.PDFDocument, filespec: mupdf.PDFObject, matches: Matches): boolean {
  for (const key of ['F', 'UF', 'Desc']) {
    const value = filespec.get(key);
    if (value.isString() && (matches(value.asString()) || readingsOf(value.asByteString()).some(matches))) return true;
  }
  const ef = filespec.get('EF');
  if (!ef.isDictionary()) return false;
  let found = false;
  ef.forEach((stream) => {
    if (!found && stream.isStream()) found = readingsOf(stream.readStream().asUint8Array()).some(matches);
  });
  return found || (doc.isEmbeddedFile(filespec) && readingsOf(doc.getEmbeddedFileContents(filespec)?.asUint8Array() ?? new Uint8Array()).some(matches));
}

/**
 * An annotation whose appearance still shows a match (a stamp's or free text's own drawing, a
 * choice field's list drawn before its options were redacted) is drawn again from its redacted
 * values; when mupdf cannot draw it again without the match, the annotation is removed.
 */
function redrawAppearances(doc: mupdf.PDFDocument, matches: Matches, touched: Set<number>): number {
  let changed = 0;
  for (let index = 0; index < doc.countPages(); index++) {
    const page = doc.loadPage(index);
    try {
      for (const annot of [...page.getAnnotations(), ...page.getWidgets()]) {
        if (!appearanceShows(annot, matches)) continue;
        changed++;
        touched.add(index + 1);
        annot.getObject().delete('AP');
        annot.update();
        if (appearanceShows(annot, matches) && annot.getType() !== 'Widget') page.deleteAnnotation(annot);
      }
    } finally {
      page.destroy();
    }
  }
  return changed;
}

function appearanceShows(annot: mupdf.PDFAnnotation, matches: Matches): boolean {
  const list = annot.toDisplayList();
  const stext = list.toStructuredText('preserve-whitespace');
  try {
    if (matches(stext.asText())) return true;
  } finally {
    stext.destroy();
    list.destroy();
  }
  // The strings of the drawing too: text drawn outside the annotation's box is in the stream but not in the rendering.
  return appearanceStreams(annot.getObject().get('AP')).some((stream) =>
    contentStrings(stream.readStream().asUint8Array()).some((token) => readingsOf(token.bytes).some(matches)),
  );
}

/** /N, /R and /D of an appearance dictionary, each a stream or a dictionary of streams by state. */
function appearanceStreams(ap: mupdf.PDFObject): mupdf.PDFObject[] {
  const streams: mupdf.PDFObject[] = [];
  if (!ap.isDictionary()) return streams;
  ap.forEach((entry) => {
    if (entry.isStream()) streams.push(entry);
    else if (entry.isDictionary()) entry.forEach((state) => state.isStream() && streams.push(state));
  });
  return streams;
}
