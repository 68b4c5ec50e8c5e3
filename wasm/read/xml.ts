// XML of office packages as a small typed tree. Documents are hostile: a DOCTYPE (which office
// formats never need) is refused before parsing, so no DTD, no entity expansion, no external
// entity can exist; only XML's predefined and numeric character references are decoded.

import { XMLParser } from 'fast-xml-parser';
import { ApiError } from '../../src/errors.js';

export interface XmlElement {
  name: string;
  attrs: Readonly<Record<string, string>>;
  children: XmlNode[];
}
export type XmlNode = XmlElement | string;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: true,
  htmlEntities: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
});

type RawNode = Record<string, unknown>;

/** Parses `xml` (a part named `part`, for messages) into its root element. */
export function parseXml(xml: string, part: string): XmlElement {
  if (/<!DOCTYPE/i.test(xml)) throw new ApiError('INVALID_INPUT', `${part} declares a DTD, which office documents never do; refused`);
  let raw: RawNode[];
  try {
    raw = parser.parse(xml) as RawNode[];
  } catch {
    throw new ApiError('INVALID_INPUT', `${part} is not well-formed XML`);
  }
  const root = toNodes(raw).find((n): n is XmlElement => typeof n !== 'string');
  if (!root) throw new ApiError('INVALID_INPUT', `${part} has no root element`);
  return root;
}

function toNodes(raw: readonly RawNode[]): XmlNode[] {
  const nodes: XmlNode[] = [];
  for (const item of raw) {
    for (const [key, value] of Object.entries(item)) {
      if (key === ':@') continue;
      if (key === '#text') nodes.push(String(value));
      else nodes.push({ name: key, attrs: (item[':@'] as Record<string, string> | undefined) ?? {}, children: toNodes(value as RawNode[]) });
    }
  }
  return nodes;
}

export const isElement = (node: XmlNode): node is XmlElement => typeof node !== 'string';

/** Direct child elements, optionally of one name. */
export function childElements(element: XmlElement, name?: string): XmlElement[] {
  return element.children.filter((c): c is XmlElement => isElement(c) && (name === undefined || c.name === name));
}

export function child(element: XmlElement | undefined, name: string): XmlElement | undefined {
  return element?.children.find((c): c is XmlElement => isElement(c) && c.name === name);
}

/** First descendant (depth first) of that name. */
export function find(element: XmlElement, name: string): XmlElement | undefined {
  for (const c of element.children) {
    if (!isElement(c)) continue;
    if (c.name === name) return c;
    const deeper = find(c, name);
    if (deeper) return deeper;
  }
  return undefined;
}

/** All descendants of that name, in document order. */
export function findAll(element: XmlElement, name: string, into: XmlElement[] = []): XmlElement[] {
  for (const c of element.children) {
    if (!isElement(c)) continue;
    if (c.name === name) into.push(c);
    else findAll(c, name, into);
  }
  return into;
}

/** The concatenated text of an element and its descendants. */
export function textOf(element: XmlElement): string {
  return element.children.map((c) => (isElement(c) ? textOf(c) : c)).join('');
}
