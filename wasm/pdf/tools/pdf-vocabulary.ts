// PDF's own names (Type, Page, Font, Form, Text, ActualText...) are syntax, not text a document
// holds: redacting the word "Page" must neither rename /Type /Page nor count it as a copy left.
// mupdf keeps every name of its vocabulary as a small constant instead of an allocated object,
// so a name object's pointer below any heap address tells them apart.

import type * as mupdf from 'mupdf';

/** Above mupdf's table of known names (about 650 entries), below any allocated object. */
const VOCABULARY_LIMIT = 4096;

export function isPdfVocabulary(doc: mupdf.PDFDocument, name: string): boolean {
  const object = doc.newName(name);
  try {
    return (object.pointer as unknown as number) < VOCABULARY_LIMIT;
  } finally {
    object.destroy();
  }
}
