// OFD (GB/T 33190) as an input of convert, convert/batch, read and pipelines, on real OFD files
// of the ofdrw project (fixtures/ofd/, Apache-2.0). Every PDF is checked with poppler and qpdf,
// never with docwasm's own code: page sizes (pdfinfo), text and its place (pdftotext, -bbox),
// pictures (pdfimages), embedded fonts (pdffonts), structure (qpdf --check).

import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { callTool } from '../helpers/mcp-call.js';
import { makeZip } from '../helpers/zip.js';
import { CLI, leftoverTempFiles, ROOT, startService, type RunningService } from '../helpers/service.js';
import { codeOf, inProcess, type InProcess } from '../operations/in-process.js';
import { xmlText } from '../helpers/ofd-words.js';

const FIXTURES = path.join(ROOT, 'fixtures/ofd');
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name));
const MM = 72 / 25.4;

/** The invoice's CustomDatas exactly as OFD.xml holds them. */
const INVOICE_FIELDS = {
  'native-producer': 'HuhuangSDK',
  'producer-version': 'v1.0.0518.2',
  价税合计: '10600.00',
  发票代码: '050001700111',
  发票号码: '12235358',
  合计金额: '10000.00',
  开票日期: '2020年08月05日',
  校验码: '16630282980991510014',
  购买方名称: '个人',
  销售方名称: '财天下科技有限公司',
  销售方纳税人识别号: '91500102563638729E',
};

const run = (tool: string, args: string[]) => execFileSync(tool, args, { encoding: 'utf8' });
const pageSizes = (pdf: string) =>
  [...run('pdfinfo', ['-f', '1', '-l', '999', pdf]).matchAll(/Page\s+\d+ size:\s+([\d.]+) x ([\d.]+)/g)].map((m) => [Number(m[1]), Number(m[2])]);
const noSpaces = (text: string) => text.replace(/\s+/g, '');
/** pdfimages -list: the page of each image (smasks and stencil masks left out). */
const imagePages = (pdf: string) =>
  run('pdfimages', ['-list', pdf])
    .split('\n')
    .slice(2)
    .map((line) => line.trim().split(/\s+/))
    .filter((columns) => columns[2] === 'image')
    .map((columns) => Number(columns[0]));

/**
 * A part's text as unzip reads it. Exit status 1 is unzip's "warnings, but processing completed
 * successfully" (ofdrw's packages flag UTF-8 names in the local headers only): the part is read.
 */
