// Reading what sits outside the text flow and the packages that were refused: OOXML's
// macro-enabled and template variants (made by LibreOffice here), text boxes and charts of Word
// and PowerPoint files (docling's test files, made by Word and python-pptx) and of their
// LibreOffice twins, and web pages with their site chrome (a Wikipedia page of docling's). The
// expected text is taken from the files themselves with unzip and Python's HTML parser, never
// from our own code.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfText, SHEET_ROWS, SLIDE_TEXT, TEXT_LINE, withWarmOffice, zipPart } from '../helpers/documents.js';
import { runSofficeAsync, SOFFICE } from '../helpers/soffice.js';
import { ROOT } from '../helpers/service.js';
import { inProcess, type InProcess } from './in-process.js';
import { PYTHON } from '../helpers/tools.js';

let ops: InProcess;
const CONTENT = path.join(ROOT, 'fixtures/office-content');
const DOCUMENTS = path.join(ROOT, 'fixtures/documents');

/** Each variant, LibreOffice's export filter for it, its source, and the content type its main part must declare. */
const VARIANTS = [
  {
    name: 'text.docm',
    filter: 'MS Word 2007 XML VBA',
    from: 'text-odt.odt',
    contentType: 'application/vnd.ms-word.document.macroEnabled.main+xml',
    text: TEXT_LINE,
  },
  {
    name: 'text.dotx',
    filter: 'MS Word 2007 XML Template',
    from: 'text-odt.odt',
    contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml',
    text: TEXT_LINE,
  },
  {
    name: 'sheet.xlsm',
    filter: 'Calc MS Excel 2007 VBA XML',
    from: 'sheet-ods.ods',
    contentType: 'application/vnd.ms-excel.sheet.macroEnabled.main+xml',
    text: String(SHEET_ROWS[1]?.[0]),
  },
  {
    name: 'sheet.xltx',
    filter: 'Calc MS Excel 2007 XML Template',
    from: 'sheet-ods.ods',
    contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.template.main+xml',
    text: String(SHEET_ROWS[1]?.[0]),
  },
  {
    name: 'slides.pptm',
    filter: 'Impress MS PowerPoint 2007 XML VBA',
    from: 'slides-odp.odp',
    contentType: 'application/vnd.ms-powerpoint.presentation.macroEnabled.main+xml',
    text: SLIDE_TEXT,
  },
  {
    name: 'slides.potx',
    filter: 'Impress MS PowerPoint 2007 XML Template',
    from: 'slides-odp.odp',
    contentType: 'application/vnd.openxmlformats-officedocument.presentationml.template.main+xml',
    text: SLIDE_TEXT,
  },
] as const;

/** unzip takes part names as patterns: the brackets of [Content_Types].xml are escaped. */
const contentTypes = (file: string) => zipPart(file, '\\[Content_Types\\].xml');
const read = async (input: string) => ops.ok('read', { input });
const markdownOf = async (input: string) => (await read(input)).text ?? '';
const fixture = (name: string) => ops.put(name, fs.readFileSync(path.join(CONTENT, name)));

/** Values of `<tag>` elements in an XML string, in order (the XML as the other program wrote it). */
const valuesOf = (xml: string, tag: string) => [...xml.matchAll(new RegExp(`<${tag}>([^<]*)</${tag}>`, 'g'))].map((m) => m[1] ?? '');

/** A chart part's series as the part caches them, read with regular expressions (not docwasm's reader): names, the first's categories, each one's values. */
function cachedSeries(xml: string): { count: number; names: (string | undefined)[]; categories: string[]; values: string[][] } {
  const series = [...xml.matchAll(/<c:ser>(.*?)<\/c:ser>/gs)].map((m) => m[1] ?? '');
  return {
    count: series.length,
    names: series.map((s) => valuesOf(/<c:tx>(.*?)<\/c:tx>/s.exec(s)?.[1] ?? '', 'c:v')[0]),
    categories: valuesOf(/<c:cat>(.*?)<\/c:cat>/s.exec(series[0] ?? '')?.[1] ?? '', 'c:v'),
    values: series.map((s) => valuesOf(/<c:val>(.*?)<\/c:val>/s.exec(s)?.[1] ?? '', 'c:v')),
  };
}

