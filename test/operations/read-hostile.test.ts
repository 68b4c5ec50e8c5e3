// The Markdown readers under hostile input, through the real HTTP service (issue 28, items 5, 6
// and 8): nesting that would overflow a recursive reader, tables taller than an argument list,
// a few hundred bytes repeating a row a million times, spans covering billions of grid cells
// and zip bombs are answered TOO_LARGE (or INVALID_INPUT), never 500 and never by running into
// the time limit, with the service's peak memory bounded; and the Markdown of documents full of
// active links, tracking pictures and forged page markers is inert, as pandoc reads it.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chainedFootnotes,
  DECIMAL_NUMBERING,
  declareUncompressedSize,
  docx,
  escapeXml,
  nest,
  odp,
  ods,
  odt,
  PPTX_IMAGE_ID,
  pptx,
  pptxLinkedRuns,
  wp,
  xc,
  xlsx,
} from '../helpers/hostile-readers.js';
import { leftoverTempFiles, startService, tempDir, type ApiResponse, type RunningService } from '../helpers/service.js';
import { peakRssMb, resetPeakRss, rssMb } from '../reliability/proc.js';

let service: RunningService;
let dir: string;
/** Resident memory of the warm measured service, before any hostile read. */
let baselineMb: number;

const contentRow = (repeat: number, text = 'x') =>
  `<table:table-row table:number-rows-repeated="${repeat}"><table:table-cell office:value-type="string"><text:p>${text}</text:p></table:table-cell></table:table-row>`;
/**
 * Tall tables, built before the service starts: building the tallest takes seconds (more than
 * 16 s on a busy machine), which must not fall between two requests on a kept-alive connection
 * the service closes when idle (docs/http-runtime.md).
 */
const TALL_CASES: [string, () => Buffer | string][] = [
  ['tall.csv', () => 'a\n'.repeat(500_001)],
  ['tall.xlsx', () => xlsx(Buffer.from(Array.from({ length: 1_048_576 }, (_, i) => `<row r="${i + 1}"><c r="A${i + 1}"><v>1</v></c></row>`).join('')))],
  ['rows.ods', () => ods(`<table:table table:name="S">${contentRow(1_048_576)}</table:table>`)],
  ['rows.odt', () => odt(`<table:table table:name="T"><table:table-column/>${contentRow(1_048_576)}</table:table>`)],
  [
    'columns.ods',
    () =>
      ods(
        `<table:table table:name="S"><table:table-row table:number-rows-repeated="1000"><table:table-cell table:number-columns-repeated="16384" office:value-type="string"><text:p>x</text:p></table:table-cell></table:table-row></table:table>`,
      ),
  ],
  [
    'row-group.ods',
    () =>
      ods(
        `<table:table table:name="S"><table:table-row-group table:number-rows-repeated="1048576">${contentRow(1_048_576)}</table:table-row-group></table:table>`,
      ),
  ],
];

/** The job time limit: the refusals below come within a few seconds, TIMEOUT would mean no bound held. */
const TIMEOUT_S = 60;
/** What a refused read may add to the service's peak memory (the budgets stop each case long before). */
const MAX_EXTRA_MB = 512;

/** A docx whose XML inflates to 250 MB: deflating it takes seconds, so it too is built before any service starts. */
let bomb: Buffer;

beforeAll(async () => {
  dir = tempDir('docwasm-read-hostile-');
  for (const [name, make] of TALL_CASES) fs.writeFileSync(path.join(dir, name), make());
  bomb = docx(Buffer.from('<w:p><w:r><w:t>bomb</w:t></w:r></w:p>'.repeat(Math.ceil((250 * 1024 * 1024) / 38))));
  service = await startService(['--base-dir', dir, '--allow-dir', dir, '--workers', '1', '--timeout', String(TIMEOUT_S)]);
}, 180_000);
afterAll(() => service.stop());

async function read(name: string, bytes: Buffer | string): Promise<ApiResponse> {
  fs.writeFileSync(path.join(dir, name), bytes);
  return service.post('/api/read', { input: name, maxCharacters: 5_000_000 });
}

