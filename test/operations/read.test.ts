// Reading documents as Markdown, in process, one `it` per rule of docs/api.md ("Reading
// documents"). Every input is made by another program — pandoc, python-docx, openpyxl,
// LibreOffice — and the Markdown is checked for the structure those programs were asked to write.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENT_FIXTURES, SOFFICE, TEXT_LINE } from '../helpers/documents.js';
import { runSoffice } from '../helpers/soffice.js';
import { serializePdf } from '../helpers/make-pdf.js';
import { makeZip } from '../helpers/zip.js';
import { renderText } from '../helpers/ocr-images.js';
import { makeScannedPdf } from '../helpers/scanned-pdf.js';
import { leftoverTempFiles } from '../helpers/service.js';
import { codeOf, inProcess, type InProcess } from './in-process.js';
import { PYTHON } from '../helpers/tools.js';

let ops: InProcess;

const SOURCE = `# Annual report

Intro with **bold**, *italic*, \`code\` and a [link](https://example.com/a).

## Section 二

- first bullet
- second bullet
  - nested bullet
- third

1. one
2. two

| Name | Qty |
|------|-----|
| 苹果 | 3 |
| pear | 5 |

A claim.[^1]

[^1]: The footnote text.

### Deep heading

中文段落没有空格。

::: notes
Speaker notes here.
:::
`;

/** A bold lead and two sentences repeated into paragraphs of five or six lines (Persian). */
const RTL_LEAD = 'نصب ابزار لازم است.';
const RTL_FIRST = 'این ابزار فایل‌های متنی را می‌خواند و نتیجه را در پوشه خروجی ذخیره می‌کند';
const RTL_SECOND = 'گزارش روزانه هر صبح ساخته می‌شود و برای تیم پشتیبانی فرستاده خواهد شد';
/** A Persian sentence with Latin runs in it, and a list whose first item ends in one (react.dev's Persian pages are like it). */
const RTL_MIXED = 'برای شروع کار با React کافی است فایل index.html را باز کنید و دستور npm start را در';
const RTL_MIXED_SOURCE = `${RTL_MIXED} پوشه پروژه اجرا کنید تا صفحه در مرورگر باز شود و تغییرات شما دیده شود.\n\n- مورد اول با React\n- مورد دوم بدون کتابخانه\n`;

const markdownOf = async (input: string, extra: Record<string, unknown> = {}) => {
  const answer = await ops.ok('read', { input, ...extra });
  return { text: answer.text ?? '', data: answer.data ?? {} };
};

beforeAll(async () => {
  ops = await inProcess({ soffice: SOFFICE, workers: '1' });
  ops.put('source.md', SOURCE);
  for (const ext of ['docx', 'odt', 'pptx', 'html'])
    execFileSync('pandoc', ['source.md', '-s', '--metadata', 'title=Report', '-o', `pandoc.${ext}`], { cwd: ops.dir });
  execFileSync(PYTHON, ['-c', PYTHON_DOCX], { cwd: ops.dir });
  execFileSync(PYTHON, ['-c', OPENPYXL], { cwd: ops.dir });
  for (const name of ['sheet-ods.ods', 'slides-odp.odp', 'text-doc.doc', 'sheet-csv.csv']) ops.put(name, fs.readFileSync(`${DOCUMENT_FIXTURES}/${name}`));
  // Nested list items in Chinese, for a test below: converted by the same office start.
  ops.put('nested.md', '# 生产\n\n- 北方工厂\n  - 八月投产新生产线\n  - 九月起两班制\n  - 十月检修\n- 南方工厂\n');
  execFileSync('pandoc', ['nested.md', '-o', 'nested.docx'], { cwd: ops.dir });
  // Two Persian paragraphs in right-to-left (bidi) paragraphs, the first with a bold lead: for a test below.
  ops.put('rtl.md', `**${RTL_LEAD}** ${Array(6).fill(RTL_FIRST).join('، ')}.\n\n${Array(5).fill(RTL_SECOND).join('، ')}.\n`);
  execFileSync('pandoc', ['rtl.md', '-f', 'gfm', '--metadata', 'dir=rtl', '-o', 'rtl.docx'], { cwd: ops.dir });
  ops.put('rtl-mixed.md', RTL_MIXED_SOURCE);
  execFileSync('pandoc', ['rtl-mixed.md', '-f', 'gfm', '--metadata', 'dir=rtl', '-o', 'rtl-mixed.docx'], { cwd: ops.dir });
  runSoffice(ops.at('profile'), ['--convert-to', 'pdf', 'python.docx', 'nested.docx', 'rtl.docx', 'rtl-mixed.docx'], ops.dir);
  fs.rmSync(ops.at('profile'), { recursive: true, force: true });
}, 180_000);
afterAll(() => ops.close());

