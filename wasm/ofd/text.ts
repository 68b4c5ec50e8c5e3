// An OFD's text in reading order: every glyph placed on its page (Boundary, CTM), glyphs grouped
// into lines by baseline, lines top to bottom, glyphs left to right; a gap wider than one and a
// half ems between two glyphs of a line becomes a space (an invoice's label and its value).
// The Markdown opens with the document's custom data (an e-invoice's fields) as a table.

import type { RootContent, Table } from 'mdast';
import { apply, multiply, placement, IDENTITY, type Matrix, type OfdDocument, type OfdObject, type OfdPage } from './model.js';

interface PlacedGlyph {
  char: string;
  x: number;
  y: number;
  size: number;
}

/** The lines of one page's text, top to bottom. */
export function pageLines(page: OfdPage): string[] {
  const glyphs: PlacedGlyph[] = [];
  collectGlyphs(page.objects, IDENTITY, glyphs);
  glyphs.sort((a, b) => a.y - b.y || a.x - b.x);
  const lines: PlacedGlyph[][] = [];
  for (const glyph of glyphs) {
    const line = lines.at(-1);
    const first = line?.[0];
    if (line && first && Math.abs(glyph.y - first.y) <= Math.min(first.size, glyph.size) * 0.4) line.push(glyph);
    else lines.push([glyph]);
  }
  return lines.map(lineText).filter((line) => line.trim() !== '');
}

function lineText(line: PlacedGlyph[]): string {
  line.sort((a, b) => a.x - b.x);
  let text = '';
  for (const [i, glyph] of line.entries()) {
    const previous = line[i - 1];
    if (previous && glyph.x - previous.x > Math.max(previous.size, glyph.size) * 1.5 && !text.endsWith(' ') && glyph.char !== ' ') text += ' ';
    text += glyph.char;
  }
  return text.replace(/\s+/g, ' ').trim();
}

function collectGlyphs(objects: readonly OfdObject[], outer: Matrix, into: PlacedGlyph[]): void {
  for (const object of objects) {
    const toPage = multiply(placement(object), outer);
    if (object.kind === 'group') collectGlyphs(object.objects, toPage, into);
    if (object.kind !== 'text') continue;
    // The em's size on the page, for the line and gap tests: the CTM may scale the text.
    const scale = Math.hypot(toPage[2], toPage[3]) || 1;
    for (const glyph of object.glyphs) {
      const [x, y] = apply(toPage, glyph.x, glyph.y);
      into.push({ char: glyph.char, x, y, size: object.size * scale });
    }
  }
}

/** The custom data as a two-column table (Field | Value), or nothing when there is none. */
export function fieldsTable(fields: Readonly<Record<string, string>>): Table | undefined {
  const entries = Object.entries(fields);
  if (entries.length === 0) return undefined;
  const row = (cells: string[]) => ({
    type: 'tableRow' as const,
    children: cells.map((value) => ({ type: 'tableCell' as const, children: value === '' ? [] : [{ type: 'text' as const, value }] })),
  });
  return { type: 'table', align: [null, null], children: [row(['Field', 'Value']), ...entries.map(([name, value]) => row([name, value]))] };
}

/** Each page's blocks: its lines as one paragraph, a line break between lines. */
export function pageBlocks(document: OfdDocument): RootContent[][] {
  return document.pages.map((page) => {
    const lines = pageLines(page);
    if (lines.length === 0) return [];
    const children = lines.flatMap((line, i) =>
      i === 0 ? [{ type: 'text' as const, value: line }] : [{ type: 'break' as const }, { type: 'text' as const, value: line }],
    );
    return [{ type: 'paragraph', children }];
  });
}
