// The ways a secret can be written in the bytes of a PDF object: PDFDocEncoding/Latin-1, UTF-8,
// UTF-16 in either byte order and at either alignment (a string without its byte-order mark, or
// one inside a longer stream), and XML character references (`&#83;ECRET`, `&#x53;`) as an XMP
// packet or rich text may hold them. Redaction's safety net reads every object all these ways.

import { utf16be } from './content-strings.js';

/** Every reading of `bytes` a viewer, an extractor or a grep could make. */
export function readingsOf(bytes: Uint8Array): string[] {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const latin1 = buffer.toString('latin1');
  const utf8 = buffer.toString('utf8');
  const readings = [latin1, utf8, decodeXmlReferences(latin1), decodeXmlReferences(utf8)];
  for (const offset of [0, 1]) {
    const part = buffer.subarray(offset);
    readings.push(utf16be(part), part.subarray(0, part.length & ~1).toString('utf16le'));
  }
  return readings;
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** `text` with XML character and entity references replaced by the characters they stand for. */
export function decodeXmlReferences(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|(amp|lt|gt|quot|apos));/g, (whole, dec?: string, hex?: string, name?: string) => {
    if (name) return NAMED[name] ?? whole;
    const code = dec !== undefined ? Number(dec) : parseInt(hex ?? '', 16);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/**
 * `text` (XML) with character references of ordinary characters written as the characters, so
 * that a match hidden behind them can be found and removed; references to markup characters
 * (`<`, `&`, `>`, quotes) stay, so the XML stays well-formed.
 */
export function unescapeXmlCharacters(text: string): string {
  if (!text.includes('&#')) return text;
  return text.replace(/&#(?:(\d{1,7})|[xX]([0-9a-fA-F]{1,6}));/g, (whole, dec?: string, hex?: string) => {
    const code = dec !== undefined ? Number(dec) : parseInt(hex ?? '', 16);
    if (!(code > 0 && code <= 0x10ffff)) return whole;
    const char = String.fromCodePoint(code);
    return '<>&"\''.includes(char) ? whole : char;
  });
}
