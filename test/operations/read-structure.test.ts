// Reading documents as Markdown: the structure of sheets, slides, HTML tables and ODF text that
// the first readers got wrong, in process. Inputs are made by other programs — openpyxl, and
// LibreOffice for its ods twin — or are third-party test files of docling (fixtures/reading,
// MIT: made by PowerPoint, LibreOffice and Word).

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSofficeAsync, SOFFICE } from '../helpers/soffice.js';
import { withWarmOffice } from '../helpers/documents.js';
import { ROOT } from '../helpers/service.js';
import { inProcess, type InProcess } from './in-process.js';
import { PYTHON } from '../helpers/tools.js';

let ops: InProcess;
const DOCLING = path.join(ROOT, 'fixtures/reading/docling');

/**
 * One sheet as people lay them out: a title merged across the table under it, a key/value block
 * beside the table past an empty column, and a second table below past an empty row.
 */
const CANVAS_SHEET = `
import openpyxl
wb = openpyxl.Workbook(); ws = wb.active; ws.title = 'Report'
ws.merge_cells('A1:C1'); ws['A1'] = 'Quarterly figures'
for row in [['Plant', 'Q1', 'Q2'], ['North', 120, 135], ['South', 98, 101]]: ws.append(row)
ws['E2'] = 'Owner'; ws['F2'] = 'Li Wei'
ws['E3'] = 'Status'; ws['F3'] = 'final'
ws['A6'] = 'Item'; ws['B6'] = 'Cost'
ws['A7'] = 'Energy'; ws['B7'] = 40
wb.save('canvas.xlsx')
`;

/** Formulas as openpyxl writes them: the text of each, no value (it computes nothing). */
const FORMULA_SHEET = `
import openpyxl
wb = openpyxl.Workbook(); ws = wb.active; ws.title = 'Sums'
for row in [['Plant', 'Output'], ['North', 120], ['South', 98], ['Total', '=SUM(B2:B3)']]: ws.append(row)
wb.save('formulas.xlsx')
`;

const CANVAS_MARKDOWN = [
  '## Report',
  'Quarterly figures',
  '| Plant | Q1 | Q2 |\n| - | - | - |\n| North | 120 | 135 |\n| South | 98 | 101 |',
  '| Owner | Li Wei |\n| - | - |\n| Status | final |',
  '| Item | Cost |\n| - | - |\n| Energy | 40 |',
].join('\n\n');

/** A pandoc grid table whose cells hold two paragraphs, an ordered and a bullet list, a code block and a nested list. */
const GRID_TABLE = `+----------+------------------------------+
| Part     | Notes                        |
+==========+==============================+
| Pump     | Checked in May.              |
|          |                              |
|          | Replaced in June.            |
+----------+------------------------------+
| Steps    | 1. Drain it                  |
|          | 2. Fill it                   |
+----------+------------------------------+
| Parts    | - seal                       |
|          | - valve                      |
+----------+------------------------------+
| Config   | \`\`\`                          |
|          | speed = 3                    |
|          | mode = auto                  |
|          | \`\`\`                          |
+----------+------------------------------+
| Nested   | - outer                      |
|          |   - inner                    |
+----------+------------------------------+
`;

/** A grid table whose header is bold and whose cell holds two paragraphs (so it is written as HTML). */
const BOLD_HEADER_TABLE = `+-----------+----------------------+
| **Plant** | **Notes**            |
+===========+======================+
| North     | Ran two shifts.      |
|           |                      |
|           | New line in August.  |
+-----------+----------------------+
`;

/** A grid table of one cell framing a heading, a paragraph, a list and a pipe table (pandoc nests it). */
const FRAME_TABLE = `+--------------------------------+
| ### Note                       |
|                                |
| Keep the valve shut.           |
|                                |
| - drain first                  |
| - then fill                    |
|                                |
| | Valve | Turns |              |
| |-------|-------|              |
| | inlet | 3     |              |
+--------------------------------+

After the box.
`;

const markdownOf = async (input: string) => (await ops.ok('read', { input })).text ?? '';
const fixture = (name: string) => ops.put(name, fs.readFileSync(path.join(DOCLING, name)));