/** A refusal with one of the contract's codes: never a 500, never a success, never the time limit. */
function expectRefused(answer: ApiResponse, name: string): void {
  expect(answer.status, `${name}: ${JSON.stringify(answer.body).slice(0, 300)}`).not.toBe(500);
  expect(['TOO_LARGE', 'INVALID_INPUT'], `${name}: ${answer.body.code}: ${answer.body.error}`).toContain(answer.body.code);
}

async function expectHealthy(): Promise<void> {
  expect((await service.get('/api/health')).status).toBe(200);
  expect((await read('still.html', '<h1>Still</h1><p>serving</p>')).body.text).toContain('# Still');
  expect(leftoverTempFiles(dir)).toEqual([]);
}

const DEPTH = 10_000;

describe('deep nesting is refused, never a stack overflow (500)', () => {
  const cases: [string, () => Buffer | string][] = [
    ['sdt.docx', () => docx(nest('<w:sdt><w:sdtContent>', '</w:sdtContent></w:sdt>', DEPTH, wp('deep')))],
    ['tables.docx', () => docx(nest('<w:tbl><w:tr><w:tc>', '</w:tc></w:tr></w:tbl>', DEPTH, wp('deep')))],
    ['unknown.docx', () => docx(nest('<w:unknown>', '</w:unknown>', 100_000, wp('deep')))],
    ['paragraphs.docx', () => docx(nest('<w:p>', '</w:p>', DEPTH, '<w:r><w:t>deep</w:t></w:r>'))],
    ['runs.docx', () => docx(`<w:p>${nest('<w:r>', '</w:r>', DEPTH, '<w:t>deep</w:t>')}</w:p>`)],
    [
      'hyperlinks.docx',
      () => docx(`<w:p>${nest('<w:hyperlink r:id="rId1">', '</w:hyperlink>', DEPTH, '<w:r><w:t>deep</w:t></w:r>')}</w:p>`, { rId1: 'https://example.com/' }),
    ],
    ['divs.html', () => `<html><body>${'<div>'.repeat(5_000)}deep</body></html>`],
    ['lists.html', () => `<html><body>${'<ul><li>item'.repeat(5_000)}</body></html>`],
    ['tables.html', () => `<html><body>${'<table><tr><td>'.repeat(5_000)}deep</body></html>`],
    ['lists.odt', () => odt(nest('<text:list><text:list-item>', '</text:list-item></text:list>', DEPTH, '<text:p>deep</text:p>'))],
    ['spans.odt', () => odt(`<text:p>${nest('<text:span>', '</text:span>', DEPTH, 'deep')}</text:p>`)],
    ['sections.odt', () => odt(nest('<text:section>', '</text:section>', DEPTH, '<text:p>deep</text:p>'))],
    [
      'row-groups.ods',
      () =>
        ods(
          `<table:table table:name="S">${nest('<table:table-row-group>', '</table:table-row-group>', DEPTH, '<table:table-row><table:table-cell office:value-type="string"><text:p>deep</text:p></table:table-cell></table:table-row>')}</table:table>`,
        ),
    ],
    ['groups.pptx', () => pptx(nest('<p:grpSp>', '</p:grpSp>', DEPTH, pptxLinkedRuns([{ text: 'deep' }])))],
  ];
  for (const [name, make] of cases) {
    it(`${name}: TOO_LARGE or INVALID_INPUT`, async () => expectRefused(await read(name, make()), name), 60_000);
  }

  it('reads what nests within the bound', async () => {
    const shallow = await read('shallow.html', `<html><body>${'<blockquote>'.repeat(200)}quoted</body></html>`);
    expect(shallow.body.success).toBe(true);
    expect(shallow.body.text).toContain('quoted');
  });

  it('reads flat XML whose list levels rise 20,000 times (lists nested at most 10 deep)', async () => {
    const levels = Array.from(
      { length: 20_000 },
      (_, i) => `<w:p><w:pPr><w:numPr><w:ilvl w:val="${i}"/><w:numId w:val="1"/></w:numPr></w:pPr><w:r><w:t>level ${i}</w:t></w:r></w:p>`,
    ).join('');
    const risen = await read('levels.docx', docx(levels, {}, [DECIMAL_NUMBERING]));
    expect(risen.body.success, JSON.stringify(risen.body).slice(0, 300)).toBe(true);
    // Levels past Word's nine have no numbering definition: bullets.
    const last = /^( *)(?:\d+\.|-) level 19999$/m.exec(risen.body.text ?? '');
    expect(last, (risen.body.text ?? '').slice(-300)).not.toBeNull();
    // Ten levels of lists indent by a few characters each, not by 20,000 levels' worth.
    expect(last?.[1]?.length).toBeLessThan(100);
  }, 120_000);

  it('reads a chain of 20,000 footnotes, each referring to the next', async () => {
    const notes = await read(
      'notes.docx',
      docx(`<w:p><w:r><w:t>See</w:t></w:r><w:r><w:footnoteReference w:id="1"/></w:r></w:p>`, {}, [chainedFootnotes(20_000)]),
    );
    expect(notes.body.success, JSON.stringify(notes.body).slice(0, 300)).toBe(true);
    expect(notes.body.text).toContain('[^20000]: note 20000');
  }, 120_000);

  it('keeps serving', expectHealthy);
});