function unzipPart(file: string, name: string): string {
  const result = spawnSync('unzip', ['-p', file, name], { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (result.status !== 0 && result.status !== 1) throw new Error(`unzip -p ${file} ${name} exited ${result.status}: ${result.stderr}`);
  return result.stdout;
}

/** The characters of every TextCode an OFD's listed pages draw: theirs and those of the templates they use (read with unzip). */
function drawnTextCodes(file: string): string {
  const part = (name: string) => unzipPart(file, name);
  const names = execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' }).split('\n');
  const documentXml = part(names.find((n) => /Document\.xml$/.test(n)) as string);
  const templates = new Map([...documentXml.matchAll(/TemplatePage ID="(\d+)"[^>]*BaseLoc="([^"]+)"/g)].map((m) => [m[1], m[2] as string]));
  // The pages Document.xml lists (a package may hold a page part it does not list: it is not drawn).
  const pageLocs = [...documentXml.matchAll(/<(?:ofd:)?Page\b[^>]*BaseLoc="([^"]+)"/g)].map((m) => (m[1] as string).toLowerCase());
  const pages = pageLocs.map((loc) => names.find((n) => n.toLowerCase().endsWith(loc)) as string).map(part);
  const used = pages.flatMap((page) => [...page.matchAll(/TemplateID="(\d+)"/g)].map((m) => templates.get(m[1] as string)));
  const templateXml = [...new Set(used)]
    .map((loc) => names.find((n) => loc && n.toLowerCase().endsWith(loc.toLowerCase())))
    .filter(Boolean)
    .map((n) => part(n as string));
  return [...pages, ...templateXml]
    .flatMap((xml) => [...xml.matchAll(/<(?:ofd:)?TextCode[^>]*>([^<]*)</g)].map((m) => noSpaces(xmlText(m[1] as string))))
    .join('');
}

/** Words of one page with their boxes, from pdftotext -bbox. */
function words(pdf: string, page: number): { text: string; xMin: number; yMin: number; yMax: number }[] {
  const xml = run('pdftotext', ['-bbox', '-f', String(page), '-l', String(page), pdf, '-']);
  return [...xml.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">([^<]*)<\/word>/g)].map((m) => ({
    text: m[4] as string,
    xMin: Number(m[1]),
    yMin: Number(m[2]),
    yMax: Number(m[3]),
  }));
}

const DEFAULT_LAYER =
  '<ofd:ImageObject ID="3" Boundary="10 10 20 20" CTM="20 0 0 20 0 0" ResourceID="9"/><ofd:TextObject ID="4" Boundary="10 35 80 8" Font="5" Size="5"><ofd:TextCode X="0" Y="5" DeltaX="g 3 5">你好世界</ofd:TextCode></ofd:TextObject>';

/** An OFD made here: one page of `layer` (one image and one text object), `resources` in DocumentRes, plus whatever parts `extra` adds. */
function handMadeOfd({
  docRoot = 'Doc_0/Document.xml',
  mediaFile = 'Res/a.png',
  layer = DEFAULT_LAYER,
  resources = '',
  extra = [] as { name: string; data: Buffer | string }[],
} = {}): Buffer {
  const ns = 'xmlns:ofd="http://www.ofdspec.org/2016"';
  return makeZip([
    {
      name: 'OFD.xml',
      data: `<?xml version="1.0" encoding="UTF-8"?><ofd:OFD ${ns} DocType="OFD" Version="1.0"><ofd:DocBody><ofd:DocInfo><ofd:CustomDatas><ofd:CustomData Name="编号">A-1</ofd:CustomData></ofd:CustomDatas></ofd:DocInfo><ofd:DocRoot>${docRoot}</ofd:DocRoot></ofd:DocBody></ofd:OFD>`,
    },
    {
      name: 'Doc_0/Document.xml',
      data: `<ofd:Document ${ns}><ofd:CommonData><ofd:PageArea><ofd:PhysicalBox>0 0 100 50</ofd:PhysicalBox></ofd:PageArea><ofd:DocumentRes>DocumentRes.xml</ofd:DocumentRes></ofd:CommonData><ofd:Pages><ofd:Page ID="1" BaseLoc="Pages/Page_0/Content.xml"/></ofd:Pages></ofd:Document>`,
    },
    {
      name: 'Doc_0/DocumentRes.xml',
      data: `<ofd:Res ${ns} BaseLoc="Res"><ofd:MultiMedias><ofd:MultiMedia ID="9" Type="Image"><ofd:MediaFile>${mediaFile}</ofd:MediaFile></ofd:MultiMedia></ofd:MultiMedias>${resources}</ofd:Res>`,
    },
    { name: 'Doc_0/Pages/Page_0/Content.xml', data: `<ofd:Page ${ns}><ofd:Content><ofd:Layer ID="2">${layer}</ofd:Layer></ofd:Content></ofd:Page>` },
    ...extra,
  ]);
}

let ops: InProcess;

beforeAll(async () => {
  ops = await inProcess();
  for (const name of fs.readdirSync(FIXTURES)) ops.put(name, fixture(name));
});

afterAll(async () => {
  await ops.close();
});

describe('OFD → PDF (convert format pdf)', () => {
  it('draws every page at its PhysicalBox, the text findable in order, with no LibreOffice', async () => {
    const answer = await ops.ok('convert', { input: 'invoice-templates.ofd', output: 'invoice.pdf' });
    expect(answer.data).toMatchObject({ format: 'pdf', backend: 'docwasm-ofd', pages: 5, fields: INVOICE_FIELDS });
    const pdf = ops.at('invoice.pdf');
    expect(run('qpdf', ['--check', pdf])).toMatch(/No syntax or stream encoding errors found/);
    const sizes = pageSizes(pdf);
    expect(sizes).toHaveLength(5);
    // Page 1 (the invoice) declares 210 × 140 mm, the list pages 2–5 210 × 297 mm (A4).
    expect(sizes.map(([w, h]) => [Math.round((w as number) / MM), Math.round((h as number) / MM)])).toEqual([
      [210, 140],
      [210, 297],
      [210, 297],
      [210, 297],
      [210, 297],
    ]);
    expect(sizes[0]?.[1]).toBeCloseTo(140 * MM, 1);
    // Template text (the labels) and page text (the values), in reading order on page 1.
    const text = noSpaces(run('pdftotext', ['-f', '1', '-l', '1', pdf, '-']));
    for (const value of ['重庆增值税电子普通发票', '发票号码：', '12235358', '财天下科技有限公司', '价税合计（大写）', '壹万零陆佰圆整', '¥10600.00'])
      expect(text).toContain(value);
    expect(text.indexOf('个人')).toBeGreaterThan(-1);
    expect(text.indexOf('个人')).toBeLessThan(text.indexOf('财天下科技有限公司'));
    expect(
      run('pdffonts', [pdf])
        .split('\n')
        .slice(2)
        .filter(Boolean)
        .every((line) => /\s+yes\s+yes\s+yes\s+\d+\s+\d+\s*$/.test(line)),
    ).toBe(true);
  });

  it('places each glyph where the OFD puts it (pdftotext -bbox within 2 pt)', async () => {
    await ops.ok('convert', { input: 'invoice-fptpl.ofd', output: 'fptpl.pdf' });
    // TextObject 70: Boundary="164 11.7 40 5", TextCode X="0" Y="4.0875": 12235358, baseline at 15.7875 mm.
    const number = words(ops.at('fptpl.pdf'), 1).find((w) => w.text === '12235358');
    expect(number).toBeDefined();
    expect(Math.abs((number?.xMin ?? 0) - 164 * MM)).toBeLessThan(2);
    const baseline = (11.7 + 4.0875) * MM;
    expect(number?.yMin).toBeLessThan(baseline);
    expect(number?.yMax).toBeGreaterThan(baseline);
    expect(Math.abs((number?.yMax ?? 0) - baseline)).toBeLessThan(4);
  });

  it('draws images, seals and embedded fonts (pdfimages, pdffonts)', async () => {
    await ops.ok('convert', { input: 'multipage-fonts-images.ofd', output: 'z.pdf' });
    expect(imagePages(ops.at('z.pdf'))).toEqual([2, 3, 4]);
    // Font 88 (STZJ) is embedded in the OFD: it is the font its glyphs are drawn with.
    expect(run('pdffonts', [ops.at('z.pdf')])).toMatch(/\+STZJ\s+CID TrueType/);
    expect(noSpaces(run('pdftotext', ['-f', '1', '-l', '1', ops.at('z.pdf'), '-']))).toContain('11.4字型变换');

    await ops.ok('convert', { input: 'sealed.ofd', output: 'sealed.pdf' });
    // The seal of Signs/Sign_0 sits on page 2 (StampAnnot PageRef), drawn from SignedValue.dat.
    expect(imagePages(ops.at('sealed.pdf'))).toEqual([2]);
    expect(run('qpdf', ['--check', ops.at('sealed.pdf')])).toMatch(/No syntax or stream encoding errors found/);
  });

  it('draws CGTransform glyphs at their own places, dash patterns and composite graphics (qpdf, pdftotext -bbox)', async () => {
    await ops.ok('convert', { input: 'dashes-glyph-ids.ofd', output: 'dashes.pdf' });
    const pdf = ops.at('dashes.pdf');
    // TextObject 5: Boundary x 73 mm, CTM 9.1722 (an em), 说    明 as the glyphs 3755 33 33 33 33 3069
    // of font 6 with DeltaX 1 0.5 0.5 0.5 0.5 em: 明 starts 3 em (27.52 mm) after 说.
    const page = words(pdf, 1);
    const first = page.find((w) => w.text === '说');
    const last = page.find((w) => w.text === '明');
    expect(Math.abs((first?.xMin ?? 0) - 73 * MM)).toBeLessThan(2);
    expect(Math.abs((last?.xMin ?? 0) - (73 + 3 * 9.1722) * MM)).toBeLessThan(2);
    // The content streams as qpdf decodes them: the font's glyph 3755 (0EAB) drawn, its character
    // said as ActualText; the dashed borders' DashPattern="8.98 8.98".
    const qdf = ops.at('dashes-qdf.pdf');
    run('qpdf', ['--qdf', '--object-streams=disable', pdf, qdf]);
    const streams = fs.readFileSync(qdf, 'latin1');
    expect(streams).toMatch(/ActualText <feff8bf4>>> BDC\s+[\d. -]+ Tm <0eab> Tj/);
    expect(streams).toContain('[8.98 8.98] 0 d');
    expect(run('qpdf', ['--check', pdf])).toMatch(/No syntax or stream encoding errors found/);

    // A CompositeGraphicUnit holding text, placed twice by CompositeObjects (CTM scales it by 2);
    // one with Alpha 0 draws nothing (a unit that uses itself is INVALID_INPUT: ofd-budgets.test.ts).
    const resources =
      '<ofd:CompositeGraphicUnits><ofd:CompositeGraphicUnit ID="7" Width="40" Height="10"><ofd:Content><ofd:TextObject ID="8" Boundary="0 0 40 10" Size="4"><ofd:TextCode X="0" Y="4">单元</ofd:TextCode></ofd:TextObject></ofd:Content></ofd:CompositeGraphicUnit></ofd:CompositeGraphicUnits>';
    const layer =
      '<ofd:CompositeObject ID="3" Boundary="10 10 80 20" CTM="2 0 0 2 0 0" ResourceID="7"/><ofd:CompositeObject ID="4" Boundary="10 35 40 10" ResourceID="7"/><ofd:CompositeObject ID="5" Boundary="60 35 40 10" Alpha="0" ResourceID="7"/>';
    ops.put('composite.ofd', handMadeOfd({ layer, resources }));
    await ops.ok('convert', { input: 'composite.ofd', output: 'composite.pdf' });
    const units = words(ops.at('composite.pdf'), 1).filter((w) => w.text === '单元');
    expect(units.map((w) => Math.round(w.xMin / MM))).toEqual([10, 10]);
    // The first is drawn twice as large: its glyphs' boxes are twice as tall.
    const [big, small] = [...units].sort((a, b) => b.yMax - b.yMin - (a.yMax - a.yMin));
    expect((big?.yMax ?? 0) - (big?.yMin ?? 0)).toBeGreaterThan(1.6 * ((small?.yMax ?? 0) - (small?.yMin ?? 0)));
  });

  // Thai and Tamil with no font in the document are left out of the count: the shipped face has
  // no glyphs for them (docs/ofd.md says so); they are drawn as missing glyphs.
  it('converts every fixture, keeping ≥ 99 % of the TextCode characters (Latin, CJK, Greek, Cyrillic)', async () => {
    for (const name of fs.readdirSync(FIXTURES)) {
      const output = `all-${name}.pdf`;
      await ops.ok('convert', { input: name, output });
      expect(run('qpdf', ['--check', ops.at(output)])).toMatch(/No syntax or stream encoding errors found/);
      const drawn = noSpaces(run('pdftotext', [ops.at(output), '-']));
      const wanted = drawnTextCodes(path.join(FIXTURES, name)).replace(/[\p{Script=Thai}\p{Script=Tamil}]/gu, '');
      const left = [...drawn];
      let found = 0;
      for (const char of wanted) {
        const at = left.indexOf(char);
        if (at >= 0) {
          found++;
          left.splice(at, 1);
        }
      }
      expect(found / Math.max(1, wanted.length), name).toBeGreaterThanOrEqual(0.99);
    }
  });
});

describe('OFD → Markdown and text (read, convert md/txt)', () => {
  it('read answers the fields (CustomDatas) and Markdown that opens with them, a comment before each page', async () => {
    const answer = await ops.ok('read', { input: 'invoice-templates.ofd' });
    expect(answer.data).toMatchObject({ format: 'ofd', pages: 5, fields: INVOICE_FIELDS, truncated: false });
    const markdown = answer.text as string;
    expect(markdown.startsWith('| Field | Value |\n| - | - |\n| native-producer | HuhuangSDK |')).toBe(true);
    expect(markdown).toContain('| 发票号码 | 12235358 |');
    expect([...markdown.matchAll(/^<!-- page (\d+) -->$/gm)].map((m) => Number(m[1]))).toEqual([1, 2, 3, 4, 5]);
    const page1 = markdown.slice(markdown.indexOf('<!-- page 1 -->'), markdown.indexOf('<!-- page 2 -->'));
    expect(page1.indexOf('重庆增值税电子普通发票')).toBeLessThan(page1.indexOf('收款人：张一诺'));
  });

  it('adds the fields of the attached invoice XML (eInvoice and XBRL) after CustomDatas, read with unzip here', async () => {
    const attached = (file: string, part: string) => execFileSync('unzip', ['-p', path.join(FIXTURES, file), part], { encoding: 'utf8' });
    // 999.ofd: Doc_0/Attachs/original_invoice.xml, the 2019 e-invoice schema (fp:InvoiceNo …).
    const einvoice = attached('invoice-templates.ofd', 'Doc_0/Attachs/original_invoice.xml');
    const element = (xml: string, name: string) => new RegExp(`<(?:\\w+:)?${name}\\b[^>]*>(?:<!\\[CDATA\\[)?([^<\\]]*)`).exec(xml)?.[1];
    const read = await ops.ok('read', { input: 'invoice-templates.ofd' });
    const fields = (read.data as { fields: Record<string, string> }).fields;
    // CustomDatas come first, the attachment's fields after them.
    expect(Object.keys(fields).slice(0, Object.keys(INVOICE_FIELDS).length).sort()).toEqual(Object.keys(INVOICE_FIELDS).sort());
    for (const name of [
      'InvoiceCode',
      'InvoiceNo',
      'IssueDate',
      'InvoiceCheckCode',
      'BuyerName',
      'SellerName',
      'SellerTaxID',
      'TaxInclusiveTotalAmount',
      'TaxTotalAmount',
      'TaxExclusiveTotalAmount',
      'Payee',
    ]) {
      expect(fields[name], name).toBe(element(einvoice, name));
    }
    expect(fields).toMatchObject({ InvoiceNo: '12235358', TaxInclusiveTotalAmount: '10600.00', SellerTaxID: '91500102563638729E' });
    // Repeated elements (one per goods line) and the issuer's signature are no fields.
    expect(fields).not.toHaveProperty('Amount');
    expect(fields).not.toHaveProperty('Signature');
    expect(read.text as string).toContain('| InvoiceNo | 12235358 |');

    // SignScaleError.ofd: no CustomDatas, the invoice as an XBRL instance (inv:NumberOfInvoice …).
    const xbrl = attached('invoice-xbrl.ofd', 'Doc_0/Attachs/inv_ord_issuer_20220901_03300220021199934328.xml');
    const converted = await ops.ok('convert', { input: 'invoice-xbrl.ofd', output: 'xbrl.pdf' });
    const xbrlFields = (converted.data as { fields: Record<string, string> }).fields;
    for (const name of [
      'CodeOfInvoice',
      'NumberOfInvoice',
      'DateOfIssue',
      'NameOfPurchaser',
      'NameOfSeller',
      'TotalAmountExcludingTax',
      'TotalTaxAmount',
      'TaxIncludedAmountInFigures',
    ]) {
      expect(xbrlFields[name], name).toBe(element(xbrl, name));
    }
    expect(xbrlFields).toMatchObject({ NumberOfInvoice: '99934328', TaxIncludedAmountInFigures: '11.20', NameOfSeller: '杭州融运科技有限公司' });
    // The instance's frame (context, unit, schemaRef) is not invoice data.
    expect(xbrlFields).not.toHaveProperty('identifier');
    expect(xbrlFields).not.toHaveProperty('measure');
  });

  it('convert md and txt write the text; txt has no Markdown, pages apart by a form feed', async () => {
    const md = await ops.ok('convert', { input: 'two-pages.ofd', output: 'two.md' });
    expect(md.data).toMatchObject({ format: 'md', backend: 'docwasm-ofd', pages: 2 });
    expect(fs.readFileSync(ops.at('two.md'), 'utf8')).toMatch(/^<!-- page 1 -->\n\n[\s\S]+<!-- page 2 -->/);
    const txt = await ops.ok('convert', { input: 'invoice-fptpl.ofd', output: 'fptpl.txt' });
    expect(txt.data).toMatchObject({ format: 'txt', fields: INVOICE_FIELDS });
    const text = fs.readFileSync(ops.at('fptpl.txt'), 'utf8');
    expect(text).toContain('发票号码：12235358');
    expect(text).not.toContain('<!--');
  });

  it('a format an OFD does not convert to is UNSUPPORTED_CONVERSION', async () => {
    expect(codeOf(await ops.run('convert', { input: 'helloworld.ofd', output: 'x.docx' }))).toBe('UNSUPPORTED_CONVERSION');
  });
});

describe('convert/batch and pipelines with OFD', () => {
  it('a batch converts each OFD; one that is not an OFD fails alone with INVALID_INPUT', async () => {
    ops.put('fake.ofd', 'not a zip at all');
    const answer = await ops.run('convert/batch', { files: ['helloworld.ofd', 'fake.ofd', 'sealed.ofd'], format: 'pdf', outputDir: 'batch' });
    const data = 'data' in answer ? answer.data : undefined;
    expect(data).toMatchObject({ total: 3, succeeded: 2, failed: 1 });
    const results = (data as { results: { success: boolean; code?: string }[] }).results;
    expect(results.map((r) => r.code ?? 'ok')).toEqual(['ok', 'INVALID_INPUT', 'ok']);
    expect(fs.readdirSync(ops.at('batch')).sort()).toEqual(['helloworld.pdf', 'sealed.pdf']);
  });

  it('ofd → pdf → compress, and ofd → md with the fields in the step data', async () => {
    const answer = await ops.ok('pipeline', {
      input: 'invoice-fptpl.ofd',
      steps: [{ operation: 'convert', format: 'pdf' }, { operation: 'pdf/compress' }],
      output: 'piped.pdf',
    });
    expect((answer.data as { steps: { fields?: unknown }[] }).steps[0]?.fields).toEqual(INVOICE_FIELDS);
    expect(run('qpdf', ['--check', ops.at('piped.pdf')])).toMatch(/No syntax or stream encoding errors found/);
    expect(noSpaces(run('pdftotext', [ops.at('piped.pdf'), '-']))).toContain('12235358');
    const md = await ops.ok('pipeline', { input: 'invoice-fptpl.ofd', steps: [{ operation: 'convert', format: 'md' }], output: 'piped.md' });
    expect((md.data as { steps: { fields?: unknown }[] }).steps[0]?.fields).toEqual(INVOICE_FIELDS);
  });
});

describe('untrusted OFD', () => {
  it('locations outside the package read nothing: ../, absolute file paths and URLs', async () => {
    for (const mediaFile of ['../../../../../../etc/hostname', 'file:///etc/hostname', 'http://127.0.0.1:9/x.png', 'C:/Windows/win.ini']) {
      ops.put('outside.ofd', handMadeOfd({ mediaFile }));
      await ops.ok('convert', { input: 'outside.ofd', output: 'outside.pdf' });
      expect(imagePages(ops.at('outside.pdf'))).toEqual([]);
      expect(noSpaces(run('pdftotext', [ops.at('outside.pdf'), '-']))).toBe('你好世界');
    }
    ops.put('escape.ofd', handMadeOfd({ docRoot: '../../../etc/passwd' }));
    expect(codeOf(await ops.run('read', { input: 'escape.ofd' }))).toBe('INVALID_INPUT');
  });

  it('a zip bomb is TOO_LARGE, a damaged OFD INVALID_INPUT; no output, no temp file', async () => {
    ops.put('bomb.ofd', handMadeOfd({ extra: [{ name: 'Doc_0/bomb.xml', data: Buffer.alloc(300 * 1024 * 1024, 0x20) }] }));
    expect(codeOf(await ops.run('read', { input: 'bomb.ofd' }))).toBe('TOO_LARGE');
    expect(codeOf(await ops.run('convert', { input: 'bomb.ofd', output: 'bomb.pdf' }))).toBe('TOO_LARGE');
    const whole = fixture('helloworld.ofd');
    ops.put('cut.ofd', whole.subarray(0, Math.floor(whole.length * 0.6)));
    expect(codeOf(await ops.run('convert', { input: 'cut.ofd', output: 'cut.pdf' }))).toBe('INVALID_INPUT');
    ops.put('doctype.ofd', makeZip([{ name: 'OFD.xml', data: '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><ofd:OFD xmlns:ofd="x">&e;</ofd:OFD>' }]));
    expect(codeOf(await ops.run('read', { input: 'doctype.ofd' }))).toBe('INVALID_INPUT');
    for (const name of ['bomb.pdf', 'cut.pdf']) expect(fs.existsSync(ops.at(name))).toBe(false);
    expect(leftoverTempFiles(ops.dir)).toEqual([]);
  }, 120_000);
});

describe('doors: MCP', () => {
  it('the read tool answers the Markdown as text and the fields in structuredContent; convert draws the PDF', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--base-dir', ops.dir], stderr: 'ignore' });
    const client = new Client({ name: 'docwasm-ofd-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const read = (await client.callTool({ name: 'read', arguments: { input: 'invoice-fptpl.ofd' } }, undefined, { timeout: 120_000 })) as CallToolResult;
      const first = read.content[0];
      expect(first?.type === 'text' ? first.text : '').toContain('| 发票号码 | 12235358 |');
      expect((read.structuredContent as { data?: { fields?: unknown } }).data?.fields).toEqual(INVOICE_FIELDS);
      const { envelope } = await callTool(client, 'convert', { input: 'invoice-fptpl.ofd', output: 'mcp.pdf' });
      expect(envelope.data).toMatchObject({ format: 'pdf', fields: INVOICE_FIELDS });
      expect(noSpaces(run('pdftotext', [ops.at('mcp.pdf'), '-']))).toContain('财天下科技有限公司');
    } finally {
      await client.close();
    }
  });
});

describe('doors: HTTP and CLI', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService();
    fs.copyFileSync(path.join(FIXTURES, 'invoice-templates.ofd'), path.join(service.dir, 'invoice.ofd'));
  });
  afterAll(async () => {
    await service.stop();
  });

  it('HTTP /api/read and /api/convert answer the fields', async () => {
    const read = await service.post('/api/read', { input: 'invoice.ofd' });
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ format: 'ofd', fields: INVOICE_FIELDS });
    const convert = await service.post('/api/convert', { input: 'invoice.ofd', output: 'invoice.pdf' });
    expect(convert.status).toBe(200);
    expect(convert.body.data).toMatchObject({ format: 'pdf', fields: INVOICE_FIELDS });
    expect(pageSizes(path.join(service.dir, 'invoice.pdf'))).toHaveLength(5);
  });

  it('CLI: docwasm read prints the Markdown; --json carries the fields', () => {
    const markdown = execFileSync(process.execPath, [CLI, 'read', path.join(FIXTURES, 'invoice-fptpl.ofd')], { encoding: 'utf8' });
    expect(markdown).toContain('| 价税合计 | 10600.00 |');
    const json = JSON.parse(execFileSync(process.execPath, [CLI, 'read', path.join(FIXTURES, 'invoice-fptpl.ofd'), '--json'], { encoding: 'utf8' })) as {
      data: { fields: unknown };
    };
    expect(json.data.fields).toEqual(INVOICE_FIELDS);
  });
});
