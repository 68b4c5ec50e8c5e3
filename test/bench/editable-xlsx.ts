// Tables to XLSX, the part of bench:editable that measures issue 44's Excel output: spreadsheets
// made by other programs — the reading corpus's CSV tables saved as xlsx by LibreOffice,
// docling's xlsx test files (MIT, fixtures/reading/docling) and workbooks written here by
// openpyxl (currency, percent, dates, IDs with leading zeros, a merged two-level header, a table
// of many pages under a repeated header) — printed to PDF by LibreOffice, converted back to xlsx
// by docwasm and compared with the source by openpyxl: each source cell (its displayed value and
// its type) against the rebuilt cell in the same place once the rows are aligned (a title or a
// note the PDF holds as a paragraph costs its cells, nothing else shifts).

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { RunningService } from '../helpers/service.js';
import { ROOT } from '../helpers/service.js';
import { runSoffice } from '../helpers/soffice.js';
import { PYTHON } from '../helpers/tools.js';
import type { CorpusDocument } from './read-corpus.js';

/** A workbook's rows, all sheets in order: each row's cells by column (0: the sheet's first used column) as [value, type]. */
type SheetRows = Map<number, [unknown, string]>[];

export interface XlsxFileResult {
  name: string;
  producer: string;
  right: number;
  cells: number;
}

/** docling's xlsx test files used here (the others hold formulas without cached values, or drawings). */
const DOCLING = ['xlsx_05_table_with_title.xlsx', 'xlsx_06_edge_cases_.xlsx', 'xlsx_09_section_label_header.xlsx'];

/** Workbooks written by openpyxl: what people put in spreadsheets that a printed page must carry back. */
const OPENPYXL_WORKBOOKS = `
import datetime, sys, openpyxl
from openpyxl.styles import Font, Alignment
out = sys.argv[1]

wb = openpyxl.Workbook(); ws = wb.active; ws.title = 'Invoice'
ws.append(['Item ID', 'Description', 'Date', 'Qty', 'Unit price', 'Discount', 'Total'])
items = [('00123', 'Steel bolts M8', 3, 1250, 0.42, 0.05), ('00456', 'Washers, zinc', 7, 4000, 0.05, 0),
         ('01789', 'Hex nuts M8', 12, 1250, 0.18, 0.1), ('00042', 'Anchor plates', 21, 40, 12.5, 0.15),
         ('10001', 'Threaded rod 1 m', 28, 60, 7.95, 0)]
for k, (code, name, day, qty, price, discount) in enumerate(items):
    r = k + 2
    ws.append([code, name, datetime.datetime(2024, 3, day), qty, price, discount, round(qty * price * (1 - discount), 2)])
    ws.cell(r, 3).number_format = 'yyyy-mm-dd'
    ws.cell(r, 4).number_format = '#,##0'
    ws.cell(r, 5).number_format = '"$"#,##0.00'
    ws.cell(r, 6).number_format = '0%'
    ws.cell(r, 7).number_format = '"$"#,##0.00'
for c in range(1, 8): ws.cell(1, c).font = Font(bold=True)
for column, width in zip('ABCDEFG', [9, 18, 12, 7, 11, 9, 11]): ws.column_dimensions[column].width = width
# Printed as people print an invoice: all its columns on the page's width.
ws.sheet_properties.pageSetUpPr.fitToPage = True; ws.page_setup.fitToWidth = 1; ws.page_setup.fitToHeight = 0
wb.save(out + '/openpyxl-invoice.xlsx')

wb = openpyxl.Workbook(); ws = wb.active; ws.title = 'Sales'
ws['A1'] = 'Region'; ws.merge_cells('A1:A2')
ws['B1'] = '2023'; ws.merge_cells('B1:C1'); ws['D1'] = '2024'; ws.merge_cells('D1:E1')
for c, h in zip('BCDE', ['H1', 'H2', 'H1', 'H2']): ws[c + '2'] = h
for cell in ['A1', 'B1', 'D1']: ws[cell].alignment = Alignment(horizontal='center'); ws[cell].font = Font(bold=True)
rows = [('North', 12500, 13940, 15010, 16200), ('South', 8020, 7760, 9105, 9980), ('East', 23400, 21950, 25870, 27300),
        ('West', 4310, 5020, 5875, 6430), ('Central', 17650, 18020, 19110, 20540)]
for k, row in enumerate(rows):
    for c, v in enumerate(row):
        cell = ws.cell(k + 3, c + 1, v)
        if c: cell.number_format = '#,##0'
wb.save(out + '/openpyxl-merged-header.xlsx')

wb = openpyxl.Workbook(); ws = wb.active; ws.title = 'Ledger'
ws.append(['Account', 'Name', 'Balance', 'Share', 'Change'])
for c in range(1, 6): ws.cell(1, c).font = Font(bold=True)
names = ['Cash', 'Receivables', 'Inventory', 'Prepaid rent', 'Equipment', 'Vehicles', 'Payables', 'Wages due', 'Loans', 'Equity']
for k in range(150):
    r = k + 2
    balance = round(((k * 7919) % 100000) / 7 + 100, 2)
    ws.append(['%06d' % (100 + k * 37), names[k % 10] + ' ' + str(k // 10 + 1), balance, ((k * 13) % 1000) / 1000, (k * 37) % 200 - 100])
    ws.cell(r, 3).number_format = '#,##0.00'
    ws.cell(r, 4).number_format = '0.0%'
    ws.cell(r, 5).number_format = '#,##0;(#,##0)'
ws.column_dimensions['B'].width = 18
ws.print_title_rows = '1:1'
wb.save(out + '/openpyxl-ledger.xlsx')
`;