describe('tall tables and repeated rows are refused, never a 500', () => {
  for (const [name] of TALL_CASES) {
    it(
      `${name}: TOO_LARGE or INVALID_INPUT`,
      async () => expectRefused(await service.post('/api/read', { input: name, maxCharacters: 5_000_000 }), name),
      120_000,
    );
  }

  it('still reads the repeats LibreOffice writes: blank rows and columns to the sheet edge', async () => {
    const sheet = `<table:table table:name="S">${contentRow(3, 'same')}<table:table-row table:number-rows-repeated="1048573"><table:table-cell table:number-columns-repeated="16384"/></table:table-row></table:table>`;
    const answer = await read('edges.ods', ods(sheet));
    expect(answer.body.success, JSON.stringify(answer.body).slice(0, 300)).toBe(true);
    expect(answer.body.text?.match(/\| same \|/g)).toHaveLength(3);
  }, 60_000);

  it('keeps serving', expectHealthy);
});

/** A service of its own for the memory figures: no earlier case's heap in its peak. */
let measuredService: RunningService;

/** Reads `name` and answers how long it took and how much the service's peak memory grew over its warm start. */
async function measured(name: string, bytes: Buffer | string): Promise<{ answer: ApiResponse; extraMb: number }> {
  fs.writeFileSync(path.join(dir, name), bytes);
  const pid = measuredService.child.pid as number;
  resetPeakRss(pid);
  const started = Date.now();
  const answer = await measuredService.post('/api/read', { input: name });
  const seconds = (Date.now() - started) / 1000;
  const extraMb = Math.max(0, peakRssMb(pid) - baselineMb);
  console.log(
    `${name} (${fs.statSync(path.join(dir, name)).size} bytes): ${answer.body.code ?? 'success'} in ${seconds.toFixed(2)} s, peak RSS +${Math.round(extraMb)} MB over ${Math.round(baselineMb)} MB`,
  );
  return { answer, extraMb };
}

