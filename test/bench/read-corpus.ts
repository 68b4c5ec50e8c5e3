// The reading-quality corpus: documents with known Markdown. Two halves —
//   - third-party test files with their projects' expected Markdown, committed in
//     fixtures/reading/{docling,markitdown}/ as `name.ext` + `name.ext.md` (MIT, see fixtures/README.md);
//   - documents rendered here from Markdown written for the purpose, English and Chinese, by
//     pandoc (docx, odt, html, rtf, pptx) and LibreOffice (pdf from the docx, xlsx/ods from csv,
//     a two-column pdf and a pdf with a table ruled only by horizontal lines from flat ODTs): their
//     ground truth is the Markdown they came from.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { runSoffice } from '../helpers/soffice.js';
import { ROOT } from '../helpers/service.js';

export interface CorpusDocument {
  /** Where it came from: docling, markitdown, pandoc, libreoffice. */
  source: string;
  file: string;
  format: string;
  groundTruth: string;
  chinese: boolean;
  /**
   * tuned: the documents docwasm's readers were tuned on (this module); held-out: read-corpus-heldout.ts
   * and half of read-corpus-producers.ts; dev: that module's other half, which the PDF reader may be tuned on.
   */
  set: 'tuned' | 'held-out' | 'dev';
}

const FIXTURES = path.join(ROOT, 'fixtures/reading');

const REPORTS: Record<string, string> = {
  'en-report': `# Quarterly operations report

This report summarises the operations of the third quarter. Production rose steadily while costs stayed within the budget agreed in the spring.

## Production

Output grew in every plant. The northern plant finished its new line in August and ran two shifts from September.

- Northern plant
  - new line in August
  - two shifts from September
- Southern plant
- Eastern plant

### Output by plant

| Plant | July | August | September |
|---|---|---|---|
| North | 120 | 135 | 160 |
| South | 98 | 101 | 99 |
| East | 77 | 80 | 84 |

## Costs

Energy prices fell in the quarter. Three measures kept the remaining costs down:

1. longer maintenance intervals
2. shared transport between plants
3. a single supplier for packaging

## Outlook

The fourth quarter should bring a similar result. The board will review the budget in December.
`,
  'zh-report': `# 第三季度运营报告

本报告总结了第三季度的运营情况。产量稳步增长，成本保持在春季商定的预算之内。

## 生产情况

各工厂的产量均有增长。北方工厂于八月完成了新生产线，并从九月起实行两班制。

- 北方工厂
  - 八月投产新生产线
  - 九月起两班制
- 南方工厂
- 东方工厂

### 各工厂产量

| 工厂 | 七月 | 八月 | 九月 |
|---|---|---|---|
| 北方 | 120 | 135 | 160 |
| 南方 | 98 | 101 | 99 |
| 东方 | 77 | 80 | 84 |

## 成本

本季度能源价格下降。以下三项措施控制了其余成本：

1. 延长维护周期
2. 工厂之间共享运输
3. 包装材料统一供应商

## 展望

预计第四季度将取得类似的结果。董事会将于十二月审议预算。
`,
};

const SLIDES: Record<string, string> = {
  'en-slides': `## Project kickoff

- Goals for the year
- Team and roles

## Timeline

- Design until March
- Build until September
- Launch in October

## Budget

| Item | Amount |
|---|---|
| Staff | 400 |
| Hardware | 120 |
`,
  'zh-slides': `## 项目启动

- 年度目标
- 团队与分工

## 时间安排

- 三月前完成设计
- 九月前完成开发
- 十月发布

## 预算

| 项目 | 金额 |
|---|---|
| 人员 | 400 |
| 硬件 | 120 |
`,
};

const SHEETS: Record<string, string[][]> = {
  'en-sales': [
    ['Region', 'Product', 'Units', 'Revenue'],
    ['North', 'Chairs', '120', '2400'],
    ['North', 'Tables', '40', '3200'],
    ['South', 'Chairs', '95', '1900'],
    ['South', 'Lamps', '210', '1050'],
  ],
  'zh-sales': [
    ['地区', '产品', '数量', '收入'],
    ['华北', '椅子', '120', '2400'],
    ['华北', '桌子', '40', '3200'],
    ['华南', '椅子', '95', '1900'],
    ['华南', '台灯', '210', '1050'],
  ],
};

