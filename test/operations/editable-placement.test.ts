// convert PDF → docx (issue 44): where a page's blocks stand across it and how wide a borderless
// table's columns are. Sources made by LibreOffice from python-docx documents, and a booking
// order printed by another program (markitdown's fixture); every result rendered back by
// LibreOffice and compared with the source line by line (pdftotext's boxes), or read from the
// DOCX's XML — never with our own reader.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docxMarkdown } from '../helpers/documents.js';
import { pdfinfo } from '../helpers/pdf-inspect.js';
import { runSoffice } from '../helpers/soffice.js';
import { ROOT, startService, tempDir, type RunningService } from '../helpers/service.js';
import { PYTHON } from '../helpers/tools.js';

let service: RunningService;
let dir: string;
let work: string;

const DOCUMENTS = `
import docx
from docx.enum.text import WD_ALIGN_PARAGRAPH
from docx.shared import Pt, Inches

def document():
    d = docx.Document()
    s = d.sections[0]
    s.page_width, s.page_height = docx.shared.Mm(210), docx.shared.Mm(297)
    s.left_margin = s.right_margin = s.top_margin = s.bottom_margin = Inches(1)
    return d

# A shop's name and address centred, a date set flush right, a block indented an inch, then prose.
p = document()
for text, align in [('NORTHWIND TRADING COMPANY', WD_ALIGN_PARAGRAPH.CENTER), ('Harbour Road 12, Portsmouth', WD_ALIGN_PARAGRAPH.CENTER),
                    ('Issued 2024-11-23', WD_ALIGN_PARAGRAPH.RIGHT)]:
    p.add_paragraph(text).alignment = align
p.add_paragraph('Delivered to the warehouse gate').paragraph_format.left_indent = Inches(1)
p.add_paragraph('The goods listed were received in good order and counted at the gate by two people on the same day.')
p.save('placed.docx')

# Borderless tables: short columns beside one of long titles (in the middle, then last), set as
# wide as their text in the source.
def table(d, header, rows, widths):
    t = d.add_table(rows=len(rows) + 1, cols=len(header))
    t.autofit = False
    # The grid's widths: LibreOffice lays a table out by them, not by its cells'.
    for c, w in enumerate(widths):
        t.columns[c].width = Inches(w)
    for r, row in enumerate([header] + rows):
        for c, text in enumerate(row):
            cell = t.cell(r, c)
            cell.text = text
            cell.width = Inches(widths[c])
w = document()
w.add_paragraph('Shows booked for the season:')
table(w, ['Ln', 'Screen', 'Movie title and format', 'Days', 'Rate'],
      [['1', 'SCR-1', 'Holiday Spectacular, IMAX 3D, 142 minutes', 'Daily', '$250'],
       ['2', 'SCR-2', 'Winter Wonderland, standard, 98 minutes', 'Daily', '$150'],
       ['3', 'SCR-1', 'New Year Mystery, 4DX, 116 minutes', 'Daily', '$300']], [0.4, 0.7, 3.6, 0.6, 0.6])
w.add_paragraph('Notes on the screens:')
table(w, ['Screen', 'Seats', 'Notes'],
      [['SCR-1', '240', 'Laser projection and a curved screen for premium formats'],
       ['SCR-2', '180', 'Standard projection, reserved seating in every row']], [0.8, 0.6, 4.8])
w.save('widths.docx')

# A till receipt: a page 3 inches wide, its text 10 points from the left edge (less than a quarter
# inch), in 8-pt Courier New.
n = docx.Document()
s = n.sections[0]
s.page_width, s.page_height = Inches(3), Inches(5)
s.left_margin, s.right_margin, s.top_margin, s.bottom_margin = Pt(10), Inches(0.35), Inches(0.3), Inches(0.3)
for text in ['Store 0342 - Harbour Road', 'Till 7 2024-11-23 14:32', 'Coffee beans 1 kg 14.50', 'Milk 2 l 2.30',
             'TOTAL 16.80', 'Paid by card ending 4782']:
    run = n.add_paragraph().add_run(text)
    run.font.name, run.font.size = 'Courier New', Pt(8)
n.save('narrow.docx')

# A letterhead centred in a frame narrower than the text (an estimate form's): a title and an
# address of three lines, each line centred, on an axis an inch left of the column's middle; prose
# across the column under them.
h = document()
for text, size in [('ZAVA AUTO REPAIR', 20), ('Certified Collision Repair|123 Main Street, Redmond, WA 98052|Phone: (425) 000-0000', 12)]:
    p = h.add_paragraph()
    p.alignment = WD_ALIGN_PARAGRAPH.CENTER
    p.paragraph_format.right_indent = Inches(2)
    for k, line in enumerate(text.split('|')):
        if k:
            p.add_run().add_break()
        run = p.add_run(line)
        run.font.size, run.font.bold = Pt(size), size > 12
h.add_paragraph('The estimate below covers the parts and the labour the repair takes, as seen on the day the vehicle was brought in to the shop.')
h.save('letterhead.docx')
`;