describe('small files that would cost gigabytes or the whole time limit are refused early', () => {
  beforeAll(async () => {
    measuredService = await startService(['--base-dir', dir, '--allow-dir', dir, '--workers', '1', '--timeout', String(TIMEOUT_S)]);
    fs.writeFileSync(path.join(dir, 'warm.html'), '<h1>Warm</h1>');
    await measuredService.post('/api/read', { input: 'warm.html' });
    baselineMb = rssMb(measuredService.child.pid as number);
  }, 120_000);
  afterAll(() => measuredService.stop());

  it('a 2.5 KB ods of 200 rows repeated 1,048,576 times each (808 bytes without its styles and manifest)', async () => {
    const rows = Array.from(
      { length: 200 },
      (_, i) =>
        `<table:table-row table:number-rows-repeated="1048576"><table:table-cell office:value-type="float" office:value="${i}"><text:p>${i}</text:p></table:table-cell></table:table-row>`,
    ).join('');
    const { answer, extraMb } = await measured('repeats.ods', ods(`<table:table table:name="S">${rows}</table:table>`));
    expect(answer.body.code).toBe('TOO_LARGE');
    expect(extraMb).toBeLessThan(MAX_EXTRA_MB);
  }, 120_000);

  it('a 12.6 KB html table of rowspan=0 colspan=1000 cells', async () => {
    const html = `<table>${'<tr><td rowspan="0" colspan="1000">x</td></tr>'.repeat(280)}</table>`;
    expect(html.length).toBeGreaterThan(12_000);
    const { answer, extraMb } = await measured('spans.html', html);
    expect(answer.body.code).toBe('TOO_LARGE');
    expect(extraMb).toBeLessThan(MAX_EXTRA_MB);
  }, 120_000);

  it('a docx of a few hundred KB whose XML inflates to 250 MB (declared in its headers)', async () => {
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const { answer, extraMb } = await measured('bomb.docx', bomb);
    expect(answer.body.code).toBe('TOO_LARGE');
    expect(extraMb).toBeLessThan(MAX_EXTRA_MB);
  }, 120_000);

  it('the same bomb declaring 1 KB: counted as it inflates and stopped at the cap', async () => {
    const { answer, extraMb } = await measured('liar.docx', declareUncompressedSize(bomb, 1024));
    expect(answer.body.code).toBe('TOO_LARGE');
    expect(extraMb).toBeLessThan(MAX_EXTRA_MB);
  }, 120_000);

  it('keeps serving', expectHealthy);
});

// ---- item 6: the Markdown is inert ----

