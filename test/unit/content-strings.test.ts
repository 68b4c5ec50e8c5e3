// The content-stream string reader behind redaction of marked-content property lists and its
// safety net: literal strings with escapes and nesting, hex strings, comments, dictionaries,
// inline image data (which may hold parentheses) skipped, and only property-list strings rewritten.

import { describe, expect, it } from 'vitest';
import { contentStrings, openState, redactPropertyStrings, textOf } from '../../wasm/pdf/tools/content-strings.js';
import { decodeXmlReferences, readingsOf, unescapeXmlCharacters } from '../../wasm/pdf/tools/text-readings.js';

const bytes = (text: string) => Buffer.from(text, 'latin1');
const texts = (stream: string) => contentStrings(bytes(stream)).map((token) => textOf(token.bytes));

describe('content stream strings', () => {
  it('reads literal strings with escapes, octal codes, balanced parentheses and line continuations', () => {
    expect(texts('BT (a\\(b\\)c) Tj (nest (ed) ok) Tj (\\101\\102C) Tj (line\\\ncontinued) Tj (tab\\there) Tj ET')).toEqual([
      'a(b)c',
      'nest (ed) ok',
      'ABC',
      'linecontinued',
      'tab\there',
    ]);
  });

  it('reads hex strings (odd digit count padded, spaces ignored) and tells them from dictionaries', () => {
    expect(texts('/Span << /ActualText <FEFF 0053 0045> >> BDC [<414> 10 (x)] TJ EMC')).toEqual(['SE', 'A@', 'x']);
  });

  it('marks the strings that follow a name (property-list values), not text operands', () => {
    const tokens = contentStrings(bytes('/Span << /Alt (alt) /ActualText (real) >> BDC BT /F1 12 Tf (shown) Tj ET EMC'));
    expect(tokens.map((token) => [textOf(token.bytes), token.afterName])).toEqual([
      ['alt', true],
      ['real', true],
      ['shown', false],
    ]);
  });

  it('skips comments and inline image data, whatever bytes they hold', () => {
    expect(texts('% a comment (not a string)\nBI /W 2 /H 1 /BPC 8 /CS /G ID (( )) \nEI (after) Tj')).toEqual(['after']);
  });

  it('rewrites only property-list strings that change, as UTF-16BE hex, and leaves the rest byte for byte', () => {
    const stream = '/Span << /ActualText (SECRET plan) >> BDC BT (SECRET) Tj ET EMC /Span << /ActualText (public) >> BDC EMC';
    const rewritten = redactPropertyStrings(bytes(stream), (text) => text.replace('SECRET', ''));
    expect(rewritten && Buffer.from(rewritten).toString('latin1')).toBe(
      '/Span << /ActualText <FEFF00200070006C0061006E> >> BDC BT (SECRET) Tj ET EMC /Span << /ActualText (public) >> BDC EMC',
    );
    expect(redactPropertyStrings(bytes(stream), (text) => text)).toBeNull();
  });
});

describe('what a content stream leaves open', () => {
  it('counts q left open, Q beyond its own q and an open BT — operators only, not inside strings, comments or inline images', () => {
    expect(openState(bytes('q (Q) Tj BT q Q Q ET BT % Q\n q'))).toEqual({ saves: 1, extraRestores: 0, inText: true });
    expect(openState(bytes('Q Q q 1 0 0 1 0 0 cm'))).toEqual({ saves: 1, extraRestores: 2, inText: false });
    expect(openState(bytes('q BI /W 1 /H 1 ID Q) q EI Q'))).toEqual({ saves: 0, extraRestores: 0, inText: false });
  });
});

describe('text readings', () => {
  it('reads bytes as Latin-1, UTF-8, UTF-16 both ways at both alignments, and with XML references resolved', () => {
    const utf16be = Buffer.from('xSECRET', 'utf16le').swap16();
    expect(readingsOf(utf16be).some((reading) => reading.includes('SECRET'))).toBe(true);
    expect(readingsOf(Buffer.concat([Buffer.from([0]), utf16be])).some((reading) => reading.includes('SECRET'))).toBe(true);
    expect(readingsOf(Buffer.from('a&#83;E&#x43;RET', 'latin1')).some((reading) => reading.includes('SECRET'))).toBe(true);
  });

  it('unescapes character references of ordinary characters only, so XML stays XML', () => {
    expect(unescapeXmlCharacters('&#83;ECRET &#60;b&#62; &amp;')).toBe('SECRET &#60;b&#62; &amp;');
    expect(decodeXmlReferences('&#83;&#x45;&lt;&amp;')).toBe('SE<&');
  });
});