beforeAll(async () => {
  ops = await inProcess({ soffice: SOFFICE, workers: '1' });
  for (const source of new Set(VARIANTS.map((v) => v.from))) fs.copyFileSync(path.join(DOCUMENTS, source), ops.at(source));
  // LibreOffice's own twins of a deck with charts and of a Word file with a chart and text boxes.
  fixture('pptx_chart.pptx');
  fixture('drawingml.docx');
  // Eight conversions forwarded to one warm office: one start instead of eight (8 CPU-s each here).
  const profile = ops.at('profile');
  const convert = (to: string, source: string) => runSofficeAsync(profile, ['--convert-to', to, '--outdir', ops.dir, ops.at(source)]);
  fs.mkdirSync(ops.at('office-home'));
  await withWarmOffice(ops.at('office-home'), profile, async () => {
    for (const variant of VARIANTS) {
      await convert(`${path.extname(variant.name).slice(1)}:${variant.filter}`, variant.from);
      fs.renameSync(ops.at(`${path.parse(variant.from).name}${path.extname(variant.name)}`), ops.at(variant.name));
    }
    await convert('odp', 'pptx_chart.pptx');
    await convert('odt', 'drawingml.docx');
  });
  for (const made of ['profile', 'office-home']) fs.rmSync(ops.at(made), { recursive: true, force: true });
}, 600_000);
afterAll(() => ops.close());

describe('read and convert: macro-enabled and template variants of OOXML (LibreOffice)', () => {
  it.each(VARIANTS)('reads $name as its kind, its text as LibreOffice wrote it', async ({ name, contentType, text }) => {
    expect(contentTypes(ops.at(name))).toContain(contentType);
    const answer = await read(name);
    expect(answer.text).toContain(text);
    expect((answer.data as { format: string }).format).toBe(
      path.extname(name).slice(1, 3) === 'do' ? 'docx' : path.extname(name).startsWith('.xl') ? 'xlsx' : 'pptx',
    );
  });

  it("reads docling's macro-enabled workbook (xlsx_02_sample_sales_data.xlsm), every shared string of it", async () => {
    const file = fixture('xlsx_02_sample_sales_data.xlsm');
    expect(contentTypes(ops.at(file))).toContain('application/vnd.ms-excel.sheet.macroEnabled.main+xml');
    const strings = valuesOf(zipPart(ops.at(file), 'xl/sharedStrings.xml'), 't').filter((s) => s.trim() !== '');
    const text = await markdownOf(file);
    expect(strings.length).toBeGreaterThan(3);
    for (const s of strings) expect(text).toContain(s);
  });

  it('converts a .xlsm to PDF and a .dotx to .docx with the office backend (text checked with pdftotext and unzip)', async () => {
    await ops.ok('convert', { input: 'sheet.xlsm', output: 'sheet-xlsm.pdf' });
    expect(pdfText(ops.at('sheet-xlsm.pdf'))).toContain(String(SHEET_ROWS[1]?.[0]));
    await ops.ok('convert', { input: 'text.dotx', output: 'text-dotx.docx' });
    expect(valuesOf(zipPart(ops.at('text-dotx.docx'), 'word/document.xml').replace(/<w:t [^>]*>/g, '<w:t>'), 'w:t').join('')).toContain(TEXT_LINE);
  });
});

