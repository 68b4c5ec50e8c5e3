// The shipped CJK face's line height, as the WebAssembly office is given it. Noto Sans SC
// (@embedpdf/fonts-sc) declares 0.88 em above and 0.12 em below the baseline plus a 0.5 em line
// gap, and sets USE_TYPO_METRICS: LibreOffice makes each of its lines 1.5 em tall. The faces
// Chinese documents name are shorter — SimSun and SimHei 1.0 em, Microsoft YaHei 1.32 em (their
// hhea tables) — and the installed office on Debian sets 宋体 at DejaVu Sans's line height (its
// fallback for the name) with WenQuanYi Zen Hei's glyphs: 1.16 em. With the Chinese families
// aliased to the shipped face (profile.ts) and that face as shipped, a 宋体 report of 13 pages
// took 17 and a 10.5 pt one with a line grid (Word's Chinese template) 46 for 24, each line
// taking two rows of the grid (docs/office-fidelity.md). The copy the office gets declares
// LINE_METRICS instead, in every table a layout engine may read (hhea; OS/2 typo and win): 13
// and 24. The glyphs, their widths and the file on disk are untouched.

/** In em: the installed office's line for 宋体 here, between SimSun's and Microsoft YaHei's. */
export const LINE_METRICS = { ascent: 0.92, descent: 0.24, lineGap: 0 } as const;

interface TableRecord {
  /** Where the table's directory entry is (its checksum at +4). */
  entry: number;
  offset: number;
  length: number;
}

/**
 * A copy of an OpenType/TrueType font (not a collection) whose hhea and OS/2 declare
 * LINE_METRICS, with those tables' checksums and head's checkSumAdjustment made right again.
 * Throws when the font lacks head, hhea or OS/2 or a table lies outside the file.
 */
export function withCjkLineMetrics(font: Uint8Array): Uint8Array {
  const bytes = new Uint8Array(font);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tables = tableDirectory(view);
  const head = required(tables, 'head');
  const hhea = required(tables, 'hhea');
  const os2 = required(tables, 'OS/2');
  if (os2.length < 78) throw new Error('the font has an OS/2 table too short for its vertical metrics');
  const unitsPerEm = view.getUint16(head.offset + 18);
  const [ascent, descent, lineGap] = [LINE_METRICS.ascent, LINE_METRICS.descent, LINE_METRICS.lineGap].map((em) => Math.round(em * unitsPerEm)) as [
    number,
    number,
    number,
  ];
  view.setInt16(hhea.offset + 4, ascent);
  view.setInt16(hhea.offset + 6, -descent);
  view.setInt16(hhea.offset + 8, lineGap);
  view.setInt16(os2.offset + 68, ascent); // sTypoAscender
  view.setInt16(os2.offset + 70, -descent); // sTypoDescender
  view.setInt16(os2.offset + 72, lineGap); // sTypoLineGap
  view.setUint16(os2.offset + 74, ascent); // usWinAscent
  view.setUint16(os2.offset + 76, descent); // usWinDescent
  for (const table of [hhea, os2]) view.setUint32(table.entry + 4, checksum(view, table.offset, table.length));
  view.setUint32(head.offset + 8, 0);
  view.setUint32(head.offset + 8, (0xb1b0afba - checksum(view, 0, bytes.byteLength)) >>> 0);
  return bytes;
}

function tableDirectory(view: DataView): Map<string, TableRecord> {
  if (view.byteLength < 12) throw new Error('not an OpenType font: too short');
  const count = view.getUint16(4);
  const tables = new Map<string, TableRecord>();
  for (let i = 0; i < count; i++) {
    const entry = 12 + 16 * i;
    if (entry + 16 > view.byteLength) throw new Error('not an OpenType font: its table directory is cut short');
    const tag = String.fromCharCode(view.getUint8(entry), view.getUint8(entry + 1), view.getUint8(entry + 2), view.getUint8(entry + 3));
    const record = { entry, offset: view.getUint32(entry + 8), length: view.getUint32(entry + 12) };
    if (record.offset + record.length > view.byteLength) throw new Error(`the font's ${tag} table lies outside the file`);
    tables.set(tag, record);
  }
  return tables;
}

function required(tables: Map<string, TableRecord>, tag: string): TableRecord {
  const table = tables.get(tag);
  if (!table) throw new Error(`the font has no ${tag} table`);
  return table;
}

/** OpenType's table checksum: the sum of big-endian 32-bit words, the last one padded with zeros. */
function checksum(view: DataView, offset: number, length: number): number {
  let sum = 0;
  for (let at = offset; at < offset + length; at += 4) {
    let word = 0;
    for (let k = 0; k < 4; k++) word = (word << 8) | (at + k < offset + length ? view.getUint8(at + k) : 0);
    sum = (sum + (word >>> 0)) >>> 0;
  }
  return sum;
}
