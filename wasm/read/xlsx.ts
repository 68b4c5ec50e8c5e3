// Excel workbooks (xlsx) from their own XML: one `## ` section per visible sheet, its used range
// as a table (first row the header), cached formula values, dates written as dates (by the
// cell's number format), merged cells as an HTML table with spans.

import type { RootContent } from 'mdast';
import { ApiError } from '../../src/errors.js';
import { heading, table, type CellSource } from './blocks.js';
import type { OfficePackage } from './package.js';
import { blocksToHtml } from './render.js';
import { relationships } from './relationships.js';
import { formatSerialDate, isDateFormat } from './spreadsheet-dates.js';
import { child, childElements, findAll, parseXml, textOf, type XmlElement } from './xml.js';

/** Cells read per sheet at most; a larger used range is cut (the Markdown would be cut anyway). */
const MAX_CELLS_PER_SHEET = 500_000;

interface Workbook {
  sharedStrings: string[];
  /** Style index (the cell's `s`) → whether it formats a date, and how. */
  dateStyles: Map<number, string>;
  date1904: boolean;
}

export function readXlsx(pkg: OfficePackage): RootContent[] {
  const workbookXml = pkg.text('xl/workbook.xml');
  if (workbookXml === undefined) throw new ApiError('INVALID_INPUT', 'The file is not an Excel workbook (no xl/workbook.xml)');
  const workbookRoot = parseXml(workbookXml, 'xl/workbook.xml');
  const rels = relationships(pkg, 'xl/workbook.xml');
  const book: Workbook = {
    sharedStrings: readSharedStrings(pkg.text('xl/sharedStrings.xml')),
    dateStyles: readDateStyles(pkg.text('xl/styles.xml')),
    date1904: /^(1|true)$/.test(child(workbookRoot, 'workbookPr')?.attrs.date1904 ?? ''),
  };
  const out: RootContent[] = [];
  for (const sheet of childElements(child(workbookRoot, 'sheets') ?? workbookRoot, 'sheet')) {
    if (sheet.attrs.state === 'hidden' || sheet.attrs.state === 'veryHidden') continue;
    const part = rels.get(sheet.attrs['r:id'] ?? '')?.part;
    const xml = part ? pkg.text(part) : undefined;
    out.push(heading(2, [{ text: sheet.attrs.name ?? 'Sheet' }]));
    if (xml && part) out.push(...readSheet(parseXml(xml, part), book));
  }
  return out;
}

function readSheet(root: XmlElement, book: Workbook): RootContent[] {
  const cells = new Map<string, string>();
  let minRow = Infinity;
  let maxRow = -1;
  let minCol = Infinity;
  let maxCol = -1;
  let count = 0;
  for (const row of childElements(child(root, 'sheetData') ?? root, 'row')) {
    for (const c of childElements(row, 'c')) {
      const value = cellValue(c, book);
      const position = parseRef(c.attrs.r ?? '');
      if (value === '' || !position || ++count > MAX_CELLS_PER_SHEET) continue;
      const [r, col] = position;
      cells.set(`${r}:${col}`, value);
      minRow = Math.min(minRow, r);
      maxRow = Math.max(maxRow, r);
      minCol = Math.min(minCol, col);
      maxCol = Math.max(maxCol, col);
    }
  }
  if (maxRow < 0) return [];
  const mergeCells = child(root, 'mergeCells');
  const merges = (mergeCells ? findAll(mergeCells, 'mergeCell') : []).map((m) => parseRange(m.attrs.ref ?? '')).filter((m) => m !== undefined);
  const rows: CellSource[][] = [];
  for (let r = minRow; r <= maxRow; r++) {
    const row: CellSource[] = [];
    for (let col = minCol; col <= maxCol; col++) {
      const merge = merges.find(([r1, c1, r2, c2]) => r >= r1 && r <= r2 && col >= c1 && col <= c2);
      const value = cells.get(`${r}:${col}`) ?? '';
      const blocks = value ? [{ type: 'paragraph' as const, children: [{ type: 'text' as const, value }] }] : [];
      if (merge && (merge[0] !== r || merge[1] !== col)) row.push({ blocks: [], colSpan: 1, rowSpan: 1, covered: true });
      else if (merge) row.push({ blocks, colSpan: merge[3] - merge[1] + 1, rowSpan: merge[2] - merge[0] + 1 });
      else row.push({ blocks, colSpan: 1, rowSpan: 1 });
    }
    rows.push(row);
  }
  return [table(rows, blocksToHtml)];
}

function cellValue(c: XmlElement, book: Workbook): string {
  const type = c.attrs.t ?? 'n';
  const raw = child(c, 'v') ? textOf(child(c, 'v') as XmlElement) : '';
  switch (type) {
    case 's':
      return book.sharedStrings[Number(raw)] ?? '';
    case 'inlineStr':
      return richText(child(c, 'is'));
    case 'b':
      return raw === '1' ? 'TRUE' : raw === '0' ? 'FALSE' : raw;
    case 'str':
    case 'e':
    case 'd':
      return raw;
    default: {
      const dateFormat = book.dateStyles.get(Number(c.attrs.s ?? -1));
      return dateFormat !== undefined && raw !== '' && Number.isFinite(Number(raw)) ? formatSerialDate(Number(raw), dateFormat, book.date1904) : raw;
    }
  }
}

/** Text of a string item: plain `t` or rich runs `r/t`, without phonetic guides (`rPh`). */
function richText(si: XmlElement | undefined): string {
  if (!si) return '';
  return childElements(si)
    .map((e) => (e.name === 't' ? textOf(e) : e.name === 'r' ? textOf(child(e, 't') ?? e) : ''))
    .join('');
}

function readSharedStrings(xml: string | undefined): string[] {
  if (!xml) return [];
  return childElements(parseXml(xml, 'xl/sharedStrings.xml'), 'si').map(richText);
}

function readDateStyles(xml: string | undefined): Map<number, string> {
  const styles = new Map<number, string>();
  if (!xml) return styles;
  const root = parseXml(xml, 'xl/styles.xml');
  const custom = new Map(findAll(child(root, 'numFmts') ?? root, 'numFmt').map((f) => [Number(f.attrs.numFmtId), f.attrs.formatCode ?? '']));
  childElements(child(root, 'cellXfs') ?? root, 'xf').forEach((xf, index) => {
    const id = Number(xf.attrs.numFmtId ?? 0);
    const format = isDateFormat(id, custom.get(id));
    if (format) styles.set(index, format);
  });
  return styles;
}

/** "B12" → [12, 2] (1-based). */
function parseRef(ref: string): [number, number] | undefined {
  const match = /^\$?([A-Z]{1,3})\$?(\d+)$/.exec(ref);
  if (!match) return undefined;
  const col = [...(match[1] as string)].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0);
  return [Number(match[2]), col];
}

/** "A1:C2" → [row1, col1, row2, col2]. */
function parseRange(ref: string): [number, number, number, number] | undefined {
  const [a, b] = ref.split(':');
  const start = parseRef(a ?? '');
  const end = parseRef(b ?? a ?? '');
  return start && end ? [start[0], start[1], end[0], end[1]] : undefined;
}
