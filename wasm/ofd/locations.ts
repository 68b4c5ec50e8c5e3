// Where an OFD's references (ST_Loc) point: always a part of the same package. A location that
// starts with "/" is from the package root (the standard's absolute form); any other is relative
// to the part that names it. URLs, drive letters and "../" past the root name nothing: no file
// outside the package is ever read, whatever the document says.

import { ApiError } from '../../core/errors.js';
import type { OfficePackage } from '../read/package.js';
import { parseXml, type XmlElement } from '../read/xml.js';
import type { Budget } from '../read/limits.js';

/** The package part a location names from `baseDir` (a directory inside the package, '' for the root), or undefined. */
export function resolveLocation(baseDir: string, location: string): string | undefined {
  const loc = location.trim().replace(/\\/g, '/');
  if (loc === '' || /^[a-z][a-z0-9+.-]*:/i.test(loc)) return undefined;
  const parts = loc.startsWith('/') ? [] : baseDir.split('/').filter(Boolean);
  for (const segment of loc.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(segment);
  }
  return parts.join('/');
}

export const directoryOf = (part: string): string => part.slice(0, Math.max(0, part.lastIndexOf('/')));

/** The package's parts by exact name, and by lower-case name: OFD writers vary the case of folders (Tpls, TPLS). */
export class OfdParts {
  private readonly byLowerName = new Map<string, string>();
  private readonly parsed = new Map<string, XmlElement | undefined>();

  constructor(
    private readonly pkg: OfficePackage,
    private readonly nodes: Budget,
  ) {
    for (const name of pkg.names) if (!name.endsWith('/')) this.byLowerName.set(name.toLowerCase(), name);
  }

  private actual(part: string): string | undefined {
    return this.pkg.names.includes(part) ? part : this.byLowerName.get(part.toLowerCase());
  }

  bytes(part: string | undefined): Uint8Array | undefined {
    const name = part === undefined ? undefined : this.actual(part);
    return name === undefined ? undefined : this.pkg.bytes(name);
  }

  /**
   * A part parsed as XML, or undefined when it is missing; malformed XML is INVALID_INPUT. Each
   * part is parsed once, however many pages or entries name it (10,000 pages may name one part).
   */
  xml(part: string | undefined): XmlElement | undefined {
    const name = part === undefined ? undefined : this.actual(part);
    if (name === undefined) return undefined;
    if (!this.parsed.has(name)) {
      const text = new TextDecoder('utf-8').decode(this.pkg.bytes(name));
      this.parsed.set(name, /\S/.test(text) ? parseXml(text, name, this.nodes) : undefined);
    }
    return this.parsed.get(name);
  }

  /** A part the document cannot do without. */
  requiredXml(part: string | undefined, what: string): XmlElement {
    const xml = this.xml(part);
    if (!xml) throw new ApiError('INVALID_INPUT', `The OFD has no ${what}${part ? ` (${part})` : ''}`);
    return xml;
  }
}