const EN_COLUMN = [
  'The river valley has been farmed for more than two thousand years, and the pattern of its fields still follows the old irrigation channels that were dug by hand.',
  'Each spring the water rises with the melting snow from the mountains, and the farmers open the gates one after another, starting with the fields nearest the river.',
  'In the last century the valley changed more than in the thousand years before: roads replaced the towpaths, and the mills along the river were turned into houses.',
  'Today most of the land is farmed by a few cooperatives, which share machines and sell their grain together to the mills in the town at the mouth of the valley.',
  'The old channels are still kept open, partly for the fields and partly because the villages have come to see them as a part of their history worth keeping.',
  'Visitors walk along the channels in the summer, and a small museum in the largest village shows the tools that were used to build and clean them.',
];
const ZH_COLUMN = [
  '这条河谷已有两千多年的耕作历史，田地的格局至今仍沿着古人用双手开挖的灌溉水渠分布。',
  '每年春天，山上融雪使河水上涨，农民们从离河最近的田地开始，依次打开一道道水闸。',
  '上个世纪河谷的变化超过了此前的一千年：公路取代了纤道，河边的磨坊也被改建成了住宅。',
  '如今大部分土地由几家合作社耕种，它们共用农机，并把粮食一起卖给河谷出口处小镇上的面粉厂。',
  '古老的水渠依然保持畅通，一方面是为了灌溉，另一方面村民们也把它们视为值得保留的历史。',
  '夏天游客沿着水渠散步，最大的村子里有一座小博物馆，展示当年修建和清理水渠所用的工具。',
];

/** A flat ODT of one heading and a two-column section long enough to fill both columns. */
function twoColumnFodt(title: string, paragraphs: readonly string[]): string {
  const body = [...paragraphs, ...paragraphs].map((p) => `<text:p text:style-name="Body">${p}</text:p>`).join('');
  return `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">
<office:styles>
<style:style style:name="Body" style:family="paragraph"><style:paragraph-properties fo:margin-bottom="0.25cm"/><style:text-properties fo:font-size="11pt" style:font-size-asian="11pt"/></style:style>
<style:style style:name="Heading_20_1" style:display-name="Heading 1" style:family="paragraph" style:default-outline-level="1"><style:text-properties fo:font-size="20pt" fo:font-weight="bold" style:font-size-asian="20pt" style:font-weight-asian="bold"/></style:style>
</office:styles>
<office:automatic-styles>
<style:style style:name="Cols" style:family="section"><style:section-properties><style:columns fo:column-count="2" fo:column-gap="1cm"/></style:section-properties></style:style>
</office:automatic-styles>
<office:body><office:text>
<text:h text:style-name="Heading_20_1" text:outline-level="1">${title}</text:h>
<text:section text:style-name="Cols" text:name="Columns">${body}</text:section>
</office:text></office:body></office:document>`;
}

/** A table ruled only by horizontal lines (booktabs: top, under the header, bottom), its last column wrapping. */
const RULED: Record<string, { title: string; before: string; rows: string[][]; after: string }> = {
  'en-rules': {
    title: 'River stations',
    before: 'The survey visited four stations along the river in May.',
    rows: [
      ['Station', 'Depth (m)', 'Flow (m³/s)', 'Observations'],
      ['Upper ford', '1.2', '14', 'Clear water over gravel; trout seen below the old weir'],
      ['Mill bend', '2.8', '19', 'Slow current'],
      ['Lower bridge', '3.5', '23', 'Silt deposits on the east bank after the spring flood, reeds spreading'],
      ['Estuary', '6.1', '31', 'Tidal'],
    ],
    after: 'Flow rose steadily towards the estuary.',
  },
  'zh-rules': {
    title: '河流监测站',
    before: '五月份的调查走访了沿河的四个监测站。',
    rows: [
      ['监测站', '水深（米）', '流量（立方米/秒）', '观察记录'],
      ['上游浅滩', '1.2', '14', '砾石上水质清澈，旧堰下方可见鳟鱼游动'],
      ['磨坊弯', '2.8', '19', '水流缓慢'],
      ['下游桥', '3.5', '23', '春汛过后东岸有淤泥沉积，芦苇正在蔓延生长'],
      ['河口', '6.1', '31', '受潮汐影响'],
    ],
    after: '流量向河口方向稳步增加。',
  },
};

