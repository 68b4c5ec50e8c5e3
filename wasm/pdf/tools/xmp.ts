// The XMP packet docwasm writes: the Info dictionary's fields in their XMP properties (as
// ISO 32000 maps them), plus a PDF/A or PDF/UA identification carried over from the packet it
// replaces, so a metadata edit does not silently turn a PDF/A into a plain PDF.

export interface XmpFields {
  title: string | null;
  author: string | null;
  subject: string | null;
  keywords: string | null;
  creator: string | null;
  producer: string | null;
  /** ISO 8601. */
  creationDate: string | null;
  modDate: string | null;
}

/** `pdfaid:part` / `pdfaid:conformance` / `pdfuaid:part` values of an existing packet. */
export interface XmpIdentification {
  pdfaPart?: string;
  pdfaConformance?: string;
  pdfuaPart?: string;
}

export function readIdentification(xmp: string): XmpIdentification {
  return {
    pdfaPart: xmpValue(xmp, 'pdfaid:part'),
    pdfaConformance: xmpValue(xmp, 'pdfaid:conformance'),
    pdfuaPart: xmpValue(xmp, 'pdfuaid:part'),
  };
}

/** A property written as an attribute (`pdfaid:part="2"`) or as an element. */
function xmpValue(xmp: string, name: string): string | undefined {
  const match = new RegExp(`${name}\\s*=\\s*["']([^"']*)["']|<${name}(?:\\s[^>]*)?>([^<]*)</${name}>`).exec(xmp);
  const raw = match ? (match[1] ?? match[2]) : undefined;
  return raw === undefined ? undefined : decodeXml(raw).trim();
}

/** The Info fields a packet holds, read where ISO 32000 maps them (the conventional prefixes assumed). */
export function readXmpFields(xmp: string): Partial<XmpFields> {
  const fields: Partial<XmpFields> = {
    title: listValue(xmp, 'dc:title', 'Alt'),
    author: listValue(xmp, 'dc:creator', 'Seq'),
    subject: listValue(xmp, 'dc:description', 'Alt'),
    keywords: xmpValue(xmp, 'pdf:Keywords'),
    creator: xmpValue(xmp, 'xmp:CreatorTool'),
    producer: xmpValue(xmp, 'pdf:Producer'),
    creationDate: xmpValue(xmp, 'xmp:CreateDate'),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value)) as Partial<XmpFields>;
}

/**
 * An rdf:Alt (its x-default item, else the first) or the items of an rdf:Seq joined with "; "
 * (the Info dictionary has one Author string for the list of creators).
 */
function listValue(xmp: string, name: string, kind: 'Alt' | 'Seq'): string | undefined {
  const body = new RegExp(`<${name}(?:\\s[^>]*)?>\\s*<rdf:${kind}(?:\\s[^>]*)?>([\\s\\S]*?)</rdf:${kind}>`).exec(xmp)?.[1];
  if (body === undefined) return undefined;
  const items = [...body.matchAll(/<rdf:li(\s[^>]*)?>([^<]*)<\/rdf:li>/g)].map(([, attributes = '', text = '']) => ({
    attributes,
    text: decodeXml(text).trim(),
  }));
  if (kind === 'Seq')
    return (
      items
        .map((item) => item.text)
        .filter(Boolean)
        .join('; ') || undefined
    );
  return (items.find((item) => /xml:lang\s*=\s*["']x-default["']/.test(item.attributes)) ?? items[0])?.text || undefined;
}

const XML_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeXml(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|lt|gt|amp|quot|apos);/g, (entity, name: string) => {
    if (!name.startsWith('#')) return XML_ENTITIES[name] ?? entity;
    const code = name.startsWith('#x') ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : entity;
  });
}

export function buildXmp(fields: XmpFields, id: XmpIdentification = {}): string {
  const properties = [
    langAlt('dc:title', fields.title),
    seq('dc:creator', fields.author),
    langAlt('dc:description', fields.subject),
    simple('pdf:Keywords', fields.keywords),
    simple('pdf:Producer', fields.producer),
    simple('xmp:CreatorTool', fields.creator),
    simple('xmp:CreateDate', fields.creationDate),
    simple('xmp:ModifyDate', fields.modDate),
    simple('xmp:MetadataDate', fields.modDate),
    simple('pdfaid:part', id.pdfaPart ?? null),
    simple('pdfaid:conformance', id.pdfaConformance ?? null),
    simple('pdfuaid:part', id.pdfuaPart ?? null),
  ].filter((line) => line !== '');
  return [
    '<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>',
    '<x:xmpmeta xmlns:x="adobe:ns:meta/">',
    '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
    '<rdf:Description rdf:about=""',
    ' xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:pdf="http://ns.adobe.com/pdf/1.3/"',
    ' xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/"',
    ' xmlns:pdfuaid="http://www.aiim.org/pdfua/ns/id/">',
    ...properties,
    '</rdf:Description>',
    '</rdf:RDF>',
    '</x:xmpmeta>',
    '<?xpacket end="w"?>',
  ].join('\n');
}

function simple(name: string, value: string | null): string {
  return value === null || value === '' ? '' : `<${name}>${escapeXml(value)}</${name}>`;
}

function langAlt(name: string, value: string | null): string {
  if (value === null || value === '') return '';
  return `<${name}><rdf:Alt><rdf:li xml:lang="x-default">${escapeXml(value)}</rdf:li></rdf:Alt></${name}>`;
}

function seq(name: string, value: string | null): string {
  if (value === null || value === '') return '';
  return `<${name}><rdf:Seq><rdf:li>${escapeXml(value)}</rdf:li></rdf:Seq></${name}>`;
}

function escapeXml(value: string): string {
  return value.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