/** A workbook's cells as openpyxl reads them, values as the file caches them (formulas' last results). */
function rowsOf(xlsx: string): SheetRows {
  const script = `
import json, sys, datetime, openpyxl
wb = openpyxl.load_workbook(sys.argv[1], data_only=True)
rows = []
for ws in wb.worksheets:
    cells = [c for row in ws.iter_rows() for c in row if c.value is not None and str(c.value).strip() != '']
    if not cells: continue
    left = min(c.column for c in cells)
    by_row = {}
    for c in cells:
        value = c.value.isoformat()[:10] if isinstance(c.value, (datetime.datetime, datetime.date)) else c.value
        by_row.setdefault(c.row, {})[c.column - left] = [value, c.data_type]
    rows += [by_row[r] for r in sorted(by_row)]
print(json.dumps(rows, default=str))
`;
  const rows = JSON.parse(execFileSync(PYTHON, ['-c', script, xlsx]).toString()) as Record<string, [unknown, string]>[];
  return rows.map((row) => new Map(Object.entries(row).map(([column, cell]) => [Number(column), cell])));
}

const sameValue = (a: unknown, b: unknown) => {
  if (typeof a === 'number' && typeof b === 'number') return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a));
  return String(a).replace(/\s+/g, ' ').trim() === String(b).replace(/\s+/g, ' ').trim();
};

/** Cells of a source row the rebuilt row holds in the same column, value and type. */
function rowScore(truth: Map<number, [unknown, string]>, got: Map<number, [unknown, string]>): number {
  let right = 0;
  for (const [column, [value, type]] of truth) {
    const cell = got.get(column);
    if (cell && sameValue(cell[0], value) && cell[1] === type) right++;
  }
  return right;
}

/** The source's cells right in the rebuilt workbook, its rows aligned to the source's in order (the alignment that rights the most). */
function alignedRight(truth: SheetRows, got: SheetRows): number {
  // best[i][j]: the most cells right among truth's first i rows and got's first j.
  const best = Array.from({ length: truth.length + 1 }, () => new Array<number>(got.length + 1).fill(0));
  for (let i = 1; i <= truth.length; i++) {
    const row = best[i] as number[];
    const above = best[i - 1] as number[];
    for (let j = 1; j <= got.length; j++) {
      const pair = (above[j - 1] as number) + rowScore(truth[i - 1] as SheetRows[number], got[j - 1] as SheetRows[number]);
      row[j] = Math.max(above[j] as number, row[j - 1] as number, pair);
    }
  }
  return best[truth.length]?.[got.length] ?? 0;
}

/** The workbooks measured, copied or written into `out`: [file name, producer]. */
function workbooks(corpus: readonly CorpusDocument[], out: string): [string, string][] {
  const list: [string, string][] = [];
  for (const doc of corpus.filter((d) => d.format === 'xlsx' && d.source === 'libreoffice')) {
    fs.copyFileSync(doc.file, path.join(out, path.basename(doc.file)));
    list.push([path.basename(doc.file), 'LibreOffice (from CSV)']);
  }
  for (const name of DOCLING) {
    fs.copyFileSync(path.join(ROOT, 'fixtures/reading/docling', name), path.join(out, name));
    list.push([name, 'docling (openpyxl)']);
  }
  execFileSync(PYTHON, ['-c', OPENPYXL_WORKBOOKS, out]);
  for (const name of fs
    .readdirSync(out)
    .filter((f) => f.startsWith('openpyxl-'))
    .sort())
    list.push([name, 'openpyxl, here']);
  return list;
}

/** Each workbook printed by LibreOffice, rebuilt by docwasm, scored by openpyxl. */
export async function tablesToXlsx(service: RunningService, corpus: readonly CorpusDocument[], dir: string): Promise<XlsxFileResult[]> {
  const out = path.join(dir, 'xlsx');
  fs.mkdirSync(out, { recursive: true });
  const books = workbooks(corpus, out);
  runSoffice(path.join(out, 'profile'), ['--convert-to', 'pdf', ...books.map(([name]) => name)], out);
  fs.rmSync(path.join(out, 'profile'), { recursive: true, force: true });
  const results: XlsxFileResult[] = [];
  for (const [name, producer] of books) {
    const stem = path.basename(name, '.xlsx');
    const rebuilt = path.join(out, `${stem}-rebuilt.xlsx`);
    const answer = await service.post('/api/convert', { input: path.join(out, `${stem}.pdf`), output: rebuilt });
    const truth = rowsOf(path.join(out, name));
    const got = answer.status === 200 ? rowsOf(rebuilt) : [];
    results.push({ name, producer, right: alignedRight(truth, got), cells: truth.reduce((n, row) => n + row.size, 0) });
  }
  return results;
}

/** The XLSX lines of the report: the figure over all files, then file by file. */
export function xlsxReport(results: readonly XlsxFileResult[], target: number): string[] {
  const right = results.reduce((n, r) => n + r.right, 0);
  const cells = results.reduce((n, r) => n + r.cells, 0);
  const share = (r: number, c: number) => (c ? `${Math.round((r / c) * 100)} %` : '–');
  const perFile = results.reduce((sum, r) => sum + (r.cells ? r.right / r.cells : 0), 0);
  return [
    `Tables to XLSX: ${right} of ${cells} cells right in value and type (${share(right, cells)}; target ≥ ${target * 100} %; ${share(perFile, results.length)} file by file, each file weighing the same) over ${results.length} spreadsheets made by other programs, printed to PDF by LibreOffice, rebuilt by docwasm and read with openpyxl (rows aligned in order; a cell counts when its value and its type match the source's in the same column).`,
    '',
    '| spreadsheet | made by | cells right |',
    '|---|---|---|',
    ...results.map((r) => `| ${r.name} | ${r.producer} | ${r.right} of ${r.cells} (${share(r.right, r.cells)}) |`),
  ];
}
