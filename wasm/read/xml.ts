// XML of office packages as a small typed tree. Documents are hostile: a DOCTYPE (which office
// formats never need) is refused before parsing, so no DTD, no entity expansion, no external
// entity can exist; only XML's predefined and numeric character references are decoded.

import { SaxesParser } from 'saxes';
import { ApiError } from '../../src/errors.js';

export interface XmlElement {
  name: string;
  attrs: Readonly<Record<string, string>>;
  children: XmlNode[];
}
export type XmlNode = XmlElement | string;

/**
 * Parses `xml` (a part named `part`, for messages) into its root element, with saxes (a strict,
 * non-validating XML parser: names keep their prefixes, comments and processing instructions
 * are skipped, CDATA is text). It is an order of magnitude faster than a generic XML-to-object
 * parser on the large parts of office files.
 */
export function parseXml(xml: string, part: string): XmlElement {
  if (/<!DOCTYPE/i.test(xml)) throw new ApiError('INVALID_INPUT', `${part} declares a DTD, which office documents never do; refused`);
  const top: XmlElement = { name: '', attrs: {}, children: [] };
  const stack: XmlElement[] = [top];
  const parser = new SaxesParser();
  parser.on('opentag', (tag) => {
    const element: XmlElement = { name: tag.name, attrs: tag.attributes as Record<string, string>, children: [] };
    (stack.at(-1) as XmlElement).children.push(element);
    stack.push(element);
  });
  parser.on('closetag', () => void stack.pop());
  const addText = (text: string) => {
    // Text outside the root element (whitespace after the declaration) belongs to no element.
    if (stack.length > 1) (stack.at(-1) as XmlElement).children.push(text);
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  try {
    parser.write(xml).close();
  } catch {
    throw new ApiError('INVALID_INPUT', `${part} is not well-formed XML`);
  }
  const root = top.children.find((n): n is XmlElement => typeof n !== 'string');
  if (!root) throw new ApiError('INVALID_INPUT', `${part} has no root element`);
  return root;
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