/** The paragraphs that are one bold run, the backspaces and the runs set in Courier (JSON strings) of deck.pptx's slides, read with Python's zipfile. */
const DECK_PARTS = `
import html, json, re, zipfile
z = zipfile.ZipFile('deck.pptx')
for n in sorted(x for x in z.namelist() if re.match(r'ppt/slides/slide\\d+\\.xml$', x)):
    for m in re.finditer(r'<a:rPr b="1"\\s*/><a:t>([^<]*)</a:t>', z.read(n).decode()): print('bold', m.group(1))
print('backspace', sum(z.read(n).count(b'\\x08') for n in z.namelist()))
for n in sorted(x for x in z.namelist() if re.match(r'ppt/slides/slide\\d+\\.xml$', x)):
    for m in re.finditer(r'<a:latin typeface="Courier"\\s*/></a:rPr><a:t>([^<]*)</a:t>', z.read(n).decode()): print('code', json.dumps(html.unescape(m.group(1))))
`;

/**
 * A deck as pandoc writes one (--slide-level=2): `#` a section header slide (the text under it on
 * a slide of its own, with no title), `###` a bold paragraph set apart on its slide (one with code
 * in it: bold runs, the code a bold run of Courier; one ending in a colon), a bold lead-in
 * ending in a colon inside a paragraph and a bold paragraph ending in one (set as text: no space
 * above it), a title with code in it, a stray backspace (U+0008) copied as it is into the slide's
 * XML, where XML 1.0 forbids it, and code in Courier — a block of lines and a word in a sentence.
 */
const DECK =
  '# Part one\n\nWhy it matters.\n\n## Setup\n\n### Install steps\n\nRun the installer now.\n\n### Check the `out` value\n\nIt prints.\n\nThe log goes to \b the file.\n\n**Note:** keep it.\n\n### Options:\n\nUse the defaults.\n\n**Mind:**\n\nNothing else.\n\n## Run it with `boot`\n\nStart it with `boot`:\n\n```\n$ java -jar boot.jar\n[INFO] Found 2 processes\n  * [1]: 35542 demo\n```\n';

/**
 * A deck whose `###` labels are set apart by space above them (one ending in a colon), and bold
 * paragraphs that are not (one on a slide of its own); a rule starts a slide with no title after
 * one with content.
 */
const LABELS_DECK =
  '## Setup\n\n### Options\n\nUse the defaults.\n\n### Steps:\n\nRun it.\n\n**Mind:**\n\nNothing else.\n\n## Limits\n\n**Caveats**\n\nNone known.\n\n---\n\nMore to come.\n';

/** Code with a language, which pandoc highlights: keywords and operators in bold runs of the code's Courier. */
const HIGHLIGHTED_CODE = 'trace Test t &\nif [ -n "$x" ]; then echo done; fi';
const HIGHLIGHTED_DECK = `## Jobs\n\nRun it in the background:\n\n\`\`\`bash\n${HIGHLIGHTED_CODE}\n\`\`\`\n`;

/** A code block whose lines are indented, in a page that also has code inline. */
const INDENTED_CODE = 'try {\n    send(msg);\n        retry();\n}';
const CODE_PAGE = `Before it.\n\n\`\`\`\n${INDENTED_CODE}\n\`\`\`\n\nCall \`send\` once.\n`;

