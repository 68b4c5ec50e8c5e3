// Tables of PDFs to XLSX (issue 44) as people make them: a spreadsheet written by openpyxl and
// printed by LibreOffice (no rules, the header's names flush left over numbers flush right, dates,
// IDs with leading zeros, currency, many pages without the header repeated), and a Word table
// whose header row repeats on each page; sheets with borders whose cells the print clips or whose
// last column is printed alone; a header of two levels. Converted over HTTP, checked with openpyxl only.

import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSoffice } from '../helpers/soffice.js';
import { startService, tempDir, type RunningService } from '../helpers/service.js';
import { PYTHON } from '../helpers/tools.js';

let service: RunningService;
let dir: string;

const SOURCES = `
import datetime, docx, openpyxl
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from openpyxl.styles import Alignment, Border, Font, Side

wb = openpyxl.Workbook(); ws = wb.active
ws.append(['Account', 'Opened', 'Balance', 'Share'])
for c in range(1, 5): ws.cell(1, c).font = Font(bold=True)
for k in range(120):
    ws.append(['%06d' % (100 + k), datetime.datetime(2024, 1 + k % 12, 1 + k % 28), 100 + k * 997.25, (k % 100) / 100])
    ws.cell(k + 2, 2).number_format = 'yyyy-mm-dd'
    ws.cell(k + 2, 3).number_format = '"$"#,##0.00'
    ws.cell(k + 2, 4).number_format = '0%'
ws.column_dimensions['A'].width = 12; ws.column_dimensions['B'].width = 12; ws.column_dimensions['C'].width = 14
wb.save('ledger.xlsx')

d = docx.Document()
t = d.add_table(rows=1, cols=3)
t.style = 'Table Grid'
for c, name in enumerate(['Code', 'Item', 'Price']): t.cell(0, c).text = name
header = t.rows[0]._tr.get_or_add_trPr(); mark = OxmlElement('w:tblHeader'); mark.set(qn('w:val'), 'true'); header.append(mark)
for k in range(90):
    cells = t.add_row().cells
    cells[0].text = '%05d' % (k + 1); cells[1].text = 'Part number %d' % (k + 1); cells[2].text = '%d.50' % (k + 10)
d.save('parts.docx')

# A sheet too wide for the page, printed a group of four columns a page (three pages of as many
# columns), its title merged over all twelve and printed over the middle group.
wb = openpyxl.Workbook(); ws = wb.active
ws.append(['Station statistics']); ws.merge_cells('A1:L1'); ws['A1'].alignment = Alignment(horizontal='center'); ws['A1'].font = Font(bold=True, size=14)
ws.append(['Station', 'Region', 'Opened', 'Platforms', 'Riders 2021', 'Riders 2022', 'Riders 2023', 'Staff', 'Shops', 'Parking', 'Bike racks', 'Lifts'])
for c in range(1, 13):
    ws.cell(2, c).font = Font(bold=True)
    if c > 2: ws.cell(2, c).alignment = Alignment(horizontal='right')
for row in [('Northgate', 'North', 1887, 4, 1204500, 1350200, 1421900, 54, 12, 300, 120, 6),
            ('Riverside', 'East', 1902, 2, 402100, 455800, 470300, 18, 3, 80, 40, 2),
            ('Old Market', 'South', 1875, 6, 2210400, 2399100, 2501700, 97, 25, 0, 210, 9)]: ws.append(list(row))
for r in range(3, 6):
    for c in range(5, 8): ws.cell(r, c).number_format = '#,##0'
for column in 'ABCDEFGHIJKL': ws.column_dimensions[column].width = 14
wb.save('wide.xlsx')

# Columns so narrow that a number set flush right ends 2 pt before the next column's header (as
# zh-sales in the reading corpus); a second sheet of as many rows, on its own page.
wb = openpyxl.Workbook(); ws = wb.active
ws.append(['城市', '门店', '数量', '收入'])
for row in [('上海', '东区', 130, 2600), ('上海', '西区', 45, 3150), ('广州', '北区', 85, 1700), ('广州', '南区', 220, 1320), ('深圳', '中区', 60, 4800)]: ws.append(list(row))
for column, width in zip('ABCD', [5.19, 5.19, 4.48, 5.47]): ws.column_dimensions[column].width = width
ws = wb.create_sheet('Stock')
ws.append(['Item', 'Qty', 'Unit price'])
for row in [('Washers', 1200, 0.05), ('Hex nuts', 350, 0.18), ('Bolts M8', 4800, 0.42), ('Anchor plates', 75, 12.5), ('Rivets', 2400, 0.03)]: ws.append(list(row))
for r in range(2, 7): ws.cell(r, 3).number_format = '0.00'
for column, width in zip('ABC', [14, 4.6, 10]): ws.column_dimensions[column].width = width
wb.save('tight.xlsx')

# Digits that name: years over their columns (strings, as a header holds them), and 5-digit codes
# some of which start with zeros; the figures under the years are numbers of as many digits.
wb = openpyxl.Workbook(); ws = wb.active
ws.append(['Code', 'Part', '2023', '2024'])
for c in range(1, 5): ws.cell(1, c).font = Font(bold=True)
for c in (3, 4): ws.cell(1, c).alignment = Alignment(horizontal='right')
for row in [('00123', 'Steel bolts', 15000, 17250), ('10001', 'Washers', 90210, 95100), ('04410', 'Hex nuts', 12005, 11980), ('20020', 'Rivets', 30300, 28800)]: ws.append(list(row))
for column, width in zip('ABCD', [10, 16, 10, 10]): ws.column_dimensions[column].width = width
wb.save('codes.xlsx')

# A sheet with borders whose cells are too narrow for their text: the print clips each at the
# next cell's border, the shown letters touching the next cell's ("Purpose and Use CasAI 1").
wb = openpyxl.Workbook(); ws = wb.active
ws.append(['Area', 'Topic', 'ID', 'Answer'])
for row in [('Overview', 'Purpose and Use Cases', 'AI 1', 'The main objective is...'), ('Overview', 'What types of data?', 'AI 2', 'The AI is applied for...'),
            ('Scope', 'Short', 'AI 3 and its extended code', 'Fits')]: ws.append(list(row))
side = Side(style='thin')
for row in ws.iter_rows():
    for cell in row: cell.border = Border(left=side, right=side, top=side, bottom=side)
for column, width in zip('ABCD', [10, 14, 6, 28]): ws.column_dimensions[column].width = width
wb.save('clipped.xlsx')

# A sheet with borders one column too wide for the page: its last column is printed alone on the
# next page, a table of one column, whose longest note runs on past its border.
wb = openpyxl.Workbook(); ws = wb.active
ws.append(['Region', 'Manager', 'Code', 'Notes'])
for row in [('North', 'A. Berger', 'N-01', 'Audit due in May'), ('South', 'C. Diallo', 'S-07', 'New office'),
            ('East', 'E. Fischer', 'E-03', 'With Privacy Mode disabled, no code data is stored at all')]: ws.append(list(row))
for row in ws.iter_rows():
    for cell in row: cell.border = Border(left=side, right=side, top=side, bottom=side)
for column, width in zip('ABCD', [20, 20, 20, 40]): ws.column_dimensions[column].width = width
wb.save('last-column.xlsx')

# A header of two levels: seasons over their columns, the first column's name merged down both
# header lines (printed on the lower one).
wb = openpyxl.Workbook(); ws = wb.active
ws['A1'] = 'Store'; ws.merge_cells('A1:A2')
ws['B1'] = 'Spring'; ws.merge_cells('B1:C1'); ws['D1'] = 'Autumn'; ws.merge_cells('D1:E1')
for c, h in zip('BCDE', ['Sales', 'Staff', 'Sales', 'Staff']): ws[c + '2'] = h
for cell in ['A1', 'B1', 'D1']: ws[cell].alignment = Alignment(horizontal='center'); ws[cell].font = Font(bold=True)
for row in [('Leeds', 1200, 14, 1350, 15), ('York', 860, 9, 990, 11), ('Hull', 2310, 22, 2400, 23)]: ws.append(list(row))
wb.save('two-levels.xlsx')
`;