describe('read: charts as tables', () => {
  it('reads both charts of a python-pptx deck: title, series names, categories and values as the chart parts cache them', async () => {
    const text = await markdownOf('pptx_chart.pptx');
    for (const part of ['ppt/charts/chart1.xml', 'ppt/charts/chart2.xml']) {
      const xml = zipPart(ops.at('pptx_chart.pptx'), part);
      const { names, categories, values } = cachedSeries(xml);
      const rows = [`| | ${names.join(' | ')} |`, ...categories.map((c, i) => `| ${c} | ${values.map((v) => v[i]).join(' | ')} |`)];
      expect(text).toContain(rows[0]);
      for (const row of rows.slice(1)) expect(text).toContain(row);
    }
    expect(text).toContain('Wild Duck Observations by Year');
  });

  it("reads the chart of a PowerPoint slide without a title, under the slide's section (Apache POI's chart-slide-bg.pptx)", async () => {
    const file = fixture('chart-slide-bg.pptx');
    const slide = zipPart(ops.at(file), 'ppt/slides/slide1.xml');
    expect(slide).toContain('<c:chart ');
    expect(slide).not.toContain('type="title"');
    const xml = zipPart(ops.at(file), 'ppt/charts/chart1.xml');
    const cached = cachedSeries(xml);
    expect(cached.count).toBeGreaterThan(1);
    const { names, categories } = cached;
    // PowerPoint caches binary doubles in full (4.4000000000000004): shown with Excel's 15 significant digits.
    const values = cached.values.map((v) => v.map((value) => String(Number(Number(value).toPrecision(15)))));
    const rows = [`| | ${names.join(' | ')} |`, ...categories.map((c, i) => `| ${c} | ${values.map((v) => v[i]).join(' | ')} |`)];
    const text = await markdownOf(file);
    expect(text.trim().startsWith(`## Slide 1\n\n${rows[0] as string}`)).toBe(true);
    for (const row of rows.slice(1)) expect(text).toContain(row);
    expect(text.match(/^#.*$/gm)).toEqual(['## Slide 1']);
  });

  it("reads the charts of a sheet's drawing after its tables, and a chart sheet's chart under its section (Apache POI's Excel files)", async () => {
    const file = fixture('xlsx-two-charts.xlsx');
    const text = await markdownOf(file);
    // Each chart's series as its part caches them (read with unzip): a table of the chart's data under its sheet.
    for (const [chart, sheet] of [
      ['chart1', 'Sheet2'],
      ['chart2', 'Sheet3'],
    ] as const) {
      const xml = zipPart(ops.at(file), `xl/charts/${chart}.xml`);
      const { count, names, values } = cachedSeries(xml);
      expect(count).toBe(2);
      const header = `| | ${names.join(' | ')} |`;
      const section = text.slice(text.indexOf(`## ${sheet}`));
      expect(section.indexOf(header), `${chart} under ${sheet}`).toBeGreaterThan(0);
      for (const [i] of (values[0] ?? []).entries()) expect(section).toContain(`| ${i + 1} | ${values.map((v) => v[i]).join(' | ')} |`);
    }
    const sheetChart = await markdownOf(fixture('xlsx-chart-sheet.xlsx'));
    const chartSheetName = /<sheet name="([^"]+)" sheetId="\d+" r:id="([^"]+)"/g;
    const workbook = zipPart(ops.at('xlsx-chart-sheet.xlsx'), 'xl/workbook.xml');
    const rels = zipPart(ops.at('xlsx-chart-sheet.xlsx'), 'xl/_rels/workbook.xml.rels');
    const chartSheets = [...workbook.matchAll(chartSheetName)].filter(
      (m) => new RegExp(`Id="${m[2]}"[^>]*chartsheets/`).test(rels) || new RegExp(`chartsheets/[^"]*"[^>]*Id="${m[2]}"`).test(rels),
    );
    expect(chartSheets.length).toBe(1);
    expect(sheetChart).toMatch(new RegExp(`## ${chartSheets[0]?.[1]}\\n\\n\\| \\| Total \\|`));
  });

  it("reads a Word line chart's data, values as Excel shows them (docling drawingml.docx)", async () => {
    const xml = zipPart(ops.at('drawingml.docx'), 'word/charts/chart1.xml');
    const raw = valuesOf(xml, 'c:v');
    // Word caches 4.4 as 4.4000000000000004: the reader shows 15 significant digits, as Excel does.
    expect(raw).toContain('4.4000000000000004');
    const text = await markdownOf('drawingml.docx');
    expect(text).toMatch(/\| Category 2 \| 2\.5 \| 4\.4 \| 2 \|/);
    expect(text).toContain('| | Series 1 | Series 2 | Series 3 |');
  });

  it("reads an odp's embedded charts (LibreOffice's twin of the deck): title and the chart's own data table", async () => {
    const object = zipPart(ops.at('pptx_chart.odp'), 'Object 1/content.xml');
    const localTable = /<table:table [^>]*>.*<\/table:table>/s.exec(object)?.[0] ?? '';
    const cells = valuesOf(localTable.replace(/<text:p[^>]*\/>/g, ''), 'text:p');
    const text = await markdownOf('pptx_chart.odp');
    expect(cells).toContain('Freshwater Ducks');
    for (const cell of cells) expect(text).toContain(cell);
    expect(text).toContain('| | Freshwater Ducks | Saltwater Ducks |');
  });

  it("reads an odt's embedded chart (LibreOffice's twin of the Word file)", async () => {
    expect(await markdownOf('drawingml.odt')).toContain('| Category 4 | 4.5 | 2.8 | 5 |');
  });
});

describe('read: text boxes', () => {
  it('reads the text of every text box of a Word flow chart, once (docling textbox.docx)', async () => {
    const file = fixture('textbox.docx');
    const xml = zipPart(ops.at(file), 'word/document.xml');
    // The text boxes' own paragraphs, from the first choice of each drawing (the VML fallback repeats them).
    const choices = [...xml.matchAll(/<mc:Choice[^>]*>(.*?)<\/mc:Choice>/gs)].map((m) => m[1] ?? '');
    const boxTexts = choices
      .flatMap((c) =>
        [...c.matchAll(/<w:txbxContent>(.*?)<\/w:txbxContent>/gs)].map((m) =>
          valuesOf((m[1] ?? '').replace(/<w:t [^>]*>/g, '<w:t>'), 'w:t')
            .join('')
            .trim(),
        ),
      )
      .filter((t) => t.length > 12);
    expect(boxTexts.length).toBeGreaterThan(4);
    const flat = (await markdownOf(file)).replace(/\*\*|\\$/gm, '').replace(/\s+/g, '');
    for (const box of boxTexts) {
      const words = box.replace(/\s+/g, '');
      expect(flat).toContain(words.slice(0, 40));
      expect(flat.split(words.slice(0, 40)).length - 1).toBe(1);
    }
  });

  it('reads text boxes and a chart in a group of shapes (docling drawingml.docx)', async () => {
    const text = await markdownOf('drawingml.docx');
    expect(text).toContain('Text 1');
    expect(text).toContain('Text 2');
    expect(text).toContain('Fig – Torque v/s Speed characteristics');
  });
});

describe('read: web pages without their site chrome', () => {
  /** The text of elements of the page, by Python's own HTML parser. */
  const textOfPage = (file: string, selector: string): string => execFileSync(PYTHON, ['-c', PAGE_TEXT, file, selector], { encoding: 'utf8' });

  it('reads the article of a Wikipedia page (docling wiki_duck.html) and none of its navigation, sidebars, language list or footer', async () => {
    const file = fixture('wiki_duck.html');
    const text = await markdownOf(file);
    expect(text).toMatch(/^# Duck$/m);
    const firstParagraph = textOfPage(ops.at(file), 'first-paragraph').trim();
    expect(firstParagraph).toMatch(/^Duck is the common name/);
    expect(text.replace(/\*\*/g, '')).toContain(firstParagraph.slice(0, 200));
    for (const chrome of ['Jump to content', 'move to sidebar', 'Privacy policy', 'Create account', 'Afrikaans', 'Main page'])
      expect(text, chrome).not.toContain(chrome);
    expect(textOfPage(ops.at(file), 'all')).toContain('Privacy policy');
  });

  it('reads a page without landmarks whole: every text of it (docling example_03.html)', async () => {
    const file = ops.put('example_03.html', fs.readFileSync(path.join(ROOT, 'fixtures/reading/docling/example_03.html')));
    const text = (await markdownOf(file)).replace(/[\\*_|]/g, '').replace(/\s+/g, ' ');
    const texts = textOfPage(ops.at(file), 'texts')
      .split('\n')
      .map((t) => t.replace(/\s+/g, ' ').trim())
      .filter(Boolean);
    expect(texts.length).toBeGreaterThan(5);
    for (const t of texts) expect(text).toContain(t);
  });
});

/**
 * Python's html.parser: `all` the page's text, `texts` its body's text nodes one a line (scripts
 * and styles left out), `first-paragraph` the first <p> with text inside the article body.
 */
const PAGE_TEXT = `
import sys
from html.parser import HTMLParser
mode = sys.argv[2]
class P(HTMLParser):
    def __init__(self):
        super().__init__(); self.out = []; self.skip = 0; self.body = False; self.in_p = False; self.depth = 0; self.done = False; self.p = ''
    def handle_starttag(self, tag, attrs):
        if tag in ('script', 'style'): self.skip += 1
        if tag == 'body': self.body = True
        if tag == 'p' and not self.done and ('class', 'mw-empty-elt') not in attrs: self.in_p = True; self.p = ''
    def handle_endtag(self, tag):
        if tag in ('script', 'style'): self.skip -= 1
        if tag == 'p' and self.in_p:
            self.in_p = False
            if self.p.strip().startswith('Duck is'): self.done = True; self.out = [self.p]
    def handle_data(self, data):
        if self.skip: return
        if mode == 'first-paragraph':
            if self.in_p: self.p += data
        elif mode == 'all' or self.body: self.out.append(data)
p = P(); p.feed(open(sys.argv[1], encoding='utf-8').read())
print(('' if mode == 'first-paragraph' else '\\n').join(p.out))
`;

describe('read: SmartArt diagrams (Apache POI smartart-rotated-text.pptx, PowerPoint; Apache Tika testWORD_diagramData.docx, Word)', () => {
  /** The diagram's node texts as the data part holds them (unzip), in document order. */
  const nodeTexts = (file: string, part: string) => valuesOf(zipPart(file, part), 'a:t');

  it('reads a deck’s SmartArt as a list nested as the diagram nests its nodes', async () => {
    const file = ops.at(fixture('smartart.pptx'));
    // abc, def, ghi are the document point's children; jkl is ghi's (its connection list says so).
    expect(nodeTexts(file, 'ppt/diagrams/data1.xml')).toEqual(['abc', 'def', 'ghi', 'jkl']);
    expect(await markdownOf('smartart.pptx')).toContain('- abc\n- def\n- ghi\n  - jkl');
  });

  it('reads a Word document’s SmartArt after its paragraph, every node’s text once', async () => {
    const file = ops.at(fixture('smartart.docx'));
    const texts = nodeTexts(file, 'word/diagrams/data1.xml');
    expect(texts.length).toBeGreaterThan(0);
    const markdown = await markdownOf('smartart.docx');
    for (const text of texts) expect(markdown.split(text).length - 1, text).toBe(1);
    expect(markdown).toContain(texts.map((text) => `- ${text}`).join('\n'));
  });
});
