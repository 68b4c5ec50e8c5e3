// The fields of an e-invoice's original XML, attached to its OFD (`Document.xml` → `Attachments`
// → `Attachment`/`FileLoc`). Issuers attach it so a program need not read the drawing: the 2019
// e-invoice schema (`eInvoice`: InvoiceCode, InvoiceNo, IssueDate, TaxInclusiveTotalAmount,
// BuyerName, SellerTaxID …) or the tax bureau's XBRL instance (`xbrl`: inv:NumberOfInvoice,
// inv:DateOfIssue, inv:TaxIncludedAmountInFigures …). Each field named once in the XML becomes a
// field under its element's local name; repeated ones (the goods lines) and signatures are left
// out, since one name → value cannot hold them; so is the issuer's signature. Other attachments (pictures, any other XML) are
// not read.

import { ApiError } from '../../core/errors.js';
import { isElement, textOf, type XmlElement } from '../read/xml.js';
import { directoryOf, resolveLocation, type OfdParts } from './locations.js';

const local = (name: string) => name.slice(name.indexOf(':') + 1);
const elements = (element: XmlElement): XmlElement[] => element.children.filter(isElement);

/** The issuer's signature (base64 of an SM2 signature) is no field a reader wants in a table. */
const NOT_FIELDS = new Set(['Signature']);

/** Fields of the invoice XML attached to the document at `documentPart`, in document order. */
export function attachedInvoiceFields(parts: OfdParts, documentPart: string, document: XmlElement): Record<string, string> {
  const listLoc = elements(document).find((e) => local(e.name) === 'Attachments');
  const listPart = listLoc ? resolveLocation(directoryOf(documentPart), textOf(listLoc)) : undefined;
  const list = readAttachmentXml(parts, listPart);
  if (!list || listPart === undefined) return {};
  const fields: Record<string, string> = {};
  for (const attachment of elements(list).filter((e) => local(e.name) === 'Attachment')) {
    const fileLoc = elements(attachment).find((e) => local(e.name) === 'FileLoc');
    const part = fileLoc ? resolveLocation(directoryOf(listPart), textOf(fileLoc)) : undefined;
    if (!part || !/\.(xml|xbrl)$/i.test(part)) continue;
    const root = readAttachmentXml(parts, part);
    if (root) for (const [name, value] of Object.entries(invoiceFields(root))) if (!Object.hasOwn(fields, name)) fields[name] = value;
  }
  return fields;
}

/** An attachment's XML; one that does not parse is left out (the document is drawn without it), a budget overrun is not. */
function readAttachmentXml(parts: OfdParts, part: string | undefined): XmlElement | undefined {
  try {
    return parts.xml(part);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'INVALID_INPUT') return undefined;
    throw error;
  }
}

/** The fields of an e-invoice XML (`eInvoice`, an XBRL instance of invoice facts); nothing for any other XML. */
function invoiceFields(root: XmlElement): Record<string, string> {
  const rootName = local(root.name);
  // XBRL: the facts are the root's children that name a context; the rest is the instance's frame.
  const leaves = rootName === 'xbrl' ? elements(root).filter((e) => e.attrs.contextRef !== undefined) : /invoice/i.test(rootName) ? leafElements(root) : [];
  const counts = new Map<string, number>();
  for (const leaf of leaves) counts.set(local(leaf.name), (counts.get(local(leaf.name)) ?? 0) + 1);
  const fields: Record<string, string> = {};
  for (const leaf of leaves) {
    const name = local(leaf.name);
    const value = textOf(leaf).trim();
    if (value !== '' && counts.get(name) === 1 && !NOT_FIELDS.has(name)) fields[name] = value;
  }
  return fields;
}

/** Elements under `root` with no element inside, in document order. */
function leafElements(root: XmlElement): XmlElement[] {
  const leaves: XmlElement[] = [];
  const pending = [...elements(root)].reverse();
  while (pending.length) {
    const element = pending.pop() as XmlElement;
    const inner = elements(element);
    if (inner.length === 0) leaves.push(element);
    else for (let i = inner.length - 1; i >= 0; i--) pending.push(inner[i] as XmlElement);
  }
  return leaves;
}