/**
 * Two key/value tables drawn side by side by ReportLab (as the booking's are), the right one half a
 * row lower, then a heading and a table under them: `read` gives them one after the other.
 */
const SIDE_TABLES = `
from reportlab.pdfgen import canvas
c = canvas.Canvas('side.pdf', pagesize=(612, 792))
def heading(y, text):
    c.setFont('Helvetica-Bold', 12)
    c.drawString(50, 792 - y, text)
def pairs(x, y, rows):
    c.setFont('Helvetica', 9)
    for label, *lines in rows:
        c.drawString(x, 792 - y, label)
        for line in lines:
            c.drawString(x + 100, 792 - y, line)
            y += 13
heading(60, 'Supplier')
pairs(50, 76, [('Name:', 'Harbour Freight Services'), ('Contact:', 'Amelia Hartley'), ('Address:', 'Quay Street 14', 'Unit 7, Dock Road', 'Portsmouth PO1 3AX')])
pairs(330, 82, [('Account Type:', 'Monthly invoice'), ('Currency:', 'Pounds sterling'), ('Discount:', 'Trade rate')])
heading(180, 'Consignee')
pairs(50, 196, [('Name:', 'Northwind Retail Group'), ('Category:', 'Wholesale buyer'), ('Reference:', 'NW-4411-B'), ('Depot:', 'Southampton East')])
c.save()
`;

/** Each line's text and the left and top of its box (points), from pdftotext's boxes; a text met twice is left out. */
function lines(pdf: string): Map<string, { left: number; top: number }> {
  const found = new Map<string, { left: number; top: number } | null>();
  const boxes = execFileSync('pdftotext', ['-bbox-layout', pdf, '-']).toString();
  for (const line of boxes.matchAll(/<line xMin="([\d.]+)" yMin="([\d.]+)"[^>]*>([\s\S]*?)<\/line>/g)) {
    const text = [...(line[3] as string).matchAll(/<word [^>]*>([^<]*)<\/word>/g)].map((w) => w[1]).join(' ');
    found.set(text, found.has(text) ? null : { left: Number(line[1]), top: Number(line[2]) });
  }
  return new Map([...found].flatMap(([text, at]) => (at ? [[text, at] as const] : [])));
}

/** The PDF converted to DOCX by the service and rendered back by LibreOffice: the rendering's path. */
async function rendered(name: string): Promise<string> {
  const answer = await service.post('/api/convert', { input: `${name}.pdf`, output: `${name}-out.docx` });
  expect(answer.status).toBe(200);
  runSoffice(path.join(work, 'profile'), ['--convert-to', 'pdf', '--outdir', path.join(work, 'rendered'), path.join(dir, `${name}-out.docx`)]);
  return path.join(work, 'rendered', `${name}-out.pdf`);
}

beforeAll(async () => {
  dir = tempDir('docwasm-editable-placement-');
  work = tempDir('docwasm-editable-placement-src-');
  execFileSync(PYTHON, ['-c', DOCUMENTS], { cwd: work });
  execFileSync(PYTHON, ['-c', SIDE_TABLES], { cwd: dir });
  runSoffice(path.join(work, 'profile'), [
    '--convert-to',
    'pdf',
    '--outdir',
    dir,
    path.join(work, 'placed.docx'),
    path.join(work, 'widths.docx'),
    path.join(work, 'narrow.docx'),
    path.join(work, 'letterhead.docx'),
  ]);
  // A booking order (markitdown's fixture): key/value blocks, tables set without lines, small print over a table's last row.
  fs.copyFileSync(path.join(ROOT, 'fixtures/reading/markitdown/movie-theater-booking-2024.pdf'), path.join(dir, 'booking.pdf'));
  service = await startService(['--base-dir', dir, '--allow-dir', dir, '--workers', '1']);
}, 240_000);
afterAll(() => service.stop());