const ruledMarkdown = ({ title, before, rows, after }: (typeof RULED)[string]) =>
  `# ${title}\n\n${before}\n\n${rows.map((r, i) => `| ${r.join(' | ')} |${i === 0 ? `\n|${r.map(() => '---').join('|')}|` : ''}`).join('\n')}\n\n${after}\n`;

/** A flat ODT of a heading, a paragraph, the table with only horizontal rules, and a paragraph. */
function ruledFodt({ title, before, rows, after }: (typeof RULED)[string]): string {
  const cell = (text: string, style: string) =>
    `<table:table-cell table:style-name="${style}" office:value-type="string"><text:p text:style-name="Body">${text}</text:p></table:table-cell>`;
  const styleOf = (r: number) => (r === 0 ? 'Head' : r === rows.length - 1 ? 'Last' : 'Cell');
  const body = rows.map((row, r) => `<table:table-row>${row.map((text) => cell(text, styleOf(r))).join('')}</table:table-row>`).join('');
  const border = (top: string, bottom: string) =>
    `fo:padding="0.1cm" fo:border-left="none" fo:border-right="none" fo:border-top="${top}" fo:border-bottom="${bottom}"`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">
<office:styles>
<style:style style:name="Body" style:family="paragraph"><style:paragraph-properties fo:margin-bottom="0.25cm"/><style:text-properties fo:font-size="11pt" style:font-size-asian="11pt"/></style:style>
<style:style style:name="Heading_20_1" style:display-name="Heading 1" style:family="paragraph" style:default-outline-level="1"><style:text-properties fo:font-size="20pt" fo:font-weight="bold" style:font-size-asian="20pt" style:font-weight-asian="bold"/></style:style>
</office:styles>
<office:automatic-styles>
<style:style style:name="Table" style:family="table"><style:table-properties style:width="16cm" table:align="left"/></style:style>
<style:style style:name="Narrow" style:family="table-column"><style:table-column-properties style:column-width="3cm"/></style:style>
<style:style style:name="Wide" style:family="table-column"><style:table-column-properties style:column-width="7cm"/></style:style>
<style:style style:name="Head" style:family="table-cell"><style:table-cell-properties ${border('1pt solid #000000', '0.5pt solid #000000')}/></style:style>
<style:style style:name="Cell" style:family="table-cell"><style:table-cell-properties ${border('none', 'none')}/></style:style>
<style:style style:name="Last" style:family="table-cell"><style:table-cell-properties ${border('none', '1pt solid #000000')}/></style:style>
</office:automatic-styles>
<office:body><office:text>
<text:h text:style-name="Heading_20_1" text:outline-level="1">${title}</text:h>
<text:p text:style-name="Body">${before}</text:p>
<table:table table:name="Stations" table:style-name="Table"><table:table-column table:style-name="Narrow" table:number-columns-repeated="3"/><table:table-column table:style-name="Wide"/>${body}</table:table>
<text:p text:style-name="Body">${after}</text:p>
</office:text></office:body></office:document>`;
}

const sheetMarkdown = (name: string, rows: string[][]) =>
  `## ${name}\n\n${rows.map((r, i) => `| ${r.join(' | ')} |${i === 0 ? `\n|${r.map(() => '---').join('|')}|` : ''}`).join('\n')}\n`;

/** Whether a ground truth holds Chinese (the corpus reports Chinese and other documents apart). */
export const hasChinese = (text: string) => /[\u4e00-\u9fff]/.test(text);

/** Written right to left: a fifth or more of its letters Hebrew or Arabic (Persian is Arabic's script). */
export function isRightToLeft(text: string): boolean {
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  const rtl = text.match(/[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]/g)?.length ?? 0;
  return letters > 0 && rtl >= letters / 5;
}

function committedDocuments(): CorpusDocument[] {
  const out: CorpusDocument[] = [];
  for (const source of ['docling', 'markitdown']) {
    const dir = path.join(FIXTURES, source);
    for (const name of fs
      .readdirSync(dir)
      .filter((n) => !n.endsWith('.md'))
      .sort()) {
      const groundTruth = fs.readFileSync(path.join(dir, `${name}.md`), 'utf8');
      out.push({ source, file: path.join(dir, name), format: path.extname(name).slice(1), groundTruth, chinese: hasChinese(groundTruth), set: 'tuned' });
    }
  }
  return out;
}

/** Renders the generated half into `dir` (pandoc and LibreOffice must be installed). */
function generatedDocuments(dir: string): CorpusDocument[] {
  fs.mkdirSync(dir, { recursive: true });
  const out: CorpusDocument[] = [];
  const add = (source: string, file: string, groundTruth: string) =>
    out.push({ source, file: path.join(dir, file), format: path.extname(file).slice(1), groundTruth, chinese: hasChinese(groundTruth), set: 'tuned' });
  const forOffice: string[] = [];
  for (const [stem, markdown] of Object.entries(REPORTS)) {
    fs.writeFileSync(path.join(dir, `${stem}.md`), markdown);
    for (const ext of ['docx', 'odt', 'html', 'rtf']) {
      execFileSync(
        'pandoc',
        [`${stem}.md`, '-f', 'gfm', ...(ext === 'html' || ext === 'rtf' ? ['-s', '--metadata', `title=${stem}`] : []), '-o', `${stem}.${ext}`],
        { cwd: dir },
      );
      add('pandoc', `${stem}.${ext}`, markdown);
    }
    fs.copyFileSync(path.join(dir, `${stem}.docx`), path.join(dir, `${stem}-lo.docx`));
    forOffice.push(`${stem}-lo.docx`);
    add('libreoffice', `${stem}-lo.pdf`, markdown);
  }
  for (const [stem, markdown] of Object.entries(SLIDES)) {
    fs.writeFileSync(path.join(dir, `${stem}.md`), markdown);
    execFileSync('pandoc', [`${stem}.md`, '-f', 'gfm', '--slide-level=2', '-o', `${stem}.pptx`], { cwd: dir });
    add('pandoc', `${stem}.pptx`, markdown);
  }
  for (const [stem, rows] of Object.entries(SHEETS)) {
    fs.writeFileSync(path.join(dir, `${stem}.csv`), rows.map((r) => r.join(',')).join('\n') + '\n');
    forOffice.push(`${stem}.csv`);
    add('libreoffice', `${stem}.xlsx`, sheetMarkdown(stem, rows));
    add('libreoffice', `${stem}.ods`, sheetMarkdown(stem, rows));
  }
  const columns: [string, string, readonly string[]][] = [
    ['en-columns', 'The river valley', EN_COLUMN],
    ['zh-columns', '河谷', ZH_COLUMN],
  ];
  for (const [stem, title, paragraphs] of columns) {
    fs.writeFileSync(path.join(dir, `${stem}.fodt`), twoColumnFodt(title, paragraphs));
    forOffice.push(`${stem}.fodt`);
    add('libreoffice', `${stem}.pdf`, `# ${title}\n\n${[...paragraphs, ...paragraphs].join('\n\n')}\n`);
  }
  for (const [stem, doc] of Object.entries(RULED)) {
    fs.writeFileSync(path.join(dir, `${stem}.fodt`), ruledFodt(doc));
    forOffice.push(`${stem}.fodt`);
    add('libreoffice', `${stem}.pdf`, ruledMarkdown(doc));
  }
  // CSV is read as UTF-8 (charset 76), comma-separated, double-quoted.
  const soffice = (convertTo: string, files: string[], infilter: string[] = []) =>
    runSoffice(path.join(dir, 'profile'), [...infilter, '--convert-to', convertTo, ...files], dir);
  const csv = forOffice.filter((f) => f.endsWith('.csv'));
  soffice(
    'pdf',
    forOffice.filter((f) => !f.endsWith('.csv')),
  );
  for (const format of ['xlsx', 'ods']) soffice(format, csv, ['--infilter=CSV:44,34,76']);
  fs.rmSync(path.join(dir, 'profile'), { recursive: true, force: true });
  return out;
}

/** The whole corpus; the generated half is written into `workDir`. */
export function readingCorpus(workDir: string): CorpusDocument[] {
  return [...committedDocuments(), ...generatedDocuments(workDir)];
}