beforeAll(async () => {
  ops = await inProcess({ soffice: SOFFICE, workers: '1' });
  ops.put('code.md', CODE_PAGE);
  for (const ext of ['docx', 'odt']) execFileSync('pandoc', ['code.md', '-f', 'gfm', '-o', `code.${ext}`], { cwd: ops.dir });
  ops.put('deck.md', DECK);
  execFileSync('pandoc', ['deck.md', '-f', 'gfm', '--slide-level=2', '-o', 'deck.pptx'], { cwd: ops.dir });
  ops.put('labels.md', LABELS_DECK);
  execFileSync('pandoc', ['labels.md', '-f', 'gfm', '--slide-level=2', '-o', 'labels.pptx'], { cwd: ops.dir });
  ops.put('highlighted.md', HIGHLIGHTED_DECK);
  execFileSync('pandoc', ['highlighted.md', '-f', 'gfm', '--slide-level=2', '-o', 'highlighted.pptx'], { cwd: ops.dir });
  execFileSync(PYTHON, ['-c', CANVAS_SHEET], { cwd: ops.dir });
  execFileSync(PYTHON, ['-c', FORMULA_SHEET], { cwd: ops.dir });
  // Both LibreOffice conversions forwarded to one warm office (one start, 8 CPU-s here, not two).
  // Saving the formulas workbook again makes LibreOffice compute and cache its values.
  const profile = ops.at('profile');
  fs.mkdirSync(ops.at('office-home'));
  await withWarmOffice(ops.at('office-home'), profile, async () => {
    await runSofficeAsync(profile, ['--convert-to', 'ods', '--outdir', ops.dir, ops.at('canvas.xlsx')]);
    await runSofficeAsync(profile, ['--convert-to', 'xlsx:Calc MS Excel 2007 XML', '--outdir', ops.at('computed'), ops.at('formulas.xlsx')]);
    await runSofficeAsync(profile, ['--convert-to', 'odp', '--outdir', ops.dir, ops.at('deck.pptx')]);
    await runSofficeAsync(profile, ['--convert-to', 'odp', '--outdir', ops.dir, ops.at('labels.pptx')]);
  });
  for (const made of ['profile', 'office-home']) fs.rmSync(ops.at(made), { recursive: true, force: true });
}, 180_000);
afterAll(() => ops.close());

describe('read: a sheet holding several tables', () => {
  it('writes each block of touching cells as its own table, a merged title row as a paragraph above its table (openpyxl xlsx)', async () => {
    expect((await markdownOf('canvas.xlsx')).trim()).toBe(CANVAS_MARKDOWN);
  });

  it('reads the ods twin the same way (LibreOffice)', async () => {
    expect((await markdownOf('canvas.ods')).trim()).toBe(CANVAS_MARKDOWN);
  });

  it('shows a formula that has no cached value as its formula text, a cached one as its value (openpyxl writes no values)', async () => {
    const text = await markdownOf('formulas.xlsx');
    expect(text).toContain('| Total | =SUM(B2:B3) |');
    // LibreOffice computed and cached the values when it saved the same workbook (beforeAll).
    expect(await markdownOf('computed/formulas.xlsx')).toContain('| Total | 218 |');
  });

  it('splits at single empty rows and columns, keeping merged cells with their block (docling xlsx_07_gap_tolerance_)', async () => {
    const text = await markdownOf(fixture('xlsx_07_gap_tolerance_.xlsx'));
    expect(text).toContain('| HIGH VOLTAGE SWITCHBOARD |\n| - |\n| DATA SHEET |');
    expect(text).toContain('| Rated system voltage |\n| - |\n| Rated system frequency |');
    expect(text).toMatch(/<tr><td colspan="3">13156456<\/td><td colspan="4">144564<\/td><td>A<\/td><\/tr>/);
    expect(text).not.toContain('<td></td><td></td><td></td><td></td><td></td><td></td><td></td><td></td>');
  });
});