/** The Markdown as pandoc reads it (GFM): every link and picture it would render, every comment. */
function renderedByPandoc(markdown: string): { hrefs: string[]; sources: string[]; html: string } {
  const html = execFileSync('pandoc', ['-f', 'gfm', '-t', 'html'], { input: markdown }).toString();
  const decode = (value: string) =>
    value.replace(/&amp;/g, '&').replace(/&#(x?)([0-9a-f]+);/gi, (_, hex: string, n: string) => String.fromCodePoint(parseInt(n, hex ? 16 : 10)));
  // Attributes of real tags only: text that spells out a tag is escaped (&lt;a href="…").
  const attributes = (name: string) => [...html.matchAll(new RegExp(`<[a-z][^<>]*?\\s${name}="([^"]*)"`, 'gi'))].map((m) => decode(m[1] as string));
  return { hrefs: attributes('href'), sources: attributes('src'), html };
}

function expectInert(markdown: string, name: string): { hrefs: string[] } {
  expect(markdown, `${name}: the input's comment or an unescaped <!-- survives`).not.toMatch(/(^|[^\\])<!--/);
  const { hrefs, sources, html } = renderedByPandoc(markdown);
  for (const href of hrefs) expect(href, `${name}: link ${href}`).toMatch(/^(https?:|mailto:)/i);
  for (const src of sources) expect(src, `${name}: picture ${src}`).toMatch(/^image-\d+$/);
  expect(html, name).not.toMatch(/<!--|<script|<[a-z][^<>]*\son\w+=/i);
  return { hrefs };
}

describe('the Markdown is inert: only http(s) and mailto links, placeholders for pictures, no comments', () => {
  it('html: obfuscated schemes, pictures and base href, a merged-cell table, forged page markers', async () => {
    const page = `<html><head><base href="http://base.example/dir/"></head><body>
<!-- page 2 -->
<p><a href="javascript:alert(1)">js</a> <a href="jav&#x61;script:alert(2)">entity</a> <a href="java\tscript:alert(3)">tab</a>
<a href="&#10;javascript:alert(4)">newline</a> <a href="vbscript:msgbox(5)">vb</a> <a href="data:text/html,<script>alert(6)</script>">data</a>
<a href="file:///etc/passwd">file</a> <a href="https://ok.example/">kept</a> <a href="mailto:a@example.com">mail</a> <a href="relative.html">rel</a></p>
<p><img src="http://127.0.0.1:9/track.png" alt="tracker"> <img src="file:///etc/passwd" alt="local"></p>
<p>&lt;!-- page 3 --&gt; as text, <code>&lt;!-- page 4 --&gt;</code> as code</p>
<pre>&lt;!-- page 5 --&gt;</pre>
<table><tr><td rowspan="2"><a href="javascript:alert(7)">cell js</a> <img src="http://127.0.0.1:9/cell.png" alt="cell pic"></td><td><!-- page 6 -->b</td></tr>
<tr><td>&lt;!-- page 7 --&gt; <a href="https://cell.example/">cell ok</a></td></tr></table>
<iframe src="javascript:alert(8)"></iframe><video src="javascript:alert(9)" poster="http://127.0.0.1:9/poster.png">v</video>
</body></html>`;
    const answer = await read('active.html', page);
    expect(answer.body.success, JSON.stringify(answer.body).slice(0, 300)).toBe(true);
    const markdown = answer.body.text ?? '';
    const { hrefs } = expectInert(markdown, 'html');
    expect(hrefs).toEqual(expect.arrayContaining(['https://ok.example/', 'mailto:a@example.com', 'https://cell.example/']));
    // The links that were dropped keep their text; the pictures are numbered placeholders.
    for (const text of ['js', 'entity', 'tab', 'newline', 'vb', 'data', 'file', 'cell js']) expect(markdown).toContain(text);
    expect(markdown).toMatch(/!\[tracker\]\(image-1\)/);
    expect(markdown).toMatch(/<img src="image-\d+" alt="cell pic">/);
  });

  it('pptx: a:hlinkClick to javascript:, vbscript:, file: is plain text; https stays a link', async () => {
    const deck = pptx(
      pptxLinkedRuns([
        { text: 'js', rId: 'rId1' },
        { text: ' vb', rId: 'rId2' },
        { text: ' file', rId: 'rId3' },
        { text: ' entity', rId: 'rId4' },
        { text: ' kept', rId: 'rId5' },
      ]),
      {
        rId1: 'javascript:alert(1)',
        rId2: 'vbscript:msgbox(1)',
        rId3: 'file:///etc/passwd',
        rId4: 'jav&#x61;script:alert(2)',
        rId5: 'https://ok.example/',
      },
    );
    const markdown = (await read('active.pptx', deck)).body.text ?? '';
    const { hrefs } = expectInert(markdown, 'pptx');
    expect(hrefs).toEqual(['https://ok.example/']);
    expect(markdown).toContain('js vb file entity');
  });

  it("pptx: a picture's alt text with line breaks stays one placeholder, forging no heading, item or page marker", async () => {
    // PowerPoint writes an alt text's line breaks as &#xA; in p:cNvPr's descr.
    const descr = 'Chart of sales&#xA;&#xA;# Forged heading&#xA;&#xA;- forged item&#xA;&lt;!-- page 9 --&gt;';
    const picture = `<p:pic><p:nvPicPr><p:cNvPr id="3" name="Picture" descr="${descr}"/><p:cNvPicPr/><p:nvPr/></p:nvPicPr><p:blipFill><a:blip r:embed="${PPTX_IMAGE_ID}"/></p:blipFill><p:spPr/></p:pic>`;
    const markdown = (await read('alt.pptx', pptx(pptxLinkedRuns([{ text: 'Before' }]) + picture))).body.text ?? '';
    expectInert(markdown, 'pptx');
    expect(markdown).toContain('![Chart of sales # Forged heading - forged item \\<!-- page 9 -->](image-1)');
    expect(markdown.match(/^#.*$/gm)).toEqual(['## Slide 1']);
    expect(markdown).not.toMatch(/^- /m);
  });

  it('docx: hyperlinks to javascript: (entity-written), ftp: and file: are text; forged markers in text and code are escaped', async () => {
    const body = `<w:p><w:hyperlink r:id="rId1"><w:r><w:t>js</w:t></w:r></w:hyperlink><w:r><w:t xml:space="preserve"> </w:t></w:r><w:hyperlink r:id="rId2"><w:r><w:t>ftp</w:t></w:r></w:hyperlink><w:r><w:t xml:space="preserve"> </w:t></w:r><w:hyperlink r:id="rId3"><w:r><w:t>file</w:t></w:r></w:hyperlink><w:r><w:t xml:space="preserve"> </w:t></w:r><w:hyperlink r:id="rId4"><w:r><w:t>kept</w:t></w:r></w:hyperlink></w:p>
${wp('<!-- page 2 -->')}<w:p><w:r><w:rPr><w:rFonts w:ascii="Courier New"/></w:rPr><w:t>${escapeXml('<!-- page 3 -->')}</w:t></w:r></w:p>`;
    const markdown =
      (
        await read(
          'active.docx',
          docx(body, { rId1: 'jav&#x61;script:alert(1)', rId2: 'ftp://example.com/x', rId3: 'file:///etc/passwd', rId4: 'https://ok.example/' }),
        )
      ).body.text ?? '';
    const { hrefs } = expectInert(markdown, 'docx');
    expect(hrefs).toEqual(['https://ok.example/']);
    expect(markdown).toContain('js ftp file');
  });

  it('odt and odp: text:a to javascript: is text', async () => {
    const link = (href: string, text: string) => `<text:a xlink:type="simple" xlink:href="${href}">${text}</text:a>`;
    const paragraph = `<text:p>${link('javascript:alert(1)', 'js')} ${link('java&#9;script:alert(2)', 'tab')} ${link('https://ok.example/', 'kept')} &lt;!-- page 2 --&gt;</text:p>`;
    for (const [name, bytes] of [
      ['active.odt', odt(paragraph)],
      ['active.odp', odp(`<draw:page draw:name="p1"><draw:frame><draw:text-box>${paragraph}</draw:text-box></draw:frame></draw:page>`)],
    ] as const) {
      const markdown = (await read(name, bytes)).body.text ?? '';
      const { hrefs } = expectInert(markdown, name);
      expect(hrefs).toEqual(['https://ok.example/']);
      expect(markdown).toContain('js tab');
    }
  });

  it('xlsx, ods and csv: markup in cells is text, in the merged-cell HTML table too', async () => {
    const markup = ['<a href="javascript:alert(1)">x</a>', '<img src="http://127.0.0.1:9/t.png">', '<!-- page 2 -->'];
    const rows = `<row r="1">${xc('A1', markup[0] as string)}${xc('C1', 'c')}</row><row r="2">${xc('A2', markup[1] as string)}${xc('B2', markup[2] as string)}${xc('C2', 'd')}</row>`;
    // The same cells with A1:B1 merged: written as an HTML table.
    const withMerge = xlsx(rows, '<mergeCells count="1"><mergeCell ref="A1:B1"/></mergeCells>');
    const cell = (text: string, spanned = 1) =>
      `<table:table-cell office:value-type="string"${spanned > 1 ? ` table:number-columns-spanned="${spanned}"` : ''}><text:p>${escapeXml(text)}</text:p></table:table-cell>`;
    const spreadsheet = ods(
      `<table:table table:name="S"><table:table-row>${cell(markup[0] as string, 2)}<table:covered-table-cell/>${cell('c')}</table:table-row><table:table-row>${cell(markup[1] as string)}${cell(markup[2] as string)}${cell('d')}</table:table-row></table:table>`,
    );
    const csv = `a,b\n"${markup[0]?.replace(/"/g, '""')}","${markup[1]?.replace(/"/g, '""')}"\n${markup[2]},x\n`;
    for (const [name, bytes] of [
      ['plain.xlsx', xlsx(rows)],
      ['merged.xlsx', withMerge],
      ['merged.ods', spreadsheet],
      ['active.csv', csv],
    ] as const) {
      const answer = await read(name, bytes);
      expect(answer.body.success, `${name}: ${JSON.stringify(answer.body).slice(0, 300)}`).toBe(true);
      const markdown = answer.body.text ?? '';
      expectInert(markdown, name);
      expect(renderedByPandoc(markdown).hrefs, name).toEqual([]);
      expect(markdown, name).toMatch(/javascript:alert\(1\)/);
    }
  });

  it('keeps serving', expectHealthy);
});
