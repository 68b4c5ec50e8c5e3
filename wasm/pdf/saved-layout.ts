// The layout of a PDF mupdf has just written (a full save: one classic cross-reference table,
// then the trailer), and the same file with some objects replaced: the byte ranges of those
// objects swapped for new bytes and the table's offsets moved to match. Anything not laid out
// that way reads as undefined, and the caller keeps mupdf's own output.

export interface SavedLayout {
  xrefOffset: number;
  sections: XrefSection[];
  /** From `trailer` up to, not including, `startxref`. */
  trailer: string;
}

interface XrefSection {
  first: number;
  entries: XrefEntry[];
}

interface XrefEntry {
  offset: number;
  generation: number;
  inUse: boolean;
}

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');

export function readLayout(pdf: Uint8Array): SavedLayout | undefined {
  const tail = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(latin1(pdf.subarray(Math.max(0, pdf.length - 64))));
  const xrefOffset = Number(tail?.[1]);
  if (!tail || !(xrefOffset < pdf.length)) return undefined;
  const text = latin1(pdf.subarray(xrefOffset));
  const trailerAt = text.indexOf('trailer');
  const startxrefAt = text.lastIndexOf('startxref');
  if (!text.startsWith('xref') || trailerAt < 0 || startxrefAt < trailerAt) return undefined;
  const sections = readSections(text.slice(4, trailerAt));
  return sections && { xrefOffset, sections, trailer: text.slice(trailerAt, startxrefAt) };
}

function readSections(table: string): XrefSection[] | undefined {
  const sections: XrefSection[] = [];
  const lines = table.split(/\r?\n|\r/).map((line) => line.trim()).filter(Boolean);
  for (let i = 0; i < lines.length; ) {
    const header = /^(\d+) (\d+)$/.exec(lines[i++] as string);
    if (!header) return undefined;
    const entries = lines.slice(i, (i += Number(header[2]))).map(readEntry);
    if (entries.length !== Number(header[2]) || entries.some((e) => !e)) return undefined;
    sections.push({ first: Number(header[1]), entries: entries as XrefEntry[] });
  }
  return sections;
}

function readEntry(line: string): XrefEntry | undefined {
  const match = /^(\d{10}) (\d{5}) ([nf])$/.exec(line);
  return match ? { offset: Number(match[1]), generation: Number(match[2]), inUse: match[3] === 'n' } : undefined;
}

/** The generation of object `num` when it is in use in the table. */
export function generationOf(layout: SavedLayout, num: number): number | undefined {
  const entry = entryOf(layout, num);
  return entry?.inUse ? entry.generation : undefined;
}

function entryOf(layout: SavedLayout, num: number): XrefEntry | undefined {
  const section = layout.sections.find((s) => num >= s.first && num < s.first + s.entries.length);
  return section?.entries[num - section.first];
}

/**
 * The file as chunks, with each object of `replacements` (number → its new bytes, from
 * `num gen obj` to `endobj`) in place of the old one. Undefined when an object is not where
 * the table says.
 */
export function replaceObjects(pdf: Uint8Array, layout: SavedLayout, replacements: ReadonlyMap<number, readonly Uint8Array[]>): Uint8Array[] | undefined {
  const starts = layout.sections.flatMap((s) => s.entries.filter((e) => e.inUse).map((e) => e.offset));
  const ends = new Map([...starts].sort((a, b) => a - b).map((start, i, sorted) => [start, sorted[i + 1] ?? layout.xrefOffset]));
  const ranges: { start: number; end: number; bytes: readonly Uint8Array[] }[] = [];
  for (const [num, bytes] of replacements) {
    const entry = entryOf(layout, num);
    if (!entry?.inUse || !latin1(pdf.subarray(entry.offset, entry.offset + 24)).startsWith(`${num} ${entry.generation} obj`)) return undefined;
    ranges.push({ start: entry.offset, end: ends.get(entry.offset) as number, bytes });
  }
  ranges.sort((a, b) => a.start - b.start);

  const chunks: Uint8Array[] = [];
  const moves: { from: number; shift: number }[] = [];
  let copied = 0;
  let shift = 0;
  for (const range of ranges) {
    chunks.push(pdf.subarray(copied, range.start), ...range.bytes);
    shift += range.bytes.reduce((sum, b) => sum + b.length, 0) - (range.end - range.start);
    moves.push({ from: range.end, shift });
    copied = range.end;
  }
  chunks.push(pdf.subarray(copied, layout.xrefOffset));
  const moved = (offset: number) => offset + (moves.findLast((m) => m.from <= offset)?.shift ?? 0);
  chunks.push(Buffer.from(xrefText(layout, moved) + `${layout.trailer}startxref\n${moved(layout.xrefOffset)}\n%%EOF\n`, 'latin1'));
  return chunks;
}

function xrefText(layout: SavedLayout, moved: (offset: number) => number): string {
  const lines = ['xref'];
  for (const { first, entries } of layout.sections) {
    lines.push(`${first} ${entries.length}`);
    for (const e of entries) {
      const offset = e.inUse ? moved(e.offset) : e.offset;
      lines.push(`${String(offset).padStart(10, '0')} ${String(e.generation).padStart(5, '0')} ${e.inUse ? 'n' : 'f'} `);
    }
  }
  return `${lines.join('\n')}\n`;
}