describe('convert PDF → docx: where blocks stand across the page', () => {
  it('centres a centred title and address and sets a date flush right: rendered, each within 6 points of the PDF; an indented line stays a paragraph', async () => {
    const [source, back] = [lines(path.join(dir, 'placed.pdf')), lines(await rendered('placed'))];
    for (const text of ['NORTHWIND TRADING COMPANY', 'Harbour Road 12, Portsmouth', 'Issued 2024-11-23']) {
      const [theirs, ours] = [source.get(text), back.get(text)];
      expect(theirs, text).toBeDefined();
      expect(Math.abs((ours?.left ?? -100) - (theirs?.left ?? 0)), text).toBeLessThan(6);
    }
    // Prose flush left stays flush left; an indented line is not made a block quote (pandoc reads a paragraph's indent as one).
    const prose = [...back].find(([text]) => text.startsWith('The goods listed'))?.[1];
    expect(prose?.left).toBeLessThan(75);
    const markdown = docxMarkdown(path.join(dir, 'placed-out.docx'));
    expect(markdown).toContain('Delivered to the warehouse gate');
    expect(markdown).not.toMatch(/^>/m);
  }, 240_000);

  it("moves a receipt's centred monospaced lines (the shop's address, ReportLab's Courier) in by spaces: rendered, within 6 points of the PDF across", async () => {
    fs.copyFileSync(path.join(ROOT, 'fixtures/reading/markitdown/RECEIPT-2024-TXN-98765_retail_purchase.pdf'), path.join(dir, 'receipt.pdf'));
    const [source, back] = [lines(path.join(dir, 'receipt.pdf')), lines(await rendered('receipt'))];
    for (const text of ['4567 Innovation Blvd', 'San Francisco, CA 94103', 'Thank you for shopping!', 'TECHMART ELECTRONICS']) {
      const [theirs, ours] = [source.get(text), back.get(text)];
      expect(theirs, text).toBeDefined();
      expect(Math.abs((ours?.left ?? -100) - (theirs?.left ?? 0)), text).toBeLessThan(6);
    }
    // Lines set flush left stay so.
    expect(Math.abs((back.get('TXN: TXN-98765-2024')?.left ?? -100) - (source.get('TXN: TXN-98765-2024')?.left ?? 0))).toBeLessThan(6);
  }, 240_000);

  it("keeps a booking order's spacing though its small print climbs over a table's last row, its page number raised into the margin and its cinema's name flush right: rendered on one page, its first sections within 6 points of the PDF", async () => {
    const back = await rendered('booking');
    expect(Number(pdfinfo(back).Pages)).toBe(1);
    const [source, ours] = [lines(path.join(dir, 'booking.pdf')), lines(back)];
    for (const text of ['STARLIGHT CINEMAS', 'Orders', 'Booking Agency']) {
      const [at, got] = [source.get(text), ours.get(text)];
      expect(at, text).toBeDefined();
      expect(Math.abs((got?.top ?? -100) - (at?.top ?? 0)), `${text} down`).toBeLessThan(6);
      expect(Math.abs((got?.left ?? -100) - (at?.left ?? 0)), `${text} across`).toBeLessThan(6);
    }
  }, 240_000);
});

describe('convert PDF → docx: centred lines', () => {
  it("keeps a letterhead's centred lines each a line of its own, centred on the PDF's axis (an inch off the column's middle), and its one-line title on it: rendered, each within 3 points of the PDF across", async () => {
    const [source, back] = [lines(path.join(dir, 'letterhead.pdf')), lines(await rendered('letterhead'))];
    for (const text of ['ZAVA AUTO REPAIR', 'Certified Collision Repair', '123 Main Street, Redmond, WA 98052', 'Phone: (425) 000-0000']) {
      const [theirs, ours] = [source.get(text), back.get(text)];
      expect(theirs, text).toBeDefined();
      expect(Math.abs((ours?.left ?? -100) - (theirs?.left ?? 0)), text).toBeLessThan(3);
    }
    // An indent on the right only: pandoc reads no block quote.
    expect(docxMarkdown(path.join(dir, 'letterhead-out.docx'))).not.toMatch(/^>/m);
  }, 240_000);
});

describe("convert PDF → docx: a page's margins", () => {
  it("keeps a narrow receipt's left margin where the PDF's text starts, though less than a quarter inch: rendered, each line within 0.3 point of the PDF across", async () => {
    const [source, back] = [lines(path.join(dir, 'narrow.pdf')), lines(await rendered('narrow'))];
    expect(source.size).toBe(6);
    for (const [text, theirs] of source) {
      // 10 points from the edge in the PDF: a margin of a quarter inch at least (18 points) is 8 off.
      expect(Math.abs((back.get(text)?.left ?? -100) - theirs.left), text).toBeLessThan(0.3);
    }
  }, 240_000);
});

describe('convert PDF → docx: key/value blocks side by side', () => {
  it("draws a booking's two key/value tables set side by side without lines (read gives them no place on the page) without borders, as its other tables", async () => {
    await rendered('booking');
    const xml = execFileSync('unzip', ['-p', path.join(dir, 'booking-out.docx'), 'word/document.xml']).toString();
    const tables = [...xml.matchAll(/<w:tbl>[\s\S]*?<\/w:tbl>/g)].map((m) => m[0]);
    const sides = (table: string) => [...(/<w:tblBorders>([\s\S]*?)<\/w:tblBorders>/.exec(table)?.[1] ?? '').matchAll(/w:val="(\w+)"/g)].map((m) => m[1]);
    for (const text of ['Billing Contact:', 'Billing Type:', 'Revenue Code:', 'Start Date']) {
      const table = tables.find((t) => t.includes(`>${text}<`));
      expect(table, text).toBeDefined();
      expect(sides(table ?? ''), text).toEqual(['none', 'none', 'none', 'none', 'none', 'none']);
    }
  }, 240_000);
});

