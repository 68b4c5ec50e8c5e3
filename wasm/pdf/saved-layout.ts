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
  const lines = table
    .split(/\r?\n|\r/)
    .map((line) => line.trim())
    .filter(Boolean);
  for (let i = 0; i < lines.length;) {
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

/** New bytes for one object, from `num gen obj` to `endobj`. */
export interface Replacement {
  /** How many bytes `bytes` gives. */
  length: number;
  /** Made only as the file is written, so that one object's new bytes at a time are in memory. */
  bytes: () => readonly Uint8Array[];
}

/**
 * The file as chunks, with each object of `replacements` (by number) in place of the old one.
 * Undefined when an object is not where the table says.
 */
export function replaceObjects(pdf: Uint8Array, layout: SavedLayout, replacements: ReadonlyMap<number, Replacement>): Iterable<Uint8Array> | undefined {
  const starts = layout.sections.flatMap((s) => s.entries.filter((e) => e.inUse).map((e) => e.offset));
  const ends = new Map([...starts].sort((a, b) => a - b).map((start, i, sorted) => [start, sorted[i + 1] ?? layout.xrefOffset]));
  const ranges: Range[] = [];
  for (const [num, replacement] of replacements) {
    const entry = entryOf(layout, num);
    if (!entry?.inUse || !latin1(pdf.subarray(entry.offset, entry.offset + 24)).startsWith(`${num} ${entry.generation} obj`)) return undefined;
    ranges.push({ start: entry.offset, end: ends.get(entry.offset) as number, replacement });
  }
  ranges.sort((a, b) => a.start - b.start);

  const moves: { from: number; shift: number }[] = [];
  let shift = 0;
  for (const { start, end, replacement } of ranges) {
    shift += replacement.length - (end - start);
    moves.push({ from: end, shift });
  }
  const moved = (offset: number) => offset + (moves.findLast((m) => m.from <= offset)?.shift ?? 0);
  const tail = Buffer.from(xrefText(layout, moved) + `${layout.trailer}startxref\n${moved(layout.xrefOffset)}\n%%EOF\n`, 'latin1');
  return chunksOf(pdf, ranges, layout.xrefOffset, tail);
}

interface Range {
  start: number;
  end: number;
  replacement: Replacement;
}

function* chunksOf(pdf: Uint8Array, ranges: readonly Range[], xrefOffset: number, tail: Uint8Array): Generator<Uint8Array> {
  let copied = 0;
  for (const { start, end, replacement } of ranges) {
    yield pdf.subarray(copied, start);
    const bytes = replacement.bytes();
    // Every offset after this object was computed from `length`.
    if (bytes.reduce((sum, b) => sum + b.length, 0) !== replacement.length) throw new RangeError('An object was not as long as announced');
    yield* bytes;
    copied = end;
  }
  yield pdf.subarray(copied, xrefOffset);
  yield tail;
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
