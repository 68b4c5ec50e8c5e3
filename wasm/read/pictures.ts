// Which OOXML pictures are pictures, for Word and PowerPoint alike: a picture whose blip refers
// to an image, held in the package (`r:embed`) or linked from outside it (`r:link`: the author's
// disk or the web, shown by Word and PowerPoint where the link resolves), is a placeholder with
// its alt text. A picture with no blip, a relationship that names nothing, a part the package
// lacks or a part declared as something other than an image shows nothing anywhere, so it is no
// placeholder of ours.

import path from 'node:path';
import type { OfficePackage } from './package.js';
import type { Relationships } from './relationships.js';
import { childElements, find, type XmlElement } from './xml.js';

/** A package's content types: by part name (Overrides) and by extension (Defaults). */
interface ContentTypes {
  parts: ReadonlyMap<string, string>;
  extensions: ReadonlyMap<string, string>;
  names: ReadonlySet<string>;
}

/** Read once per package: a deck of a thousand pictures asks a thousand times (and each parse spends from the package's XML budget). */
const contentTypesOf = new WeakMap<OfficePackage, ContentTypes>();

function contentTypes(pkg: OfficePackage): ContentTypes {
  let known = contentTypesOf.get(pkg);
  if (!known) {
    const types = pkg.xml('[Content_Types].xml');
    const entries = (name: string, key: string, normalise: (k: string) => string) =>
      new Map((types ? childElements(types, name) : []).map((e) => [normalise(e.attrs[key] ?? ''), e.attrs.ContentType ?? ''] as const));
    known = {
      parts: entries('Override', 'PartName', (k) => k.replace(/^\//, '')),
      extensions: entries('Default', 'Extension', (k) => k.toLowerCase()),
      names: new Set(pkg.names),
    };
    contentTypesOf.set(pkg, known);
  }
  return known;
}

/** The content type of a part by [Content_Types].xml: its Override, else its extension's Default. */
function contentTypeOf(pkg: OfficePackage, part: string): string | undefined {
  const { parts, extensions } = contentTypes(pkg);
  return parts.get(part) ?? extensions.get(path.posix.extname(part).slice(1).toLowerCase());
}

/**
 * Whether the picture element (p:pic, pic:pic) shows an image: an image part the package holds,
 * or one outside it — linked (`r:link`), or named by an `r:embed` whose relationship is external
 * (some writers do: docling's test file docx_external_image.docx names a web image so).
 */
export function showsImage(picture: XmlElement, rels: Relationships, pkg: OfficePackage): boolean {
  const blip = find(picture, 'a:blip');
  const rel = rels.get(blip?.attrs['r:embed'] ?? blip?.attrs['r:link'] ?? '');
  if (rel?.external === true) return rel.type.endsWith('/image');
  const part = rel?.part;
  if (part === undefined || !contentTypes(pkg).names.has(part)) return false;
  const type = contentTypeOf(pkg, part);
  // A package without content types for it is read leniently: the part is there.
  return type === undefined || type.startsWith('image/');
}

/**
 * A picture's alt text from its properties (p:cNvPr, wp:docPr): the description, else the title,
 * without the file name some programs put there (python-pptx writes the inserted file's name as
 * `descr`, PowerPoint for Mac and older Word the same): a name says nothing of what is shown.
 */
export function pictureAlt(properties: XmlElement | undefined): string {
  const alt = (properties?.attrs.descr || properties?.attrs.title || '').trim();
  return /^\S*\.(png|jpe?g|gif|bmp|tiff?|emf|wmf|svg|webp)$/i.test(alt) ? '' : alt;
}