describe('convert PDF → docx: tables side by side', () => {
  it("sets two key/value tables the PDF sets side by side beside each other, as one table: rendered, the right one's labels within 6 points of the PDF across and 12 down", async () => {
    const [source, back] = [lines(path.join(dir, 'side.pdf')), lines(await rendered('side'))];
    for (const text of ['Account Type:', 'Monthly invoice']) {
      const [theirs, ours] = [source.get(text), back.get(text)];
      expect(theirs, text).toBeDefined();
      expect(Math.abs((ours?.left ?? -100) - (theirs?.left ?? 0)), `${text} across`).toBeLessThan(6);
      expect(Math.abs((ours?.top ?? -100) - (theirs?.top ?? 0)), `${text} down`).toBeLessThan(12);
    }
    // One table: its first row holds the left table's first pair and the right one's.
    const xml = execFileSync('unzip', ['-p', path.join(dir, 'side-out.docx'), 'word/document.xml']).toString();
    const first = /<w:tr>[\s\S]*?<\/w:tr>/.exec(xml)?.[0] ?? '';
    for (const text of ['Name:', 'Harbour Freight Services', 'Account Type:', 'Monthly invoice']) expect(first, text).toContain(`>${text}<`);
  }, 240_000);

  it("sets the booking's two key/value tables side by side: rendered on one page, its billing terms within 6 points of the PDF across", async () => {
    const back = await rendered('booking');
    expect(Number(pdfinfo(back).Pages)).toBe(1);
    const [source, ours] = [lines(path.join(dir, 'booking.pdf')), lines(back)];
    for (const text of ['Billing Type:', 'Payment Terms:', 'Net 30']) {
      const [at, got] = [source.get(text), ours.get(text)];
      expect(at, text).toBeDefined();
      expect(Math.abs((got?.left ?? -100) - (at?.left ?? 0)), `${text} across`).toBeLessThan(6);
    }
  }, 240_000);

  it("sets the booking's two key/value tables' rows at the PDF's 12-point pitch, not their 8-point text's own line: rendered on one page, its second billing term within 1.5 points of the PDF below the first", async () => {
    const back = await rendered('booking');
    expect(Number(pdfinfo(back).Pages)).toBe(1);
    const [source, ours] = [lines(path.join(dir, 'booking.pdf')), lines(back)];
    const below = (at: Map<string, { top: number }>, text: string) => (at.get(text)?.top ?? -100) - (at.get('Billing Type:')?.top ?? 0);
    // Commission: stands on a line of pdftotext's with the billing address in the rendering.
    expect(source.get('Payment Terms:')).toBeDefined();
    expect(Math.abs(below(ours, 'Payment Terms:') - below(source, 'Payment Terms:'))).toBeLessThan(1.5);
  }, 240_000);
});

describe('convert PDF → docx: a borderless table’s column widths', () => {
  it('gives a column of long titles the room the PDF gives it and the short columns theirs: rendered, every row on one line, as in the PDF', async () => {
    const back = await rendered('widths');
    const text = execFileSync('pdftotext', ['-layout', back, '-']).toString();
    // A column of long titles in the middle, then one last: each cell's text on one line, and so are the short cells'.
    for (const cell of [
      'Holiday Spectacular, IMAX 3D, 142 minutes',
      'New Year Mystery, 4DX, 116 minutes',
      'Laser projection and a curved screen for premium formats',
    ]) {
      expect(text).toContain(cell);
    }
    const rows = text.split('\n').filter((line) => /\bSCR-[12]\b/.test(line));
    expect(rows).toHaveLength(5);
    for (const row of rows) expect(row).toMatch(/SCR-[12]\s+\S/);
    // In the DOCX: the long column's grid width is the widest of each table.
    const xml = execFileSync('unzip', ['-p', path.join(dir, 'widths-out.docx'), 'word/document.xml']).toString();
    const grids = [...xml.matchAll(/<w:tblGrid>([\s\S]*?)<\/w:tblGrid>/g)].map((m) => [...(m[1] as string).matchAll(/w:w="(\d+)"/g)].map((w) => Number(w[1])));
    expect(grids).toHaveLength(2);
    expect(grids[0]?.indexOf(Math.max(...(grids[0] ?? [])))).toBe(2);
    expect(grids[1]?.indexOf(Math.max(...(grids[1] ?? [])))).toBe(2);
  }, 240_000);
});
