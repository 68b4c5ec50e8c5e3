// Excel workbooks (xlsx) from their own XML: one `## ` section per visible sheet, its cells as
// tables (sheet-tables.ts: one per block of touching cells, first row the header), cached formula
// values (the formula's text where none is cached), dates written as dates (by the cell's number format), merged cells as an HTML table
// with spans; the sheet's charts (its drawing's, a chart sheet's) after its tables, their title
// and data as chart.ts reads them in Word and PowerPoint files.

import type { RootContent } from 'mdast';
import { ApiError } from '../../core/errors.js';
import { append, heading, type CellSource } from './blocks.js';
import { chartFrameBlocks } from './chart.js';
import { cellBudget, MAX_CELLS, type Budget } from './limits.js';
import type { OfficePackage } from './package.js';
import { relationships } from './relationships.js';
import { cellKey, sheetTables } from './sheet-tables.js';
import { formatSerialDate, isDateFormat } from './spreadsheet-dates.js';
import { child, childElements, findAll, textOf, type XmlElement } from './xml.js';

interface Workbook {
  sharedStrings: string[];
  /** Style index (the cell's `s`) → whether it formats a date, and how. */
  dateStyles: Map<number, string>;
  date1904: boolean;
  /** Cells with a value, over every sheet. */
  cells: Budget;
}

export function readXlsx(pkg: OfficePackage): RootContent[] {
  const workbookRoot = pkg.xml('xl/workbook.xml');
  if (workbookRoot === undefined) throw new ApiError('INVALID_INPUT', 'The file is not an Excel workbook (no xl/workbook.xml)');
  const rels = relationships(pkg, 'xl/workbook.xml');
  const book: Workbook = {
    sharedStrings: readSharedStrings(pkg.xml('xl/sharedStrings.xml')),
    dateStyles: readDateStyles(pkg.xml('xl/styles.xml')),
    date1904: /^(1|true)$/.test(child(workbookRoot, 'workbookPr')?.attrs.date1904 ?? ''),
    cells: cellBudget(),
  };
  const out: RootContent[] = [];
  for (const sheet of childElements(child(workbookRoot, 'sheets') ?? workbookRoot, 'sheet')) {
    if (sheet.attrs.state === 'hidden' || sheet.attrs.state === 'veryHidden') continue;
    const part = rels.get(sheet.attrs['r:id'] ?? '')?.part;
    const root = part ? pkg.xml(part) : undefined;
    out.push(heading(2, [{ text: sheet.attrs.name ?? 'Sheet' }]));
    if (root) append(out, readSheet(root, book));
    if (root && part) append(out, sheetCharts(pkg, part, root));
  }
  return out;
}

/** The charts a sheet's drawing holds (`<drawing r:id>` → the drawing part → its `c:chart` frames), in the drawing's order. */
function sheetCharts(pkg: OfficePackage, sheetPart: string, root: XmlElement): RootContent[] {
  const drawingId = child(root, 'drawing')?.attrs['r:id'];
  const drawingPart = drawingId === undefined ? undefined : relationships(pkg, sheetPart).get(drawingId)?.part;
  const drawing = drawingPart === undefined ? undefined : pkg.xml(drawingPart);
  if (!drawingPart || !drawing) return [];
  const rels = relationships(pkg, drawingPart);
  return findAll(drawing, 'c:chart').flatMap((frame) => chartFrameBlocks(frame, rels, pkg) ?? []);
}

function readSheet(root: XmlElement, book: Workbook): RootContent[] {
  const cells = new Map<number, CellSource>(mergedCells(root));
  for (const row of childElements(child(root, 'sheetData') ?? root, 'row')) {
    for (const c of childElements(row, 'c')) {
      const value = cellValue(c, book);
      const position = parseRef(c.attrs.r ?? '');
      if (value === '' || !position) continue;
      book.cells.spend(1);
      const key = cellKey(...position);
      const blocks: CellSource['blocks'] = [{ type: 'paragraph', children: [{ type: 'text', value }] }];
      const merged = cells.get(key);
      cells.set(key, merged ? { ...merged, blocks } : { blocks, colSpan: 1, rowSpan: 1 });
    }
  }
  return sheetTables(cells);
}

/** Merged ranges: the top-left cell spans the range, the others are covered (what they hold is not shown). */
function mergedCells(root: XmlElement): Map<number, CellSource> {
  const cells = new Map<number, CellSource>();
  const mergeCells = child(root, 'mergeCells');
  for (const merge of mergeCells ? findAll(mergeCells, 'mergeCell') : []) {
    const range = parseRange(merge.attrs.ref ?? '');
    if (!range) continue;
    const [r1, c1, r2, c2] = range;
    // Merges share the sheet's cell budget: a hostile ref "A1:XFD1048576" is not walked.
    if (cells.size + (r2 - r1 + 1) * (c2 - c1 + 1) > MAX_CELLS) continue;
    for (let r = r1; r <= r2; r++) for (let c = c1; c <= c2; c++) cells.set(cellKey(r, c), { blocks: [], colSpan: 1, rowSpan: 1, covered: true });
    cells.set(cellKey(r1, c1), { blocks: [], colSpan: c2 - c1 + 1, rowSpan: r2 - r1 + 1 });
  }
  return cells;
}

function cellValue(c: XmlElement, book: Workbook): string {
  const type = c.attrs.t ?? 'n';
  const raw = child(c, 'v') ? textOf(child(c, 'v') as XmlElement) : '';
  // A formula with no cached value (openpyxl and other libraries write none; only a spreadsheet
  // program computes it): its text says what the cell holds, where an empty cell would lose it.
  const formula = child(c, 'f');
  if (raw === '' && formula && textOf(formula) !== '') return `=${textOf(formula)}`;
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

function readSharedStrings(root: XmlElement | undefined): string[] {
  return root ? childElements(root, 'si').map(richText) : [];
}

function readDateStyles(root: XmlElement | undefined): Map<number, string> {
  const styles = new Map<number, string>();
  if (!root) return styles;
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