describe('read: Word documents (docx) from their XML', () => {
  it('keeps headings, emphasis, code, links, nested and numbered lists, tables and footnotes (pandoc)', async () => {
    const { text, data } = await markdownOf('pandoc.docx');
    expect(data).toMatchObject({ format: 'docx', truncated: false, ocrPages: [] });
    expect(text).toContain('# Annual report\n');
    expect(text).toContain('## Section 二\n');
    expect(text).toContain('### Deep heading\n');
    expect(text).toContain('Intro with **bold**, *italic*, `code` and a [link](https://example.com/a).');
    expect(text).toContain('- first bullet\n- second bullet\n  - nested bullet\n- third');
    expect(text).toContain('1. one\n2. two');
    expect(text).toContain('| Name | Qty |');
    expect(text).toContain('| 苹果 | 3 |');
    expect(text).toContain('A claim.[^1]');
    expect(text).toContain('[^1]: The footnote text.');
    expect(text).toContain('中文段落没有空格。');
  });

  it('takes headings from style names and outline levels, and writes merged cells as an HTML table (python-docx)', async () => {
    const { text } = await markdownOf('python.docx');
    expect(text).toMatch(/^# Made by python-docx$/m);
    expect(text).toMatch(/^## Second level$/m);
    expect(text).toContain('- bullet item');
    expect(text).toContain('<table>');
    expect(text).toMatch(/<th colspan="2">merged header<\/th>/);
  });

  it('leaves out hidden text and deleted revisions, keeps inserted ones, skips field codes', async () => {
    ops.put('revisions.docx', docxWithBody(REVISIONS_BODY));
    const { text } = await markdownOf('revisions.docx');
    expect(text).toContain('visible inserted shown');
    expect(text).not.toMatch(/secret|deleted|PAGE/);
  });
  it('reads a one-cell table (a frame around content) as its content, a table inside it as a table', async () => {
    const cell = (text: string) => `<w:tc><w:p><w:r><w:t>${text}</w:t></w:r></w:p></w:tc>`;
    const inner = `<w:tbl><w:tr>${cell('Tab1')}${cell('Tab2')}</w:tr><w:tr>${cell('A')}${cell('B')}</w:tr></w:tbl>`;
    ops.put(
      'framed.docx',
      docxWithBody(`<w:tbl><w:tr><w:tc><w:p><w:r><w:t>Framed text</w:t></w:r></w:p>${inner}<w:p/></w:tc></w:tr></w:tbl><w:p><w:r><w:t>After</w:t></w:r></w:p>`),
    );
    const { text } = await markdownOf('framed.docx');
    expect(text).toBe('Framed text\n\n| Tab1 | Tab2 |\n| - | - |\n| A | B |\n\nAfter\n');
  });
});

describe('read: spreadsheets, one section per sheet', () => {
  it('writes each sheet as a table, dates as dates, merged cells with spans (openpyxl)', async () => {
    const { text, data } = await markdownOf('openpyxl.xlsx');
    expect(data.format).toBe('xlsx');
    expect(text).toContain('## Sales 销售');
    expect(text).toContain('2024-03-15');
    expect(text).toContain('2024-03-16 14:30');
    expect(text).toContain('<td colspan="2">merged</td>');
    expect(text).toContain('## Second');
    expect(text).not.toContain('Hidden sheet');
  });

  it('reads ods with its cached values (LibreOffice)', async () => {
    const { text } = await markdownOf('sheet-ods.ods');
    expect(text).toContain('## Data\n\n| name | city | amount |');
    expect(text).toContain('| 张三 | 北京 | 42 |');
  });

  it('reads csv as one table', async () => {
    const { text, data } = await markdownOf('sheet-csv.csv');
    expect(data.format).toBe('csv');
    expect(text).toMatch(/^\| name \| city \| amount \|$/m);
  });
});

describe('read: presentations, one section per slide', () => {
  it('titles each slide and quotes its speaker notes (pandoc pptx)', async () => {
    const { text } = await markdownOf('pandoc.pptx');
    expect(text).toMatch(/^## /m);
    expect(text).toContain('> Speaker notes here.');
  });

  it('reads odp slides (LibreOffice)', async () => {
    const { text } = await markdownOf('slides-odp.odp');
    expect(text).toContain('Slide one 幻灯片');
  });
});

describe('read: odt and html', () => {
  it('reads odt headings, lists and tables (pandoc)', async () => {
    const { text, data } = await markdownOf('pandoc.odt');
    expect(data.format).toBe('odt');
    expect(text).toContain('## Section 二');
    expect(text).toContain('  - nested bullet');
    expect(text).toContain('| 苹果 | 3 |');
    expect(text).toContain('[^1]: The footnote text.');
  });

  it('reads html without fetching anything it points at', async () => {
    ops.put('page.html', '<h1>Title</h1><p>Text <b>bold</b> <img src="https://example.com/x.png" alt="a chart"></p><script>alert(1)</script>');
    const { text, data } = await markdownOf('page.html');
    expect(data.format).toBe('html');
    expect(text).toBe('# Title\n\nText **bold** ![a chart](image-1)\n');
  });
});

describe('read: legacy formats through the document backend', () => {
  it('reads a .doc through its docx twin', async () => {
    const { text, data } = await markdownOf('text-doc.doc');
    expect(data.format).toBe('doc');
    expect(text).toContain(TEXT_LINE);
  });
});

describe('read: PDF', () => {
  it('marks each page, keeps headings and lists, drops running headers (LibreOffice PDF)', async () => {
    const { text, data } = await markdownOf('python.pdf');
    expect(data).toMatchObject({ format: 'pdf', ocrPages: [] });
    expect(text).toMatch(/^<!-- page 1 -->$/m);
    expect(text).toMatch(/^# Made by python-docx$/m);
    expect(text).toMatch(/^## Second level$/m);
    expect(text).toContain('- bullet item');
    expect(text).not.toContain('Running header of every page');
  });

  it('reads scanned pages with OCR and lists them in data.ocrPages', async () => {
    ops.put('scan.pdf', await makeScannedPdf([{ image: await renderText('Scanned page text'), dpi: 300 }]));
    const { text, data } = await markdownOf('scan.pdf', { language: 'eng' });
    expect(data.ocrPages).toEqual([1]);
    expect(text).toContain('Scanned page text');
  });

  it("keeps a scanned page's structure: a title as a heading, salutation, paragraphs of joined lines, a list (image and scanned PDF, both engines)", async () => {
    // A letter laid out by Pango (not by docwasm), its lines ragged: before, OCR lines went in as
    // the engine's paragraphs, and tesseract ran title, salutation and body into one.
    const letter = [
      '<span size="xx-large">Notice of Annual Meeting</span>',
      '',
      'Dear Members,',
      '',
      'The annual meeting of the association will be held on Friday the',
      'twelfth of March in the main hall. All members are invited to attend',
      'and to bring any questions about the budget for the coming year.',
      '',
      'Please confirm your attendance by writing to the secretary before',
      'the end of February, so that enough seats can be arranged.',
      '',
      '1. Agenda and minutes',
      '2. Budget for next year',
      '',
    ].join('\n');
    fs.writeFileSync(ops.at('letter.txt'), letter);
    execFileSync('pango-view', [
      '-q',
      '--markup',
      '--font=DejaVu Serif 12',
      '--dpi=300',
      '--margin=150',
      `--output=${ops.at('letter.png')}`,
      ops.at('letter.txt'),
    ]);
    ops.put('letter-scan.pdf', await makeScannedPdf([{ image: fs.readFileSync(ops.at('letter.png')), dpi: 300 }]));
    for (const [file, engine] of [
      ['letter.png', 'tesseract'],
      ['letter.png', 'paddle'],
      ['letter-scan.pdf', 'auto'],
    ] as const) {
      const { text } = await markdownOf(file, { language: 'eng', engine });
      const body = text.replace(/<!-- page 1 -->\n\n/, '');
      expect(body, `${file} (${engine})`).toMatch(
        /^# Notice of Annual Meeting\n\nDear Members,\n\nThe annual meeting .*Friday the twelfth of March .*coming year\.\n\nPlease confirm .*before the end of February, .*arranged\.\n\n1\. Agenda and minutes\n2\. Budget for next year\n*$/,
      );
    }
  }, 600_000);

  it('reads a two-column page column by column, its full-width title first, lines of one-line blocks joined (docling normal_4pages.pdf)', async () => {
    ops.put('korean.pdf', fs.readFileSync('fixtures/reading/docling/normal_4pages.pdf'));
    const { text } = await markdownOf('korean.pdf', { pages: '1' });
    const title = text.indexOf('코로나-19 관련 보험약관상 재해보험금 지급문제 및 개선과제');
    const firstSection = text.indexOf('1 들어가며');
    const rightColumn = text.indexOf('이슈가 될 것으로 판단된다.');
    expect(title).toBeGreaterThan(-1);
    expect(firstSection).toBeGreaterThan(title);
    expect(rightColumn).toBeGreaterThan(firstSection);
    // One paragraph of the left column, set by mupdf as one block per line.
    expect(text).toContain('2020.3.30. 0시 기준 현재 “코로나바이러스감염 증-19(COVID-19, 이하 “코로나-19”)”의 국내 확 진자는 9,661명');
  });

  it('reads a two-column page drawn row by row across both columns column by column: the gutter found inside the rows', async () => {
    // Some generators write each printed row as one text object spanning both columns, so every
    // row holds a line of each column with the gutter inside it (pdftotext still reads it right).
    const column = (side: string) => Array.from({ length: 24 }, (_, k) => `${side} line ${k} of the annual committee review`);
    const [left, right] = [column('west'), column('east')];
    const rows = left.map((line, k) => `BT /F1 10 Tf 72 ${690 - k * 13} Td (${line}) Tj 252 0 Td (${right[k]}) Tj ET`);
    const content = ['BT /F1 16 Tf 72 740 Td (A Two Column Article) Tj ET', ...rows].join('\n');
    ops.put(
      'rows.pdf',
      serializePdf([
        '<< /Type /Catalog /Pages 2 0 R >>',
        '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
        '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
        '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>',
        `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
      ]),
    );
    expect(execFileSync('pdftotext', [ops.at('rows.pdf'), '-']).toString()).toMatch(/west line 23 of the annual committee review\s+east line 0 /);
    const { text } = await markdownOf('rows.pdf');
    expect(text).not.toContain('|');
    const order = [...left, ...right].map((line) => text.indexOf(line));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(text.indexOf('A Two Column Article')).toBeLessThan(order[0] as number);
  });

  it('joins the lines of right-to-left paragraphs, a bold lead running into its paragraph not a heading (pandoc docx through LibreOffice, Persian)', async () => {
    // pdftotext (poppler) sees the wrapped lines: each paragraph runs over several.
    const lines = execFileSync('pdftotext', [ops.at('rtl.pdf'), '-'])
      .toString()
      .split('\n');
    expect(lines.filter((l) => l.includes('ذخیره')).length).toBeGreaterThanOrEqual(4);
    expect(lines.filter((l) => l.includes('پشتیبانی')).length).toBeGreaterThanOrEqual(4);
    const { text } = await markdownOf('rtl.pdf');
    const blocks = text
      .split(/\n{2,}/)
      .map((b) => b.trim())
      .filter((b) => b && !b.startsWith('<!--'));
    expect(blocks).toHaveLength(2);
    expect(blocks[0]).toContain('نصب ابزار');
    expect(blocks[0]?.split('ذخیره').length).toBe(7);
    expect(blocks[1]?.split('پشتیبانی').length).toBe(6);
    expect(text).not.toMatch(/^#/m);
  });

  it('reads a right-to-left line broken by Latin runs right to left, a list bullet first (pandoc docx through LibreOffice, Persian)', async () => {
    // poppler reads the sentence in this order too (its spaces around the Latin runs aside): the PDF holds it so.
    const letters = (t: string) => t.replace(/[\u202A-\u202E\s]/g, '');
    expect(letters(execFileSync('pdftotext', [ops.at('rtl-mixed.pdf'), '-']).toString())).toContain(letters(RTL_MIXED));
    const { text } = await markdownOf('rtl-mixed.pdf');
    expect(text.replace(/\s+/g, ' ')).toContain(RTL_MIXED);
    expect(text).toContain('- مورد اول با React\n- مورد دوم بدون کتابخانه');
  });

  it('keeps consecutive nested list items at one depth (pandoc docx through LibreOffice, Chinese)', async () => {
    const { text } = await markdownOf('nested.pdf');
    expect(text).toContain('- 北方工厂\n  - 八月投产新生产线\n  - 九月起两班制\n  - 十月检修\n- 南方工厂');
  });

  it('reads only the pages asked for', async () => {
    const { data } = await markdownOf('python.pdf', { pages: '1' });
    expect(data.pages).toBe(1);
  });
});

describe('read: limits and hostile documents', () => {
  it('cuts at a block boundary at maxCharacters and says truncated', async () => {
    const full = (await markdownOf('pandoc.docx')).text;
    const { text, data } = await markdownOf('pandoc.docx', { maxCharacters: 60 });
    expect(data.truncated).toBe(true);
    expect(text.length).toBeLessThanOrEqual(60);
    expect(full.startsWith(text.trimEnd())).toBe(true);
    expect(full.charAt(text.trimEnd().length)).toBe('\n');
  });

  it('answers TOO_LARGE for a zip bomb, in seconds', async () => {
    // 300 MB of XML (spaces) deflated to ~300 KB: over the 256 MB a package may decompress to.
    const xml = Buffer.concat([
      Buffer.from('<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>'),
      Buffer.alloc(300 * 1024 * 1024, 0x20),
      Buffer.from('</w:body></w:document>'),
    ]);
    ops.put(
      'bomb.docx',
      makeZip([
        { name: '[Content_Types].xml', data: '<Types/>' },
        { name: 'word/document.xml', data: xml },
      ]),
    );
    expect(codeOf(await ops.run('read', { input: 'bomb.docx' }))).toBe('TOO_LARGE');
  });

  it('refuses a document whose XML declares a DTD (entities), as INVALID_INPUT', async () => {
    const xml =
      '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>&x;</w:t></w:r></w:p></w:body></w:document>';
    ops.put('xxe.docx', makeZip([{ name: 'word/document.xml', data: xml }]));
    expect(codeOf(await ops.run('read', { input: 'xxe.docx' }))).toBe('INVALID_INPUT');
  });

  it('refuses billion laughs as a DTD, fast, and keeps serving', async () => {
    const entities = ['<!ENTITY a0 "lol">', ...Array.from({ length: 9 }, (_, i) => `<!ENTITY a${i + 1} "${`&a${i};`.repeat(10)}">`)].join('');
    const xml = `<?xml version="1.0"?><!DOCTYPE d [${entities}]><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>&a9;</w:t></w:r></w:p></w:body></w:document>`;
    ops.put('laughs.docx', makeZip([{ name: 'word/document.xml', data: xml }]));
    const started = Date.now();
    expect(codeOf(await ops.run('read', { input: 'laughs.docx' }))).toBe('INVALID_INPUT');
    // 10^9 "lol"s would take minutes and gigabytes; refusing the DTD takes milliseconds.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect((await markdownOf('pandoc.docx')).text).toContain('# Annual report');
  });

  it('answers INVALID_INPUT for a corrupt zip (a docx cut in half)', async () => {
    const docx = fs.readFileSync(ops.at('pandoc.docx'));
    ops.put('cut.docx', docx.subarray(0, Math.floor(docx.length / 2)));
    expect(codeOf(await ops.run('read', { input: 'cut.docx' }))).toBe('INVALID_INPUT');
  });

  it('does not read a .docx that is really HTML as Word (an HTML page saved under a Word name)', async () => {
    ops.put('page-really.docx', '<!DOCTYPE html><html><body><h1>Not Word</h1><p>An HTML page.</p></body></html>');
    const answer = await ops.run('read', { input: 'page-really.docx' });
    expect(answer.success).toBe(false);
    expect(['INVALID_INPUT', 'UNSUPPORTED_CONVERSION']).toContain(codeOf(answer));
    expect(leftoverTempFiles(ops.dir)).toEqual([]);
  });

  it('answers UNSUPPORTED_CONVERSION for a file it cannot read', async () => {
    ops.put('notes.xyz', 'plain');
    expect(codeOf(await ops.run('read', { input: 'notes.xyz' }))).toBe('UNSUPPORTED_CONVERSION');
  });
});

describe('convert with format md', () => {
  it('writes the Markdown file atomically', async () => {
    const answer = await ops.ok('convert', { input: 'pandoc.docx', output: 'out/report.md', format: 'md' });
    expect(answer.data?.format).toBe('md');
    expect(fs.readFileSync(ops.at('out/report.md'), 'utf8')).toContain('## Section 二');
    expect(leftoverTempFiles(ops.dir)).toEqual([]);
  });

  it('reads a batch, each file failing alone', async () => {
    ops.put('broken.docx', 'not a zip');
    const answer = await ops.run('convert/batch', { files: ['pandoc.odt', 'broken.docx', 'page.html'], format: 'md', outputDir: 'md' });
    expect(answer.success).toBe(false);
    expect(fs.readdirSync(ops.at('md')).sort()).toEqual(['page.md', 'pandoc.md']);
  });
});

/** A docx holding `body` (w:body content) and nothing else but what Word needs to open it. */
function docxWithBody(body: string): Buffer {
  const document = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`;
  return makeZip([
    {
      name: '[Content_Types].xml',
      data: '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    },
    { name: 'word/document.xml', data: document, deflate: true },
  ]);
}

const REVISIONS_BODY = [
  '<w:p><w:r><w:t xml:space="preserve">visible </w:t></w:r><w:r><w:rPr><w:vanish/></w:rPr><w:t>secret</w:t></w:r>',
  '<w:del w:id="1" w:author="a"><w:r><w:delText>deleted</w:delText></w:r></w:del>',
  '<w:ins w:id="2" w:author="a"><w:r><w:t xml:space="preserve">inserted </w:t></w:r></w:ins>',
  '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText>PAGE</w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>shown</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>',
].join('');

const PYTHON_DOCX = `
from docx import Document
d = Document()
d.sections[0].header.paragraphs[0].text = 'Running header of every page'
d.add_heading('Made by python-docx', 0)
d.add_paragraph('First paragraph. ' * 40)
d.add_heading('Second level', 1)
d.add_paragraph('bullet item', style='List Bullet')
d.add_paragraph('second bullet item', style='List Bullet')
t = d.add_table(rows=2, cols=2)
a = t.cell(0, 0).merge(t.cell(0, 1)); a.text = 'merged header'
t.cell(1, 0).text = 'x'; t.cell(1, 1).text = 'y'
for i in range(60): d.add_paragraph('Filler paragraph number %d so the document runs over several pages.' % i)
d.save('python.docx')
`;

const OPENPYXL = `
import openpyxl, datetime
wb = openpyxl.Workbook(); ws = wb.active; ws.title = 'Sales 销售'
ws.append(['Date', 'Item', 'Amount'])
ws.append([datetime.date(2024, 3, 15), 'Widget', 12.5])
ws.append([datetime.datetime(2024, 3, 16, 14, 30), 'Gadget', 7])
ws.merge_cells('A5:B5'); ws['A5'] = 'merged'
hidden = wb.create_sheet('Hidden'); hidden['A1'] = 'Hidden sheet'; hidden.sheet_state = 'hidden'
second = wb.create_sheet('Second'); second['A1'] = 'only'; second['A2'] = 'cell'
wb.save('openpyxl.xlsx')
`;
