// XML of office packages as a small typed tree. Documents are hostile: a DOCTYPE (which office
// formats never need) is refused before parsing, so no DTD, no entity expansion, no external
// entity can exist; only XML's predefined and numeric character references are decoded. The
// tree is bounded while it is built (limits.ts): nesting past MAX_NESTING, or more nodes than
// the document's budget, stop the parse with TOO_LARGE. The walks below iterate (no recursion).

import { SaxesParser } from 'saxes';
import { ApiError } from '../../core/errors.js';
import { Budget, MAX_NESTING, MAX_XML_NODES, nestedTooDeep } from './limits.js';

export interface XmlElement {
  name: string;
  attrs: Readonly<Record<string, string>>;
  children: XmlNode[];
}
export type XmlNode = XmlElement | string;

/** The nodes one document may build over all its parts (MAX_XML_NODES). */
export const xmlNodeBudget = (): Budget =>
  new Budget(MAX_XML_NODES, (limit) => `The document's XML holds more than ${limit.toLocaleString('en-US')} elements and texts; refused`);

/** Fed to saxes in slices: one write of a whole large part is several times slower. */
const SLICE = 64 * 1024;

/**
 * C0 control characters XML 1.0 forbids (all but tab, line feed, carriage return). Writers let
 * them through from the text they were given (pandoc copies a stray backspace of its Markdown
 * into a slide), and a strict parse would then refuse the whole document for one invisible
 * character; they carry no text, so they are dropped before parsing.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const FORBIDDEN_CONTROLS = /[\x00-\x08\x0B\x0C\x0E-\x1F]/g;

/**
 * Parses `xml` (a part named `part`, for messages) into its root element, with saxes (a strict,
 * non-validating XML parser: names keep their prefixes, comments and processing instructions
 * are skipped, CDATA is text). It is an order of magnitude faster than a generic XML-to-object
 * parser on the large parts of office files.
 */
export function parseXml(source: string, part: string, nodes: Budget = xmlNodeBudget()): XmlElement {
  const xml = source.replace(FORBIDDEN_CONTROLS, '');
  if (/<!DOCTYPE/i.test(xml)) throw new ApiError('INVALID_INPUT', `${part} declares a DTD, which office documents never do; refused`);
  const top: XmlElement = { name: '', attrs: {}, children: [] };
  const stack: XmlElement[] = [top];
  const parser = new SaxesParser();
  parser.on('opentag', (tag) => {
    if (stack.length > MAX_NESTING) throw nestedTooDeep(part);
    nodes.spend(1);
    const element: XmlElement = { name: tag.name, attrs: tag.attributes as Record<string, string>, children: [] };
    (stack.at(-1) as XmlElement).children.push(element);
    stack.push(element);
  });
  parser.on('closetag', () => void stack.pop());
  const addText = (text: string) => {
    // Text outside the root element (whitespace after the declaration) belongs to no element.
    if (stack.length <= 1) return;
    nodes.spend(1);
    (stack.at(-1) as XmlElement).children.push(text);
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  try {
    for (let offset = 0; offset < xml.length; offset += SLICE) parser.write(xml.slice(offset, offset + SLICE));
    parser.close();
  } catch (err) {
    if (err instanceof ApiError) throw err;
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
  for (const found of descendants(element, name, true)) return found;
  return undefined;
}

/** All descendants of that name, in document order (not looking inside a match). */
export function findAll(element: XmlElement, name: string): XmlElement[] {
  return [...descendants(element, name, false)];
}

/** Descendants named `name` in document order; inside a match only when `enterMatches`. */
function* descendants(element: XmlElement, name: string, enterMatches: boolean): Generator<XmlElement> {
  const pending: XmlElement[] = childElements(element).reverse();
  while (pending.length) {
    const node = pending.pop() as XmlElement;
    const matches = node.name === name;
    if (matches) yield node;
    if (matches && !enterMatches) continue;
    for (let i = node.children.length - 1; i >= 0; i--) {
      const c = node.children[i] as XmlNode;
      if (isElement(c)) pending.push(c);
    }
  }
}

/** The concatenated text of an element and its descendants. */
export function textOf(element: XmlElement): string {
  let text = '';
  const pending: XmlNode[] = [...element.children].reverse();
  while (pending.length) {
    const node = pending.pop() as XmlNode;
    if (!isElement(node)) text += node;
    else for (let i = node.children.length - 1; i >= 0; i--) pending.push(node.children[i] as XmlNode);
  }
  return text;
}
