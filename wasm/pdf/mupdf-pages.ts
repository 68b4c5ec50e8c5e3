// Copying pages between mupdf documents. mupdf's own graftPage re-walks the destination's page
// tree on every insert (16,000 pages took 16 s here, 48,000 took 139 s) and drops every
// annotation, links included. This appends to the page tree's root directly (linear) and keeps
// annotations that do not tie the page to the rest of its source document.

import * as mupdf from 'mupdf';

const INHERITABLE = ['Resources', 'MediaBox', 'CropBox', 'Rotate'];
/** Keys that point back into the source's page tree, structure tree or article threads. */
const PAGE_KEYS_LEFT_BEHIND = new Set(['Parent', 'Annots', 'B', 'StructParents']);
/** Annotation keys that reference the source page or other annotations. */
const ANNOT_KEYS_LEFT_BEHIND = new Set(['P', 'Popup', 'Parent', 'IRT']);
/** Form fields and popups belong to document-wide structures that a page copy cannot carry. */
const ANNOT_SUBTYPES_LEFT_BEHIND = new Set(['Widget', 'Popup']);

/** Appends the pages at `indices` (0-based) of `source` to the end of `target`. */
export function appendPages(target: mupdf.PDFDocument, source: mupdf.PDFDocument, indices: Iterable<number>): void {
  const root = target.getTrailer().get('Root').get('Pages');
  const kids = root.get('Kids');
  const graft = target.newGraftMap();
  let added = 0;
  try {
    for (const index of indices) {
      const page = target.addObject(graft.graftObject(detachedPage(source, source.findPage(index))));
      page.put('Parent', root);
      kids.push(page);
      added++;
    }
  } finally {
    graft.destroy(); // a graft map holds WASM memory until destroyed
  }
  root.put('Count', (root.get('Count').isNull() ? 0 : root.get('Count').asNumber()) + added);
}

/** A direct copy of a page dictionary with nothing that would drag the source's page tree along. */
function detachedPage(source: mupdf.PDFDocument, page: mupdf.PDFObject): mupdf.PDFObject {
  const copy = source.newDictionary();
  page.forEach((value, key) => {
    if (!PAGE_KEYS_LEFT_BEHIND.has(String(key))) copy.put(key, value);
  });
  for (const key of INHERITABLE) {
    if (!copy.get(key).isNull()) continue;
    const inherited = page.getInheritable(key);
    if (!inherited.isNull()) copy.put(key, inherited);
  }
  const annots = portableAnnotations(source, page.get('Annots'));
  if (annots) copy.put('Annots', annots);
  return copy;
}

function portableAnnotations(source: mupdf.PDFDocument, annots: mupdf.PDFObject): mupdf.PDFObject | undefined {
  if (!annots.isArray()) return undefined;
  const portable = source.newArray();
  annots.forEach((ref) => {
    const annot = ref.resolve();
    if (!annot.isDictionary() || ANNOT_SUBTYPES_LEFT_BEHIND.has(nameOf(annot.get('Subtype')))) return;
    const copy = source.newDictionary();
    annot.forEach((value, key) => {
      const name = String(key);
      if (ANNOT_KEYS_LEFT_BEHIND.has(name)) return;
      if ((name === 'Dest' || name === 'A') && pointsAtPage(name === 'A' ? value.get('D') : value)) return;
      copy.put(key, value);
    });
    portable.push(copy);
  });
  return portable.length > 0 ? portable : undefined;
}

/** An explicit destination `[pageRef /Fit …]`: it would pull the source page tree along. */
function pointsAtPage(dest: mupdf.PDFObject): boolean {
  if (!dest.isArray() || dest.length === 0) return false;
  const target = dest.get(0).resolve();
  return target.isDictionary() && nameOf(target.get('Type')) === 'Page';
}

function nameOf(obj: mupdf.PDFObject): string {
  return obj.isName() ? obj.asName() : '';
}
