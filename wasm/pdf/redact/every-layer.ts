// Optional content that is off — a layer a viewer can turn on, content an /OCMD shows only in
// some states — is content like any other to redaction. mupdf's text search, redaction and
// drawing skip what the document's layer configuration hides, and it reads that configuration
// once, when the document is opened; so redaction works on a copy opened without /OCProperties,
// which shows everything, and the configuration is put back before the copy is saved.

import * as mupdf from 'mupdf';

export interface EveryLayerShown {
  /** The document with all its optional content shown: `doc` itself when it has none. */
  doc: mupdf.PDFDocument;
  /** Puts the layer configuration back on `doc` (before saving it). */
  restore: () => void;
  /** Frees the copy. */
  close: () => void;
}

export function showEveryLayer(doc: mupdf.PDFDocument): EveryLayerShown {
  const root = doc.getTrailer().get('Root');
  const layers = root.get('OCProperties');
  if (layers.isNull()) return { doc, restore: () => undefined, close: () => undefined };
  // Kept as an object of its own, so the copy (saved without dropping unused objects) still holds it.
  const kept = layers.isIndirect() ? layers : doc.addObject(layers);
  const number = kept.asIndirect();
  root.delete('OCProperties');
  const buffer = doc.saveToBuffer('encrypt=none');
  root.put('OCProperties', kept);
  let copy: mupdf.PDFDocument;
  try {
    copy = new mupdf.PDFDocument(buffer);
  } finally {
    buffer.destroy();
  }
  return {
    doc: copy,
    restore: () => copy.getTrailer().get('Root').put('OCProperties', copy.newIndirect(number)),
    close: () => copy.destroy(),
  };
}