/** Each sheet's cells as openpyxl reads them: coordinate → [value, type, bold]. */
function sheets(file: string): Record<string, Record<string, [unknown, string, boolean]>> {
  const script = `
import json, sys, openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
print(json.dumps({ws.title: {c.coordinate: [c.value, c.data_type, bool(c.font.b)] for row in ws.iter_rows() for c in row if c.value is not None} for ws in wb.worksheets}, default=str))
`;
  return JSON.parse(execFileSync(PYTHON, ['-c', script, file]).toString()) as ReturnType<typeof sheets>;
}

/** The first sheet's merged ranges, as openpyxl reads them. */
function merges(file: string): string[] {
  const script = `
import sys, openpyxl
print('\\n'.join(sorted(str(r) for r in openpyxl.load_workbook(sys.argv[1]).worksheets[0].merged_cells.ranges)))
`;
  return execFileSync(PYTHON, ['-c', script, file]).toString().split('\n').filter(Boolean);
}

beforeAll(async () => {
  dir = tempDir('docwasm-editable-xlsx-');
  const work = tempDir('docwasm-editable-xlsx-src-');
  execFileSync(PYTHON, ['-c', SOURCES], { cwd: work });
  runSoffice(path.join(work, 'profile'), [
    '--convert-to',
    'pdf',
    '--outdir',
    dir,
    path.join(work, 'ledger.xlsx'),
    path.join(work, 'parts.docx'),
    path.join(work, 'wide.xlsx'),
    path.join(work, 'tight.xlsx'),
    path.join(work, 'codes.xlsx'),
    path.join(work, 'clipped.xlsx'),
    path.join(work, 'last-column.xlsx'),
    path.join(work, 'two-levels.xlsx'),
  ]);
  service = await startService(['--base-dir', dir, '--allow-dir', dir, '--workers', '1']);
}, 240_000);
afterAll(() => service.stop());

