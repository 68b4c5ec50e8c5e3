// The content check's nesting counter (src/document-checks/markup-nesting.ts) is a byte scanner,
// not a parser: it must count what an XML parser counts — here saxes is the oracle — through
// quoted values holding `>` and `/>`, comments, CDATA, processing instructions and declarations,
// and fast enough that a 200 MB package is measured in seconds, not minutes.

import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { nestingOf } from '../../src/document-checks/markup-nesting.js';

function parserDepth(xml: string): number {
  const parser = new SaxesParser();
  let depth = 0;
  let deepest = 0;
  parser.on('opentag', () => (deepest = Math.max(deepest, ++depth)));
  parser.on('closetag', () => void depth--);
  parser.write(xml).close();
  return deepest;
}

const CASES: Record<string, string> = {
  'plain elements': '<?xml version="1.0"?><a><b><c/></b><b><c><d/></c></b></a>',
  'values holding > and />': `<a x="1>2" y='/>'><b z="a/>b"><c/></b></a>`,
  'comments, even of markup': '<a><!-- <b><c><d> --><b/><!----></a>',
  'CDATA of markup': '<a><![CDATA[<b><c><d>]]]]><e/></a>',
  'a processing instruction and a doctype': '<?xml version="1.0"?><!DOCTYPE a><a><?pi <b>?><b><c/></b></a>',
  'whitespace in tags': '<a  ><b\n attr = "v" /><c\t></c ></a >',
};

describe('the nesting counter of the content check', () => {
  for (const [name, xml] of Object.entries(CASES)) {
    it(`counts as a parser does: ${name}`, () => {
      expect(nestingOf(Buffer.from(xml))).toBe(parserDepth(xml));
    });
  }

  it('counts 20,000 sections nested in one another, and as many in a row as one level', () => {
    expect(nestingOf(Buffer.from('<s>'.repeat(20_000) + '</s>'.repeat(20_000)))).toBe(20_000);
    expect(nestingOf(Buffer.from('<body>' + '<s></s>'.repeat(20_000) + '</body>'))).toBe(2);
  });

  it('measures 200 MB of markup in one pass (the hostile corpus held a conversion for minutes with a parser)', () => {
    const huge = Buffer.alloc(200 * 1024 * 1024, '<w:p/>');
    expect(nestingOf(huge)).toBe(1);
  });
});