describe('read: slides', () => {
  it('reads boxes set side by side left to right though their tops differ by a few hundredths of an inch (docling powerpoint_sample.pptx, PowerPoint)', async () => {
    const text = await markdownOf(fixture('powerpoint_sample.pptx'));
    const order = ['List item4', 'I1', 'Some info:', 'Maybe a list?', 'l1'].map((s) => text.indexOf(s));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it('reads a bold paragraph set apart on a slide as a `###` label (code in it too), a bold lead-in as text, a slide holding a control character XML forbids, and the untitled slide after a title’s own slide under that title (pandoc pptx)', async () => {
    // What pandoc wrote, checked apart from the reader: the label as a paragraph of one bold run, the backspace.
    const slides = execFileSync(PYTHON, ['-c', DECK_PARTS], { cwd: ops.dir, encoding: 'utf8' });
    expect(slides).toContain('bold Install steps');
    expect(slides).toContain('backspace 1');
    const text = await markdownOf('deck.pptx');
    // pandoc sets the text under `#` on a slide of its own, with no title: one section a slide, the
    // untitled one continuing the section whose title slide stands before it.
    expect(text.match(/^#+ .*$/gm)).toEqual([
      '## Part one',
      '## Part one',
      '## Setup',
      '### Install steps',
      '### Check the `out` value',
      '### Options:',
      '## Run it with `boot`',
    ]);
    expect(text).toContain('## Part one\n\n## Part one\n\nWhy it matters.');
    // What pandoc wrote, checked apart from the reader: a slide of its title alone, then one with no title.
    const slide = (n: number) => execFileSync('unzip', ['-p', ops.at('deck.pptx'), `ppt/slides/slide${n}.xml`]).toString();
    expect(slide(1).match(/<p:sp>/g)).toHaveLength(1);
    expect(slide(1)).toContain('<p:ph type="title" />');
    expect(slide(2)).not.toContain('type="title"');
    expect(slide(2)).toContain('Why it matters.');
    expect(text).toMatch(/The log goes to +the file\./);
    expect(text).toContain('**Note:** keep it.');
  });

  it('reads a bold paragraph ending in a colon as a `###` label where pandoc sets it apart, as bold text where it does not, and keeps a title’s code (pandoc pptx)', async () => {
    // What pandoc wrote, checked apart from the reader: space above the label, none above the bold paragraph, Courier in the title.
    const slide = execFileSync('unzip', ['-p', ops.at('deck.pptx'), 'ppt/slides/slide3.xml']).toString();
    expect(slide).toMatch(/<a:spcBef><a:spcPts val="\d+" \/><\/a:spcBef><a:buNone \/><\/a:pPr><a:r><a:rPr b="1" \/><a:t>Options:/);
    expect(slide).toMatch(/<a:pPr lvl="0" indent="0" marL="0"><a:buNone \/><\/a:pPr><a:r><a:rPr b="1" \/><a:t>Mind:/);
    const title = execFileSync('unzip', ['-p', ops.at('deck.pptx'), 'ppt/slides/slide4.xml']).toString();
    expect(title).toMatch(/<p:ph type="title" \/>(?:(?!<\/p:sp>).)*<a:latin typeface="Courier" \/><\/a:rPr><a:t>boot<\/a:t>/);
    const text = await markdownOf('deck.pptx');
    expect(text).toContain('### Options:\n\nUse the defaults.\n\n**Mind:**\n\nNothing else.');
    expect(text).toContain('## Run it with `boot`\n');
  });

  it('reads a bold paragraph as bold text in a deck that sets its labels apart by space above them, and names an untitled slide after one with content by its place (pandoc pptx)', async () => {
    // What pandoc wrote, checked apart from the reader: space above the `###` label, none above the bold paragraph.
    const slide = (n: number) => execFileSync('unzip', ['-p', ops.at('labels.pptx'), `ppt/slides/slide${n}.xml`]).toString();
    expect(slide(1)).toMatch(/<a:spcBef><a:spcPts val="\d+" \/><\/a:spcBef><a:buNone \/><\/a:pPr><a:r><a:rPr b="1" \/><a:t>Options</);
    expect(slide(2)).toMatch(/<a:pPr lvl="0" indent="0" marL="0"><a:buNone \/><\/a:pPr><a:r><a:rPr b="1" \/><a:t>Caveats</);
    const text = await markdownOf('labels.pptx');
    // A slide with no title after a slide with content is named by its place.
    expect(text.match(/^#+ .*$/gm)).toEqual(['## Setup', '### Options', '### Steps:', '## Limits', '## Slide 3']);
    expect(text).toContain('## Slide 3\n\nMore to come.');
    expect(text).toContain('**Mind:**\n\nNothing else.');
    expect(text).toContain('**Caveats**\n\nNone known.');
  });

  it('reads code set in Courier on a slide as a code block, lines as the slide holds them, and a Courier word as inline code (pandoc pptx)', async () => {
    const runs = execFileSync(PYTHON, ['-c', DECK_PARTS], { cwd: ops.dir, encoding: 'utf8' });
    const code = runs
      .split('\n')
      .filter((l) => l.startsWith('code '))
      .map((l) => JSON.parse(l.slice(5)) as string);
    expect(code).toContain('boot');
    const block = code.find((c) => c.includes('\n')) ?? '';
    expect(block.split('\n').length).toBe(3);
    const text = await markdownOf('deck.pptx');
    expect(text).toContain(`\`\`\`\n${block}\n\`\`\``);
    expect(text).toContain('Start it with `boot`:');
  });

  it('reads highlighted code on a slide, its bold keyword runs too, as one code block (pandoc pptx)', async () => {
    const slide = execFileSync('unzip', ['-p', ops.at('highlighted.pptx'), 'ppt/slides/slide1.xml']).toString();
    // The deck sets `&` and `if` in bold runs of the same Courier as the rest of the code.
    expect(slide).toMatch(/<a:rPr b="1">(?:(?!<\/a:rPr>).)*<a:latin typeface="Courier" \/><\/a:rPr><a:t>&amp;<\/a:t>/);
    expect(slide).toMatch(/<a:rPr b="1">(?:(?!<\/a:rPr>).)*<a:latin typeface="Courier" \/><\/a:rPr><a:t>if<\/a:t>/);
    const text = await markdownOf('highlighted.pptx');
    expect(text).toContain(`Run it in the background:\n\n\`\`\`\n${HIGHLIGHTED_CODE}\n\`\`\``);
  });

  it('reads the odp twins with the same sections, labels and code block (LibreOffice)', async () => {
    // LibreOffice keeps pandoc's space above a label as a paragraph style's larger top margin.
    const content = execFileSync('unzip', ['-p', ops.at('labels.odp'), 'content.xml']).toString();
    expect(new Set(content.match(/fo:margin-top="[\d.]+cm"/g)).size).toBeGreaterThan(1);
    const text = await markdownOf('deck.odp');
    expect(text.match(/^#+ .*$/gm)).toEqual([
      '## Part one',
      '## Part one',
      '## Setup',
      '### Install steps',
      '### Check the `out` value',
      '## Run it with `boot`',
    ]);
    const labels = await markdownOf('labels.odp');
    expect(labels.match(/^#+ .*$/gm)).toEqual(['## Setup', '### Options', '### Steps:', '## Limits', '## page3']);
    expect(labels).toContain('**Mind:**\n\nNothing else.');
    expect(labels).toContain('**Caveats**\n\nNone known.');
    expect(text).toContain('```\n$ java -jar boot.jar\n[INFO] Found 2 processes\n');
    expect(text).toContain('## Part one\n\n## Part one\n\nWhy it matters.');
    expect(labels).toContain('## page3\n\nMore to come.');
    expect(text).toContain('Run the installer now.');
  });
});

describe('read: code in word-processor files', () => {
  it('reads a code block as one fenced block, its lines indented as written, code in a sentence inline (pandoc docx and odt)', async () => {
    // pandoc writes the block as one Source Code paragraph with breaks (docx) and as one
    // Preformatted Text paragraph a line, the indentation as <text:s> (odt).
    expect(execFileSync('unzip', ['-p', ops.at('code.docx'), 'word/document.xml']).toString()).toContain('<w:pStyle w:val="SourceCode" />');
    expect(execFileSync('unzip', ['-p', ops.at('code.odt'), 'content.xml']).toString()).toMatch(/<text:s text:c="8" \/>retry\(\);/);
    for (const file of ['code.docx', 'code.odt']) {
      const text = await markdownOf(file);
      expect(text, file).toContain(`Before it.\n\n\`\`\`\n${INDENTED_CODE}\n\`\`\`\n\nCall \`send\` once.`);
    }
  });
});

describe('read: HTML tables', () => {
  it('keeps row spans as an HTML table and folds a row that only holds a group label into the next (docling example_08.html)', async () => {
    const text = await markdownOf(fixture('example_08.html'));
    expect(text).toContain(
      '<tr><th>Year</th><th>Month</th><th>Revenue</th><th>Cost</th></tr>\n<tr><td rowspan="5">2025</td><td>January</td><td>$134</td><td>$162</td></tr>',
    );
    expect(text).toContain('<tr><td rowspan="5">2025</td><td rowspan="3">Q1</td><td>January</td>');
    expect(text).toContain('<tr><td rowspan="2">Q2</td><td>April</td>');
  });

  it('writes a table whose cell holds a list as HTML, its first row the header, the items as lines (docling table_03.html)', async () => {
    const text = await markdownOf(fixture('table_03.html'));
    expect(text).toContain('<tr><th>A</th><th>B</th></tr>\n<tr><td>- First item<br>- Second item<br>- Third item</td><td>2...</td></tr>');
  });

  it('writes the paragraphs, list items and code lines of a cell as lines, a nested list as HTML (pandoc grid table, HTML and docx)', async () => {
    ops.put('grid.md', GRID_TABLE);
    execFileSync('pandoc', ['grid.md', '-f', 'markdown', '-s', '--metadata', 'title=Pumps', '-o', 'grid.html'], { cwd: ops.dir });
    execFileSync('pandoc', ['grid.md', '-f', 'markdown', '-o', 'grid.docx'], { cwd: ops.dir });
    // What pandoc put in the cells: block markup in the page, several paragraphs in the Word cells.
    const page = fs.readFileSync(ops.at('grid.html'), 'utf8');
    expect(page).toContain('<td><p>Checked in May.</p>\n<p>Replaced in June.</p></td>');
    expect(page).toContain('<pre><code>speed = 3\nmode = auto</code></pre>');
    const word = execFileSync('unzip', ['-p', ops.at('grid.docx'), 'word/document.xml']).toString();
    expect(word).toMatch(/<w:tc>(?:(?!<\/w:tc>).)*Checked in May\.(?:(?!<\/w:tc>).)*<\/w:p>\s*<w:p>(?:(?!<\/w:tc>).)*Replaced in June\./s);
    for (const file of ['grid.html', 'grid.docx']) {
      const text = await markdownOf(file);
      expect(text, file).toContain('<tr><td>Pump</td><td>Checked in May.<br>Replaced in June.</td></tr>');
      expect(text, file).toContain('<tr><td>Steps</td><td>1. Drain it<br>2. Fill it</td></tr>');
      expect(text, file).toContain('<tr><td>Parts</td><td>- seal<br>- valve</td></tr>');
      expect(text, file).toContain('<tr><td>Nested</td><td><ul><li>outer<ul><li>inner</li></ul></li></ul></td></tr>');
    }
    // The page's code block keeps its line end (it was written \`speed = 3mode = auto\`).
    expect(await markdownOf('grid.html')).toContain('<tr><td>Config</td><td><code>speed = 3</code><br><code>mode = auto</code></td></tr>');
  });

  it('writes a bold header row without its bold in an HTML table too, as in a GFM one (pandoc grid table, HTML and docx)', async () => {
    ops.put('bold.md', BOLD_HEADER_TABLE);
    execFileSync('pandoc', ['bold.md', '-f', 'markdown', '-s', '--metadata', 'title=Plants', '-o', 'bold.html'], { cwd: ops.dir });
    execFileSync('pandoc', ['bold.md', '-f', 'markdown', '-o', 'bold.docx'], { cwd: ops.dir });
    expect(fs.readFileSync(ops.at('bold.html'), 'utf8')).toContain('<th><strong>Plant</strong></th>');
    expect(execFileSync('unzip', ['-p', ops.at('bold.docx'), 'word/document.xml']).toString()).toMatch(
      /<w:b \/><\/w:rPr><w:t xml:space="preserve">Plant<\/w:t>/,
    );
    for (const file of ['bold.html', 'bold.docx']) {
      expect(await markdownOf(file), file).toContain(
        '<tr><th>Plant</th><th>Notes</th></tr>\n<tr><td>North</td><td>Ran two shifts.<br>New line in August.</td></tr>',
      );
    }
  });

  it('reads a table of one row of one cell as the content it frames, a table inside it as a table (pandoc grid table)', async () => {
    ops.put('box.md', FRAME_TABLE);
    execFileSync('pandoc', ['box.md', '-f', 'markdown', '-s', '--metadata', 'title=Box', '-o', 'box.html'], { cwd: ops.dir });
    const page = fs.readFileSync(ops.at('box.html'), 'utf8');
    // pandoc's frame: one cell holding a heading, a paragraph, a list and a table of its own.
    expect(page.match(/<tr\b/g)).toHaveLength(3);
    expect(page).toMatch(/<td><h3 id="note">Note<\/h3>\n<p>Keep the valve shut\.<\/p>\n<ul>[\s\S]*<\/ul>\n<table>/);
    expect(await markdownOf('box.html')).toBe(
      '# Box\n\n### Note\n\nKeep the valve shut.\n\n- drain first\n- then fill\n\n| Valve | Turns |\n| - | - |\n| inlet | 3 |\n\nAfter the box.\n',
    );
  });

  it('reads a table inside a cell as one line of text (docling table_06.html)', async () => {
    const text = await markdownOf(fixture('table_06.html'));
    expect(text).toContain('| A1 B1 C1 D1 I II III IV V E1 E2 E3 E4 VII VIII F1 | 2... |');
  });
});

describe('read: HTML headings', () => {
  it('reads a page title said twice as one heading: pandoc’s standalone page, and a template’s title over its article', async () => {
    ops.put('titled.md', '# Message Filter\n\nTwo ways to filter.\n\n## Tags\n\nBy tag.\n\n## Tags\n\nAgain, after text.\n');
    execFileSync('pandoc', ['titled.md', '-f', 'gfm', '-s', '--metadata', 'title=Message Filter', '-o', 'titled.html'], { cwd: ops.dir });
    expect(await markdownOf('titled.html')).toBe('# Message Filter\n\nTwo ways to filter.\n\n## Tags\n\nBy tag.\n\n## Tags\n\nAgain, after text.\n');
    ops.put('template.html', '<header><h1 class="entry-title">Getting started</h1></header><article><h1>Getting started</h1><p>Install it.</p></article>');
    expect(await markdownOf('template.html')).toBe('# Getting started\n\nInstall it.\n');
  });
});

describe('read: OpenDocument and Word text', () => {
  it('makes the Title and Subtitle headings above the outline levels and nests a list continued in another list style (docling text_document_01.odt, LibreOffice)', async () => {
    const text = await markdownOf(fixture('text_document_01.odt'));
    expect(text).toMatch(/^# Title\n\n## Subtitle\n\n## heading level 1\.0\n/);
    expect(text).toContain('### Heading level 2: A');
    expect(text).toContain(
      '1. numbered list 1\n2. numbered list 2\n   - bullet list 2.1\n   - bullet list 2.2\n     - bullet list 2.2.1\n   - bullet list 2.3',
    );
    expect(text).toMatch(/\n\nContrary to popular belief, \*\*Lorem/);
  });

  it('writes a cell of one paragraph into an HTML table without line ends between its runs (docling text_document_03.odt)', async () => {
    const text = await markdownOf(fixture('text_document_03.odt'));
    expect(text).toContain('<td>This is simple text with <strong>bold</strong>, <del>strikethrough</del> and <em>italic</em> formatting with x2 and H2O</td>');
  });

  it('writes the numbers Word shows in front of numbered headings, a skipped level at its start (docling unit_test_headers_numbered.docx)', async () => {
    const text = await markdownOf(fixture('unit_test_headers_numbered.docx'));
    for (const line of [
      '## 1. Section 1',
      '### 1.1. Section 1.1',
      '### 1.2. Section 1.2',
      '#### 1.2.1. Section 1.2.3',
      '## 2. Section 2',
      '#### 2.1.1. Section 2.1.1',
      '### 2.2. Section 2.1',
    ]) {
      expect(text).toMatch(new RegExp(`^${line.replaceAll('.', '\\.')}$`, 'm'));
    }
  });

  it('keeps bold code apart from the plain code beside it (docling list_after_num_headers.docx)', async () => {
    const text = await markdownOf(fixture('list_after_num_headers.docx'));
    expect(text).toContain('- **`Term 1`**`: Definition 1`');
  });

  it('leaves the grid columns before a row that starts late empty (docling word_tables.docx, Word)', async () => {
    const text = await markdownOf(fixture('word_tables.docx'));
    expect(text).toContain('A non-uniform table with a row starting late\n\n| Header 0.0 | Header 0.1 |\n| - | - |\n| | Cell 1.1 |');
    expect(text).toContain('<th rowspan="2">Merged Cell 0.2 1.2</th></tr>\n<tr><td></td><td></td></tr>');
  });
});