describe('convert a printed spreadsheet and a long table → xlsx', () => {
  it('reads a sheet printed without rules: its header row (names flush left over numbers flush right), dates, IDs and currency, all its pages one sheet', async () => {
    const answer = await service.post('/api/convert', { input: 'ledger.pdf', output: 'ledger.xlsx' });
    expect(answer.status).toBe(200);
    const book = sheets(path.join(dir, 'ledger.xlsx'));
    expect(Object.keys(book)).toEqual(['Table 1']);
    const cells = book['Table 1'] as Record<string, [unknown, string, boolean]>;
    expect(['A1', 'B1', 'C1', 'D1'].map((at) => cells[at])).toEqual([
      ['Account', 's', true],
      ['Opened', 's', true],
      ['Balance', 's', true],
      ['Share', 's', true],
    ]);
    expect(cells.A2?.slice(0, 2)).toEqual(['000100', 's']);
    expect(cells.B2?.slice(0, 2)).toEqual(['2024-01-01 00:00:00', 'd']);
    expect(cells.C2?.slice(0, 2)).toEqual([100, 'n']);
    expect(cells.D3?.slice(0, 2)).toEqual([0.01, 'n']);
    // Row 121 is the last account, on the last page.
    expect(cells.A121?.slice(0, 2)).toEqual(['000219', 's']);
    expect(cells.C121?.slice(0, 2)).toEqual([100 + 119 * 997.25, 'n']);
    expect(cells.A122).toBeUndefined();
  }, 120_000);

  it('writes a table whose header repeats on each page as one sheet, the header once', async () => {
    const answer = await service.post('/api/convert', { input: 'parts.pdf', output: 'parts.xlsx' });
    expect(answer.status).toBe(200);
    const book = sheets(path.join(dir, 'parts.xlsx'));
    expect(Object.keys(book)).toEqual(['Table 1']);
    const cells = book['Table 1'] as Record<string, [unknown, string, boolean]>;
    expect(Object.values(cells).filter(([value]) => value === 'Code')).toHaveLength(1);
    expect(cells.A91?.slice(0, 2)).toEqual(['00090', 's']);
    expect(cells.C91?.slice(0, 2)).toEqual([99.5, 'n']);
  }, 120_000);

  it('joins a sheet printed a group of columns a page side by side: one sheet, its rows whole, its title above', async () => {
    const answer = await service.post('/api/convert', { input: 'wide.pdf', output: 'wide.xlsx' });
    expect(answer.status).toBe(200);
    const book = sheets(path.join(dir, 'wide.xlsx'));
    expect(Object.keys(book)).toEqual(['Table 1']);
    const cells = book['Table 1'] as Record<string, [unknown, string, boolean]>;
    // The title printed over the middle group heads the sheet, merged over its twelve columns.
    expect(cells.A1).toEqual(['Station statistics', 's', true]);
    expect(merges(path.join(dir, 'wide.xlsx'))).toEqual(['A1:L1']);
    expect(['A2', 'D2', 'E2', 'H2', 'I2', 'L2'].map((at) => cells[at]?.[0])).toEqual(['Station', 'Platforms', 'Riders 2021', 'Staff', 'Shops', 'Lifts']);
    expect(['A5', 'D5', 'E5', 'H5', 'I5', 'L5'].map((at) => cells[at]?.slice(0, 2))).toEqual([
      ['Old Market', 's'],
      [6, 'n'],
      [2210400, 'n'],
      [97, 'n'],
      [25, 'n'],
      [9, 'n'],
    ]);
    // Three rows under the header, not three pages' parts one under another.
    expect(cells.A6).toBeUndefined();
    expect(cells.M2).toBeUndefined();
  }, 120_000);

  it('reads columns whose numbers end 2 pt before the next column by their alignment, and two sheets of as many rows as two tables', async () => {
    const answer = await service.post('/api/convert', { input: 'tight.pdf', output: 'tight.xlsx' });
    expect(answer.status).toBe(200);
    const book = sheets(path.join(dir, 'tight.xlsx'));
    expect(Object.keys(book)).toEqual(['Table 1', 'Table 2']);
    const sales = book['Table 1'] as Record<string, [unknown, string, boolean]>;
    expect(['A1', 'B1', 'C1', 'D1'].map((at) => sales[at]?.[0])).toEqual(['城市', '门店', '数量', '收入']);
    expect(['C2', 'D2', 'C6', 'D6'].map((at) => sales[at]?.slice(0, 2))).toEqual([
      [130, 'n'],
      [2600, 'n'],
      [60, 'n'],
      [4800, 'n'],
    ]);
    expect(sales.E1).toBeUndefined();
    const stock = book['Table 2'] as Record<string, [unknown, string, boolean]>;
    expect(['A1', 'B1', 'C1'].map((at) => stock[at]?.[0])).toEqual(['Item', 'Qty', 'Unit price']);
    expect(['A5', 'B5', 'C5'].map((at) => stock[at]?.slice(0, 2))).toEqual([
      ['Anchor plates', 's'],
      [75, 'n'],
      [12.5, 'n'],
    ]);
    expect(stock.A7).toBeUndefined();
  }, 120_000);

  it('keeps digits that name as text: whole numbers in the header row, codes as long as the zero-led IDs of their column', async () => {
    const answer = await service.post('/api/convert', { input: 'codes.pdf', output: 'codes.xlsx' });
    expect(answer.status).toBe(200);
    const cells = sheets(path.join(dir, 'codes.xlsx'))['Table 1'] as Record<string, [unknown, string, boolean]>;
    expect(['C1', 'D1'].map((at) => cells[at]?.slice(0, 2))).toEqual([
      ['2023', 's'],
      ['2024', 's'],
    ]);
    expect(['A2', 'A3', 'A4', 'A5'].map((at) => cells[at]?.slice(0, 2))).toEqual([
      ['00123', 's'],
      ['10001', 's'],
      ['04410', 's'],
      ['20020', 's'],
    ]);
    // Five-digit figures in columns without IDs stay numbers.
    expect(['C3', 'D5'].map((at) => cells[at]?.slice(0, 2))).toEqual([
      [90210, 'n'],
      [28800, 'n'],
    ]);
  }, 120_000);

  it('splits the shown letters of a clipped cell from the next cell at the border between them', async () => {
    const answer = await service.post('/api/convert', { input: 'clipped.pdf', output: 'clipped.xlsx' });
    expect(answer.status).toBe(200);
    const cells = sheets(path.join(dir, 'clipped.xlsx'))['Table 1'] as Record<string, [unknown, string, boolean]>;
    // The next cells whole, whatever letters of the clipped ones the page shows.
    expect(['C2', 'D2', 'C3', 'D3', 'D4'].map((at) => cells[at]?.[0])).toEqual([
      'AI 1',
      'The main objective is...',
      'AI 2',
      'The AI is applied for...',
      'Fits',
    ]);
    expect(['A2', 'B4', 'A4'].map((at) => cells[at]?.[0])).toEqual(['Overview', 'Short', 'Scope']);
    expect(String(cells.B2?.[0])).toMatch(/^Purpose and/);
    expect(String(cells.C4?.[0])).toMatch(/^AI/);
    expect(cells.E2).toBeUndefined();
  }, 120_000);

  it('joins the last column of a ruled sheet, printed alone on the next page, to the columns before it', async () => {
    const answer = await service.post('/api/convert', { input: 'last-column.pdf', output: 'last-column.xlsx' });
    expect(answer.status).toBe(200);
    const book = sheets(path.join(dir, 'last-column.xlsx'));
    expect(Object.keys(book)).toEqual(['Table 1']);
    const cells = book['Table 1'] as Record<string, [unknown, string, boolean]>;
    expect(['A1', 'C1', 'D1'].map((at) => cells[at]?.slice(0, 3))).toEqual([
      ['Region', 's', true],
      ['Code', 's', true],
      ['Notes', 's', true],
    ]);
    // The note that runs on past the column's border is whole.
    expect(['A2', 'D2', 'D3', 'D4'].map((at) => cells[at]?.[0])).toEqual([
      'North',
      'Audit due in May',
      'New office',
      'With Privacy Mode disabled, no code data is stored at all',
    ]);
    expect(cells.A5).toBeUndefined();
    expect(cells.E1).toBeUndefined();
  }, 120_000);

  it('puts the name of the first column of a two-level header, merged down and printed on its lower line, in its corner', async () => {
    const answer = await service.post('/api/convert', { input: 'two-levels.pdf', output: 'two-levels.xlsx' });
    expect(answer.status).toBe(200);
    const file = path.join(dir, 'two-levels.xlsx');
    const cells = sheets(file)['Table 1'] as Record<string, [unknown, string, boolean]>;
    expect(cells.A1).toEqual(['Store', 's', true]);
    expect(merges(file)).toContain('A1:A2');
    expect(['B2', 'E2', 'A3', 'B3', 'E5'].map((at) => cells[at]?.slice(0, 2))).toEqual([
      ['Sales', 's'],
      ['Staff', 's'],
      ['Leeds', 's'],
      [1200, 'n'],
      [23, 'n'],
    ]);
    expect(cells.A6).toBeUndefined();
  }, 120_000);
});
