// Reading PDF tables and headings as Markdown, in process: tables ruled by lines (LibreOffice's
// PDF of a python-docx table with merged cells), headings set apart by colour alone (a Chinese
// document whose font has no bold face) or by another font a little larger than the body
// (docling's normal_4pages.pdf), and pages that draw far too much to be tables finish fast.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import * as mupdf from 'mupdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PATHS, pageDrawing, type DrawingStats } from '../../wasm/pdf/page-drawing.js';
import { runSoffice, SOFFICE } from '../helpers/soffice.js';
import { manyPathsPdf } from '../helpers/pdf-bombs.js';
import { inProcess, type InProcess } from './in-process.js';
import { PYTHON } from '../helpers/tools.js';
import { printHtmlWithChrome } from '../bench/read-corpus-producers.js';

let ops: InProcess;

/** A 'Table Grid' table (every cell bordered) with a merged header cell and a merged first-column pair. */
const MERGED_TABLE_DOCX = `
import docx
d = docx.Document()
d.add_heading('Plant report', 1)
d.add_paragraph('Output of the third quarter by plant.')
t = d.add_table(rows=4, cols=3)
t.style = 'Table Grid'
for r, row in enumerate([['Plant', 'Q3 output', ''], ['North', '120', '135'], ['South 南方', '98', '101'], ['', '77', '80']]):
    for c, text in enumerate(row):
        t.cell(r, c).text = text
t.cell(0, 1).merge(t.cell(0, 2))
t.cell(2, 0).merge(t.cell(3, 0))
d.add_paragraph('After the table.')
d.save('merged.docx')
`;

/**
 * Tables ruled only by horizontal lines, as booktabs draws them: python-docx tables whose only
 * borders are the table's top and bottom and the header row's bottom (set in their XML), with
 * cells that wrap onto several lines; English and Chinese. Also a paragraph framed by a top and
 * a bottom border, which is no table.
 */
const BOOKTABS_DOCX = `
import docx
from docx.oxml import OxmlElement
from docx.oxml.ns import qn

def borders(pr, tag, **edges):
    b = OxmlElement(tag)
    for edge in ['top', 'left', 'bottom', 'right', 'insideH', 'insideV']:
        e = OxmlElement('w:' + edge)
        e.set(qn('w:val'), 'single' if edge in edges else 'nil')
        if edge in edges:
            e.set(qn('w:sz'), str(edges[edge]))
            e.set(qn('w:color'), '000000')
        b.append(e)
    pr.append(b)

def document(name, title, before, rows, after, note):
    d = docx.Document()
    d.add_heading(title, 1)
    d.add_paragraph(before)
    t = d.add_table(rows=len(rows), cols=len(rows[0]))
    borders(t._tbl.tblPr, 'w:tblBorders', top=12, bottom=12)
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            t.cell(r, c).text = text
            if r == 0:
                borders(t.cell(r, c)._tc.get_or_add_tcPr(), 'w:tcBorders', top=12, bottom=6)
    d.add_paragraph(after)
    p = d.add_paragraph(note)
    borders(p._p.get_or_add_pPr(), 'w:pBdr', top=12, bottom=12)
    d.save(name)

document('booktabs-en.docx', 'Field trial results', 'Table 2 lists the yield of each variety in the three trial plots.', [
    ['Variety', 'Plot', 'Yield (t/ha)', 'Remarks'],
    ['Alpha', 'North', '7.2', 'Early sowing, irrigated twice during the dry spell in July'],
    ['Beta', 'South', '6.8', 'Late sowing'],
    ['Gamma hybrid line', 'East', '8.1', 'Best result of the season; lodging after the August storm'],
    ['Delta', 'West', '5.9', 'Poor germination'],
], 'The hybrid line gave the highest yield in every plot.', 'Note: the plots were sown in the same week and harvested in the same week, so the yields can be compared directly.')
document('booktabs-zh.docx', '田间试验结果', '表2列出了三个试验田中各品种的产量。', [
    ['品种', '地块', '产量（吨/公顷）', '备注'],
    ['甲', '北区', '7.2', '早播，七月干旱期间灌溉两次，长势良好，无病虫害发生'],
    ['乙', '南区', '6.8', '晚播'],
    ['丙杂交系', '东区', '8.1', '本季最佳结果；八月风暴后出现倒伏'],
    ['丁', '西区', '5.9', '出苗率低'],
], '杂交系在每个地块的产量都最高。', '注：各地块在同一周播种、同一周收获，因此产量可以直接比较。')
`;

const REPORT_MD = `# 第三季度运营报告

本报告总结了第三季度的运营情况。产量稳步增长，成本保持在春季商定的预算之内。

## 生产情况

各工厂的产量均有增长。北方工厂于八月完成了新生产线，并从九月起实行两班制。

### 各工厂产量

北方工厂的产量最高，南方工厂与上季度持平。

## 展望

预计第四季度将取得类似的结果。
`;

/** Sub-headings that end in a colon, as Chinese manuals write them, and a bold label on its own line that is no heading. */
const COLON_HEADINGS_MD = `# 线程诊断

## 工作原理

### 采样过程说明：

先采样一次所有线程的时间，再等待一个间隔，然后再次采样并计算两次之间的增量。

**Note:**

这个统计本身也会产生一定的开销，因此可以把采样间隔拉长一些。

### 使用参考

显示最忙的三个线程。
`;

/** Headings that open with code, each after a code block, as command manuals write their options. */
const CODE_HEADINGS_MD = `# backup

## Schedule

Run the backup every night and keep the last seven archives.

\`\`\`bash
backup start --loop 1d -f /var/backups/archive-%t.tar
\`\`\`

## \`--timeout\` option

\`\`\`bash
backup start --timeout 300s
\`\`\`

The run stops by itself after this time.

## \`--quiet\` option

Print nothing but errors.
`;

/**
 * A configuration table as Chinese manuals write it: cells in every column wrap, the long names
 * of the first column broken inside the word. pandoc (gfm → docx) and LibreOffice set it
 * borderless; mupdf gives each wrapped cell a block of its own, so a row's cells come one
 * after another, not on one line.
 */
const WRAPPED_CELLS_MD = `# 副本部署

每个副本组至少准备三台机器。编写三个配置文件，关键配置如下：

| name                      | 含义                                                    | 举例                                                     |
|---------------------------|---------------------------------------------------------|----------------------------------------------------------|
| enableReplicaCommitLog    | 是否启用副本提交日志                                    | true                                                     |
| replicaGroup              | 副本组的名字，建议和 brokerName 保持一致                | GroupNode00                                              |
| replicaPeers              | 副本组内各节点的地址，同一个组内的各个节点配置必须保持一致 | n0-127.0.0.1:40911;n1-127.0.0.1:40912;n2-127.0.0.1:40913 |
| sendMessageThreadPoolNums | 发送线程个数，建议配置成 CPU 核数                       | 16                                                       |

配置完成后依次启动三个节点。
`;

/**
 * A command's parameter table as technical manuals write it: the names right-aligned, some in
 * code, the descriptions Chinese with Latin words, two of them wrapped. pandoc (gfm → odt) and
 * LibreOffice set it borderless, at one line pitch for rows and wrapped lines alike; the lines
 * that mix CJK, Latin and monospace fonts stand a little taller than the others.
 */
const PARAMETERS_MD = `# 命令参数

|             参数名称 | 参数说明                                                                 |
| -------------------: | :----------------------------------------------------------------------- |
|       _file-pattern_ | 文件名表达式匹配                                                         |
|         _line-range_ | 行号范围                                                                 |
|        _filter-expr_ | 过滤表达式                                                               |
|                  [R] | 开启递归匹配，默认只匹配当前目录                                         |
|               \`[n:]\` | 输出行数限制                                                             |
|               \`[e:]\` | 指定 encoding 名称，只读取该 encoding 编码的文件并跳过其余所有的文件内容 |
|          \`[s <arg>]\` | 指定 Block 最大读取数量，默认值为 64。长格式为\`[maxBlocks <arg>]\`。      |
`;

/**
 * A settings table of three columns whose description cells wrap onto many lines, the first
 * after its first line: the rows in columns stop there for the cell-gap reading, not for the
 * borderless one. pandoc (gfm → docx) and LibreOffice set it borderless.
 */
const SETTINGS_MD = `# Settings

| Name | Default Value | Description |
| ---------------------- | ------------- | -------------------------------------------------------------------------------------------------------------------------- |
| strict-mode | false | whether to reject requests whose headers are not valid. Use it with care since older clients may fail |
| cache-dir | none | where to keep converted files between runs. If it is set, every result will be written to the cache and read back from there |
| retry-count | 3 | how many times a failed job is started again |
| log-format | text | whether to write the log as text or as JSON |
`;

/**
 * Two parameter tables of one width with a heading between them, names right-aligned, some
 * cells wrapped. pandoc (gfm → docx) and LibreOffice rule only the line under each header, so
 * the page has two rules of one extent, the first table's body, the heading and the second
 * table's header between them.
 */
const TWO_TABLES_MD = `# archive

## Options

|              Name | Specification                                                                 |
| ----------------: | :---------------------------------------------------------------------------- |
|               [l] | list every archive the service keeps                                          |
|               [a] | list the files of all archives (use it with care, since the list can be long) |
|              [c:] | print the checksum of an archive                                              |
| \`[storageClass:]\` | The class of storage that holds the archive while it is written.              |
|        \`[d: r:]\` | restore one archive into a directory                                          |

### \`--prune\` options

|             Name | Specification                                                     |
| ---------------: | :---------------------------------------------------------------- |
|        \`--prune\` | Remove archives older than the retention period set for the store |
| \`-k, --keep <N>\` | Keep at least N archives whatever their age (3 by default)        |
|      \`--dry-run\` | List what would be removed and remove nothing                     |
|    \`-q, --quiet\` | Print nothing but errors                                          |
`;

/**
 * A settings table whose description cells wrap onto lines that start with code, then a
 * paragraph. pandoc (gfm → odt) and LibreOffice set the code smaller, in a monospaced font, and
 * the table borderless; the paragraph stands a paragraph's spacing below the last row.
 */
const CODE_CELLS_MD = `# Storage settings

| Name | Default | Description |
| ------------ | ------- | ------------------------------------------------------------------------------------------------ |
| cache-dir | none | where converted files are kept between runs; the default is \`/var/lib/archive-service/cache-directory/result-files\` under the home |
| retry-count | 3 | how many times a failed job is started again |
| log-limit | 1048576 | the largest log file in bytes before it is rotated, by default \`1024 * 1024\` bytes |
| strict-mode | false | whether to reject requests whose headers are not valid |

Changes to these settings take effect at the next start of the service.
`;

/** A parts list of 70 rows: LibreOffice prints it over four pages, repeating its header row (pandoc marks it so) on each. */
const LONG_TABLE_MD = [
  '# Parts list',
  '',
  'Every part the plant keeps, by code.',
  '',
  '| Code | Part | Note |',
  '| --- | --- | --- |',
  ...Array.from(
    { length: 70 },
    (_, k) => `| P-${String(k + 1).padStart(3, '0')} | Part number ${k + 1} | ${(k + 1) % 3 ? 'spare held in the north store' : 'ordered on demand'} |`,
  ),
  '',
  'The list is checked every quarter.',
  '',
].join('\n');

/**
 * arthas's `jad` options as its manual has them: option names set flush right, descriptions
 * that groff's tbl wraps onto the lines below at the same pitch as the rows, one name longer than
 * the column's other names (it starts at the margin).
 */
const WRAPPED_OPTIONS_MD = `# jad

Decompile the specified classes.

## Options

|                  Name | Specification                                                   |
|----------------------:|:----------------------------------------------------------------|
|         class-pattern | pattern for the class name                                      |
|                \`[c:]\` | hashcode of the class loader that loads the class               |
| \`[classLoaderClass:]\` | The class name of the class loader that executes the expression. |
|                 \`[E]\` | turn on regex match while the default is wildcard match         |

## Usage

Decompile a class by its name.
`;

/**
 * Two option tables as pandoc's HTML sets them and Chrome prints them: each cell's text centred
 * vertically, so a name stands between its description's two lines or on the middle one of three;
 * a heading between the two tables.
 */
const CENTRED_MD = `## Recording options

| Name | Description |
|---:|:---|
| \`classname\` | Pattern for the class name |
| \`[s:]\` | Server-side template; the default is default.jfc in the JDK's lib/jfr folder, read when the recording starts |
| \`[d:]\` | Duration of the recording |
| \`[maxage:]\` | Maximum age of the buffer's data, after which the oldest chunks of the recording are dropped from the disk repository to keep it small; give it with a unit |
| \`[f:]\` | Resulting recording file |

### Dump options

| Name | Description |
|---:|:---|
| \`[r:]\` | Recording id |
| \`[n:]\` | Name of the recording, as given when it was started, or the number the agent gave it when no name was given |
| \`[e:]\` | Whether to dump at exit |

Both tables end here.
`;

/** Java highlighted by pandoc (each token styled apart in ms), under an options table: Ghostscript sets the code's words as pieces of their own. */
const HIGHLIGHTED_CODE_MD = `## Options

| Name | Specification |
|---:|:---|
| \`class-pattern\` | pattern for the class name |
| \`[c:]\` | hashcode of the class loader that loads the class |
| \`[E]\` | turn on regex match while the default is wildcard match |

## Usage

\`\`\`java
package java.lang;

import java.io.ObjectStreamField;
import java.io.Serializable;
import java.util.Comparator;
public final class String
implements Serializable, CharSequence {
    private final char[] value;
    private int hash;
}
\`\`\`

The class is printed as its source.
`;

/**
 * LaTeX tables (floats, as papers set them) ruled by \hline only, whose headers name groups of columns: one group over a
 * \cline, two groups wider than their columns with no rule under them (pdfTeX sets each word
 * apart), and a header cell wrapped onto two lines, which names one column.
 */
const SPANNED_HEADERS_TEX = String.raw`\documentclass{article}
\begin{document}
Accuracy by model and language.

\begin{table}[h]
\centering
\begin{tabular}{llccc}
\hline
 & & \multicolumn{3}{c}{Accuracy} \\
\cline{3-5}
Model & Language & simple & complex & all \\
\hline
Large & OTSL & 0.965 & 0.934 & 0.955 \\
Large & HTML & 0.969 & 0.927 & 0.955 \\
Small & OTSL & 0.938 & 0.904 & 0.927 \\
\hline
\end{tabular}
\caption{Accuracy.}
\end{table}

Each model was timed on two machines.

\begin{table}[h]
\centering
\begin{tabular}{lrrrr}
\hline
 & \multicolumn{2}{c}{Seconds on the laptop} & \multicolumn{2}{c}{Seconds on the server} \\
Model & cold & warm & cold & warm \\
\hline
Large & 2.73 & 1.91 & 0.88 & 0.61 \\
Small & 1.97 & 1.22 & 0.63 & 0.40 \\
Tiny & 0.95 & 0.51 & 0.31 & 0.22 \\
\hline
\end{tabular}
\caption{Seconds a page.}
\end{table}

The yield of each variety.

\begin{table}[h]
\centering
\begin{tabular}{lll}
\hline
Variety & Yield & Remarks \\
 & (t/ha) & \\
\hline
Alpha & 7.2 & Early sowing \\
Beta & 6.8 & Late sowing \\
Gamma & 8.1 & Best result \\
\hline
\end{tabular}
\caption{Yield.}
\end{table}
\end{document}
`;

/**
 * LaTeX tables whose third column's numbers, set flush right, end 2 × \tabcolsep (12 pt, the
 * cell gap) before the fourth column's text: one ruled only under its header, one with no rule.
 */
const CLOSE_COLUMNS_TEX = String.raw`\documentclass{article}
\begin{document}
The plots and their yields are listed below.

\begin{table}[h]
\centering
\begin{tabular}{llrl}
Variety & Plot & Yield & Remarks \\
\hline
Alpha & North & 7.2 & Early sowing \\
Beta & South & 6.8 & Late sowing \\
Gamma & East & 8.1 & Best result \\
\end{tabular}
\caption{Yield by plot.}
\end{table}

The same plots a year later.

\begin{table}[h]
\centering
\begin{tabular}{llrl}
Variety & Plot & Yield & Remarks \\
Alpha & North & 6.9 & Dry spring \\
Beta & South & 7.1 & Irrigated \\
Gamma & East & 8.4 & Best again \\
\end{tabular}
\caption{Yield a year later.}
\end{table}
\end{document}
`;

/**
 * HTML tables whose cells are outlined one by one (`border-collapse: separate`), 4 px and 5 px
 * apart, for Chrome's print: each cell a box of its own, touching none of its neighbours.
 */
const OUTLINED_CELLS_HTML = `<html><head><style>td, th { border: 1px solid #000; } .a { border-collapse: separate; border-spacing: 4px; } .b { border-collapse: separate; border-spacing: 5px; }</style></head><body>
<p>The plots and their yields are listed below.</p>
<table class="a">
<tr><th>Variety</th><th>Plot</th><th>Yield</th><th>Remarks</th></tr>
<tr><td>Alpha</td><td>North</td><td>7.2</td><td>Early sowing</td></tr>
<tr><td>Beta</td><td>South</td><td>6.8</td><td>Late sowing</td></tr>
<tr><td>Gamma</td><td>East</td><td>8.1</td><td>Best result</td></tr>
</table>
<p>The same plots a year later.</p>
<table class="b">
<tr><th>Variety</th><th>Plot</th><th>Yield</th><th>Remarks</th></tr>
<tr><td>Alpha</td><td>North</td><td>6.9</td><td>Dry spring</td></tr>
<tr><td>Beta</td><td>South</td><td>7.1</td><td>Irrigated</td></tr>
<tr><td>Gamma</td><td>East</td><td>8.4</td><td>Best again</td></tr>
</table>
<p>The hybrid line gave the highest yield.</p>
</body></html>
`;

/**
 * The source's table rows as the reader writes its cells: emphasis and code marks gone, brackets
 * escaped — but with `codeCells`, a cell that is one code span keeps it (its producer set it in a
 * monospaced font, a piece of its own; code inside a sentence shares the sentence's piece), and a
 * cell wholly in italic (`_file-pattern_`) is `*file-pattern*`, as the reader writes italic.
 */
const sourceTableRows = (markdown: string, codeCells = false) =>
  markdown
    .split('\n')
    .filter((line) => line.startsWith('|') && !line.includes('---'))
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim())
        .map((cell) =>
          codeCells && /^`[^`]+`$/.test(cell)
            ? cell
            : codeCells && /^_[^_]+_$/.test(cell)
              ? `*${cell.slice(1, -1)}*`
              : cell.replace(/[_`]/g, '').replace(/([[<])/g, '\\$1'),
        ),
    )
    .map((cells) => `| ${cells.join(' | ')} |`);

const markdownOf = async (input: string, extra: Record<string, unknown> = {}) => (await ops.ok('read', { input, ...extra })).text ?? '';

const libreOfficePdf = (docx: string) => {
  runSoffice(ops.at('profile'), ['--convert-to', 'pdf', docx], ops.dir);
  fs.rmSync(ops.at('profile'), { recursive: true, force: true });
};

beforeAll(async () => {
  ops = await inProcess({ soffice: SOFFICE, workers: '1' });
  execFileSync(PYTHON, ['-c', MERGED_TABLE_DOCX], { cwd: ops.dir });
  libreOfficePdf('merged.docx');
  execFileSync(PYTHON, ['-c', BOOKTABS_DOCX], { cwd: ops.dir });
  libreOfficePdf('booktabs-en.docx');
  libreOfficePdf('booktabs-zh.docx');
  // Markdown through pandoc (GitHub's dialect, or pandoc's own where [] says so) to a word-processor file, then LibreOffice to PDF.
  const pandocPdf: [string, string, 'docx' | 'odt', string[]][] = [
    ['zh-report', REPORT_MD, 'docx', []],
    ['zh-colon', COLON_HEADINGS_MD, 'docx', []],
    ['code-headings', CODE_HEADINGS_MD, 'docx', ['-f', 'gfm']],
    ['wrapped-cells', WRAPPED_CELLS_MD, 'docx', ['-f', 'gfm']],
    ['parameters', PARAMETERS_MD, 'odt', ['-f', 'gfm']],
    ['settings', SETTINGS_MD, 'docx', ['-f', 'gfm']],
    ['two-tables', TWO_TABLES_MD, 'docx', ['-f', 'gfm']],
    ['code-cells', CODE_CELLS_MD, 'odt', ['-f', 'gfm']],
  ];
  // groff's tbl (pandoc's ms through groff -ms -t), whose tables have no padding between rows.
  ops.put('wrapped-options.md', WRAPPED_OPTIONS_MD);
  const ms = execFileSync('pandoc', ['-f', 'gfm', '-t', 'ms', 'wrapped-options.md'], { cwd: ops.dir });
  fs.writeFileSync(ops.at('wrapped-options.pdf'), execFileSync('groff', ['-ms', '-t', '-k', '-Tpdf'], { input: ms }));
  pandocPdf.push(['long-table', LONG_TABLE_MD, 'docx', ['-f', 'gfm']]);
  ops.put('spanned-headers.tex', SPANNED_HEADERS_TEX);
  execFileSync('pdflatex', ['-interaction=batchmode', 'spanned-headers.tex'], { cwd: ops.dir, stdio: 'ignore' });
  ops.put('close-columns.tex', CLOSE_COLUMNS_TEX);
  execFileSync('pdflatex', ['-interaction=batchmode', 'close-columns.tex'], { cwd: ops.dir, stdio: 'ignore' });
  // The same through PostScript and Ghostscript (ps2pdf), highlighted code after a table.
  ops.put('highlighted-code.md', HIGHLIGHTED_CODE_MD);
  const codeMs = execFileSync('pandoc', ['-f', 'gfm', '-t', 'ms', '-s', 'highlighted-code.md'], { cwd: ops.dir });
  const codePs = execFileSync('groff', ['-ms', '-t', '-k', '-Tps'], { input: codeMs });
  execFileSync('ps2pdf', ['-', 'highlighted-code.pdf'], { cwd: ops.dir, input: codePs });
  // Chrome's print of pandoc's HTML: its tables ruled at the top, under the header and at the
  // bottom, and the same without rules (a style sheet takes the borders off).
  ops.put('centred.md', CENTRED_MD);
  ops.put('plain.css.html', '<style>tbody, th { border: none !important; }</style>');
  // Chrome's socket goes in TMPDIR, whose path this file's own temp dir makes too long for one (108 bytes): the run's root is short.
  const tmp = process.env.TMPDIR;
  process.env.TMPDIR = process.env.DOCWASM_TEST_RUN_ROOT ?? tmp;
  try {
    for (const [name, style] of [
      ['centred-ruled', []],
      ['centred-plain', ['-H', 'plain.css.html']],
    ] as const) {
      execFileSync('pandoc', ['-f', 'gfm', '-s', '--metadata', 'title=Options', ...style, 'centred.md', '-o', `${name}.html`], { cwd: ops.dir });
      printHtmlWithChrome(ops.dir, `${name}.html`, `${name}.pdf`);
    }
    ops.put('outlined-cells.html', OUTLINED_CELLS_HTML);
    printHtmlWithChrome(ops.dir, 'outlined-cells.html', 'outlined-cells.pdf');
  } finally {
    process.env.TMPDIR = tmp;
  }
  for (const [name, markdown, office, from] of pandocPdf) {
    ops.put(`${name}.md`, markdown);
    execFileSync('pandoc', [...from, `${name}.md`, '-o', `${name}.${office}`], { cwd: ops.dir });
    libreOfficePdf(`${name}.${office}`);
  }
}, 180_000);
afterAll(() => ops.close());

describe('read: PDF tables ruled by lines', () => {
  it('reads a bordered table with merged cells as an HTML table with colspan and rowspan, between its paragraphs (python-docx → LibreOffice)', async () => {
    const text = await markdownOf('merged.pdf');
    const table = [
      '<table>',
      '<tr><th>Plant</th><th colspan="2">Q3 output</th></tr>',
      '<tr><td>North</td><td>120</td><td>135</td></tr>',
      '<tr><td rowspan="2">South 南方</td><td>98</td><td>101</td></tr>',
      '<tr><td>77</td><td>80</td></tr>',
      '</table>',
    ].join('\n');
    expect(text).toContain(`Output of the third quarter by plant.\n\n${table}\n\nAfter the table.`);
  });

  it('reads the ruled table of a two-column Korean report cell by cell, bullets and wrapped lines inside their cells (docling normal_4pages.pdf)', async () => {
    ops.put('korean.pdf', fs.readFileSync('fixtures/reading/docling/normal_4pages.pdf'));
    const text = await markdownOf('korean.pdf', { pages: '2' });
    expect(text).toContain('| 구분 | 개정전 | 개정후 |');
    expect(text).toContain('| 분류 기준 | ◦ 마시는 물 또는 식품을 매개로 발생하고 집단 발생의 우려가 큰 감염병 |');
  });
});

describe('read: PDF tables ruled only by horizontal lines', () => {
  it('reads a table with only top, header and bottom rules cell by cell, wrapped cells joined (python-docx → LibreOffice)', async () => {
    const text = await markdownOf('booktabs-en.pdf');
    const table = [
      '| Variety | Plot | Yield (t/ha) | Remarks |',
      '| - | - | - | - |',
      '| Alpha | North | 7.2 | Early sowing, irrigated twice during the dry spell in July |',
      '| Beta | South | 6.8 | Late sowing |',
      '| Gamma hybrid line | East | 8.1 | Best result of the season; lodging after the August storm |',
      '| Delta | West | 5.9 | Poor germination |',
    ].join('\n');
    expect(text).toContain(
      `Table 2 lists the yield of each variety in the three trial plots.\n\n${table}\n\nThe hybrid line gave the highest yield in every plot.`,
    );
    // A paragraph between a top and a bottom border is no table.
    expect(text).toContain('\n\nNote: the plots were sown in the same week and harvested in the same week, so the yields can be compared directly.\n');
  });

  it('reads the same table in Chinese, wrapped cells joined without spaces (python-docx → LibreOffice)', async () => {
    const text = await markdownOf('booktabs-zh.pdf');
    const table = [
      '| 品种 | 地块 | 产量（吨/公顷） | 备注 |',
      '| - | - | - | - |',
      '| 甲 | 北区 | 7.2 | 早播，七月干旱期间灌溉两次，长势良好，无病虫害发生 |',
      '| 乙 | 南区 | 6.8 | 晚播 |',
      '| 丙杂交系 | 东区 | 8.1 | 本季最佳结果；八月风暴后出现倒伏 |',
      '| 丁 | 西区 | 5.9 | 出苗率低 |',
    ].join('\n');
    expect(text).toContain(`${table}\n\n杂交系在每个地块的产量都最高。`);
    expect(text).toContain('\n\n注：各地块在同一周播种、同一周收获，因此产量可以直接比较。\n');
  });
});

describe('read: PDF tables ruled only by horizontal lines, header cells over groups of columns', () => {
  it('reads a group name over a \\cline, and group names wider than their columns, as header cells spanning those columns, a wrapped header cell as one (pdflatex)', async () => {
    const text = await markdownOf('spanned-headers.pdf');
    const accuracy = [
      '<table>',
      '<tr><th rowspan="2">Model</th><th rowspan="2">Language</th><th colspan="3">Accuracy</th></tr>',
      '<tr><td>simple</td><td>complex</td><td>all</td></tr>',
      '<tr><td>Large</td><td>OTSL</td><td>0.965</td><td>0.934</td><td>0.955</td></tr>',
      '<tr><td>Large</td><td>HTML</td><td>0.969</td><td>0.927</td><td>0.955</td></tr>',
      '<tr><td>Small</td><td>OTSL</td><td>0.938</td><td>0.904</td><td>0.927</td></tr>',
      '</table>',
    ].join('\n');
    const seconds = [
      '<table>',
      '<tr><th rowspan="2">Model</th><th colspan="2">Seconds on the laptop</th><th colspan="2">Seconds on the server</th></tr>',
      '<tr><td>cold</td><td>warm</td><td>cold</td><td>warm</td></tr>',
      '<tr><td>Large</td><td>2.73</td><td>1.91</td><td>0.88</td><td>0.61</td></tr>',
      '<tr><td>Small</td><td>1.97</td><td>1.22</td><td>0.63</td><td>0.40</td></tr>',
      '<tr><td>Tiny</td><td>0.95</td><td>0.51</td><td>0.31</td><td>0.22</td></tr>',
      '</table>',
    ].join('\n');
    const yieldTable =
      '| Variety | Yield (t/ha) | Remarks |\n| - | - | - |\n| Alpha | 7.2 | Early sowing |\n| Beta | 6.8 | Late sowing |\n| Gamma | 8.1 | Best result |';
    expect(text).toContain(
      `Accuracy by model and language.\n\n${accuracy}\n\nTable 1: Accuracy.\n\nEach model was timed on two machines.\n\n${seconds}\n\nTable 2: Seconds a page.\n\nThe yield of each variety.\n\n${yieldTable}\n\nTable 3: Yield.`,
    );
  });
});

describe('read: PDF tables from aligned columns a cell gap apart', () => {
  it('keeps a column that stands 12 pt right of numbers set flush right apart, ruled only under its header or not at all (pdflatex)', async () => {
    const text = await markdownOf('close-columns.pdf');
    const first = ['| Alpha | North | 7.2 | Early sowing |', '| Beta | South | 6.8 | Late sowing |', '| Gamma | East | 8.1 | Best result |'];
    const second = ['| Alpha | North | 6.9 | Dry spring |', '| Beta | South | 7.1 | Irrigated |', '| Gamma | East | 8.4 | Best again |'];
    const header = '| Variety | Plot | Yield | Remarks |\n| - | - | - | - |';
    expect(text).toContain(
      `The plots and their yields are listed below.\n\n${header}\n${first.join('\n')}\n\nTable 1: Yield by plot.\n\nThe same plots a year later.\n\n${header}\n${second.join('\n')}\n\nTable 2: Yield a year later.`,
    );
  });
});

describe('read: PDF tables whose cells are outlined one by one (Chrome)', () => {
  it('reads cells drawn as boxes of their own, 4 px and 5 px apart, as one ruled table each, cell by cell (HTML → Chrome)', async () => {
    const text = await markdownOf('outlined-cells.pdf');
    const header = '| Variety | Plot | Yield | Remarks |\n| - | - | - | - |';
    const first = ['| Alpha | North | 7.2 | Early sowing |', '| Beta | South | 6.8 | Late sowing |', '| Gamma | East | 8.1 | Best result |'];
    const second = ['| Alpha | North | 6.9 | Dry spring |', '| Beta | South | 7.1 | Irrigated |', '| Gamma | East | 8.4 | Best again |'];
    expect(text).toContain(
      `The plots and their yields are listed below.\n\n${header}\n${first.join('\n')}\n\nThe same plots a year later.\n\n${header}\n${second.join('\n')}\n\nThe hybrid line gave the highest yield.`,
    );
  });
});

describe('read: PDF tables from aligned columns', () => {
  it('splits a tight header row into its columns and keeps a sparse table whole (MarkItDown SPARSE-2024-INV-1234_borderless_table.pdf)', async () => {
    ops.put('sparse.pdf', fs.readFileSync('fixtures/reading/markitdown/SPARSE-2024-INV-1234_borderless_table.pdf'));
    const text = await markdownOf('sparse.pdf', { pages: '1' });
    expect(text).toContain(
      '| Product Code | Location | Expected | Actual | Variance | Status |\n| - | - | - | - | - | - |\n| SKU-8847 | A-12 | 450 | | | |\n| | B-07 | | 289 | -23 | |',
    );
  });
});

describe('read: PDF tables from aligned columns, one line pitch', () => {
  it('reads a borderless parameter table row by row when its rows and wrapped lines share one pitch and mixed fonts make the baselines uneven, names set in code as code spans (pandoc → odt → LibreOffice)', async () => {
    const text = await markdownOf('parameters.pdf');
    const [header, ...body] = sourceTableRows(PARAMETERS_MD, true);
    expect(body).toHaveLength(7);
    expect(text).toContain([header, '| - | - |', ...body].join('\n'));
  });

  it('reads a borderless table on past a first row whose last cell wraps, rather than two rows of it and the rest as prose (pandoc → docx → LibreOffice)', async () => {
    const text = await markdownOf('settings.pdf');
    const [header, ...body] = sourceTableRows(SETTINGS_MD);
    expect(body).toHaveLength(4);
    expect(text).toContain(`# Settings\n\n${[header, '| - | - | - |', ...body].join('\n')}\n`);
  });
});

describe('read: PDF tables under a header rule, two on a page', () => {
  it('reads two tables whose only rules are under their headers as two tables, the heading between them outside both (pandoc → docx → LibreOffice)', async () => {
    const text = await markdownOf('two-tables.pdf');
    const [first, second] = TWO_TABLES_MD.split('### ').map((part) => sourceTableRows(part));
    const table = (rows: string[]) => [rows[0], '| - | - |', ...rows.slice(1)].join('\n');
    expect(first).toHaveLength(6);
    expect(second).toHaveLength(5);
    expect(text).toContain(`## Options\n\n${table(first as string[])}\n\n`);
    expect(text).toMatch(/\n\n\W*--prune\W* options\W*\n\n/);
    expect(text).toContain(`\n\n${table(second as string[])}`);
  });
});

describe('read: PDF tables from aligned columns, code in cells', () => {
  it('keeps a cell line that starts with smaller code in its row, and the paragraph after the table out of it (pandoc → odt → LibreOffice)', async () => {
    const text = await markdownOf('code-cells.pdf');
    const [header, ...body] = sourceTableRows(CODE_CELLS_MD).map((row) => row.replace(/\*/g, '\\*'));
    expect(body).toHaveLength(4);
    // The first row's path wraps at its hyphens (kept: they are the path's own) and once inside a word (not checked).
    expect(text).toContain(
      `# Storage settings\n\n${header}\n| - | - | - |\n| cache-dir | none | where converted files are kept between runs; the default is /var/lib/archive-service/cache-directory/`,
    );
    expect(text).toContain(`under the home |\n${body.slice(1).join('\n')}\n\n`);
    expect(text).toContain('\n\nChanges to these settings take effect at the next start of the service.');
  });
});

describe('read: PDF tables from aligned columns, cells wrapped in every column', () => {
  it('reads a table whose wrapped cells come block after block as one table row each, not paragraphs (pandoc → docx → LibreOffice, Chinese)', async () => {
    const text = await markdownOf('wrapped-cells.pdf');
    const rows = sourceTableRows(WRAPPED_CELLS_MD).map((row) => row.split(' | '));
    expect(rows).toHaveLength(5);
    const table = /\| name \| 含义 \| 举例 \|\n\| - \| - \| - \|\n((?:\|.*\|\n)+)\n配置完成后依次启动三个节点。/.exec(text);
    const body = (table?.[1] ?? '').trim().split('\n');
    expect(body).toHaveLength(4);
    // The cells as the source has them; a name LibreOffice broke inside the word is not checked.
    body.forEach((line, k) => {
      const [, meaning, example] = rows[k + 1] as string[];
      expect(line).toContain(` | ${meaning as string} | `);
      if (k !== 2) expect(line.endsWith(` | ${example as string}`)).toBe(true);
    });
    expect(body[1]).toMatch(/^\| replicaGroup \| /);
  });
});

describe('read: PDF tables over page breaks and wrapped cells', () => {
  it('reads a table LibreOffice prints over four pages under its repeated header as one table, the header once (pandoc → docx → LibreOffice)', async () => {
    const text = await markdownOf('long-table.pdf');
    const [header, ...body] = sourceTableRows(LONG_TABLE_MD);
    expect(body).toHaveLength(70);
    const pages = execFileSync('pdfinfo', [ops.at('long-table.pdf')], { encoding: 'utf8' });
    expect(pages).toMatch(/Pages:\s+[3-9]\n/);
    expect(text).toContain(['Every part the plant keeps, by code.', '', header, '| - | - | - |', ...body, ''].join('\n'));
    expect(text.split(header as string)).toHaveLength(2);
  });

  it("reads groff's table of options as one row an option, the names flush right and each description's wrapped lines in its cell (pandoc → ms → groff)", async () => {
    const text = await markdownOf('wrapped-options.pdf');
    const [header, ...body] = sourceTableRows(WRAPPED_OPTIONS_MD, true);
    expect(body).toHaveLength(4);
    expect(text).toContain(['## Options', '', header, '| - | - |', ...body, '', '## Usage'].join('\n'));
  });
});

describe('read: PDF code beside tables (groff → Ghostscript)', () => {
  it('reads highlighted code whose words Ghostscript sets apart as one code block, not as a table of its first words, the options table above it kept (pandoc → ms → groff → ps2pdf)', async () => {
    const text = await markdownOf('highlighted-code.pdf');
    const [header, ...body] = sourceTableRows(HIGHLIGHTED_CODE_MD, true);
    expect(text).toContain(
      ['# Options', '', header, '| - | - |', ...body, '', '# Usage', '', '```', 'package java.lang;', 'import java.io.ObjectStreamField;'].join('\n'),
    );
    expect(text).toContain('import java.util.Comparator;\npublic final class String\n');
    expect(text).not.toMatch(/^\| (import|public) \|/m);
  });
});

describe('read: PDF tables whose cells are centred vertically (Chrome)', () => {
  const [header, ...rows] = sourceTableRows(CENTRED_MD, true);
  const expected = [
    '## Recording options',
    '',
    header,
    '| - | - |',
    ...rows.slice(0, 5),
    '',
    '### Dump options',
    '',
    header,
    '| - | - |',
    ...rows.slice(6),
    '',
    'Both tables end here.',
  ].join('\n');

  it('reads a name centred between or beside its description’s lines as one row, the name in code a code span, and the heading between two ruled tables as a heading (pandoc → Chrome)', async () => {
    expect(rows).toHaveLength(9);
    expect(await markdownOf('centred-ruled.pdf')).toContain(expected);
  });

  it('reads the same tables printed without rules (pandoc → Chrome, borders taken off)', async () => {
    expect(await markdownOf('centred-plain.pdf')).toContain(expected);
  });
});

describe('read: PDF tables from aligned columns, sparse rows', () => {
  it('reads a table whose header leaves the label column empty and whose group labels stand alone as one table (MarkItDown REPAIR-2022-INV-001_multipage.pdf)', async () => {
    ops.put('repair-totals.pdf', fs.readFileSync('fixtures/reading/markitdown/REPAIR-2022-INV-001_multipage.pdf'));
    const text = await markdownOf('repair-totals.pdf', { pages: '1' });
    const table = [
      '| | | Hours | Rate | Cost |',
      '| - | - | - | - | - |',
      '| Parts | | | | 2,100 |',
      '| Body Labor | | 2 | 150 | 300 |',
      '| Paint Labor | | 1.5 | 150 | 225 |',
      '| Mechanical Labor | | - | - | - |',
      '| Supplies | | | | |',
      '| | Paint Supplies | | | 60 |',
      '| | Body Supplies | | | 30 |',
      '| Other Charges | | | | 15 |',
      '| Subtotal | | | | 2,730 |',
      '| Sales Tax | | | 10.20% | 278.46 |',
      '| GRAND TOTAL | | | | 5,738 |',
      // The note's label and text are two blocks on one baseline: its last row, as MarkItDown's ground truth has it.
      '| Note | Minor rear bumper repair | | | |',
    ].join('\n');
    expect(text).toContain(`Estimate Totals\n\n${table}\n\n`);
  });

  it('takes a header centred over its columns, one cell wrapped onto two lines, for the table’s header row, not for the paragraph above (docling table_mislabeled_as_picture.pdf)', async () => {
    ops.put('mislabeled.pdf', fs.readFileSync('fixtures/reading/docling/table_mislabeled_as_picture.pdf'));
    const text = await markdownOf('mislabeled.pdf');
    expect(text).toContain(
      'civil society organizations, or both. (Please select all that apply)\n\n| | | State funded legal aid | CSOs |\n| - | - | - | - |\n| yy | Persons with disabilities | \\* | \\* |\n',
    );
  });
});

describe('read: PDF reading order', () => {
  it('reads a page top to bottom when its producer wrote the header after the body (MarkItDown REPAIR-2022-INV-001_multipage.pdf, a spreadsheet export)', async () => {
    ops.put('repair.pdf', fs.readFileSync('fixtures/reading/markitdown/REPAIR-2022-INV-001_multipage.pdf'));
    const text = await markdownOf('repair.pdf', { pages: '1' });
    const order = ['ZAVA AUTO REPAIR', 'Preliminary Estimate (ID: EST-1008)', '| Insured name | Gabriel Diaz | Year | 2022 |', 'GRAND TOTAL'].map((s) =>
      text.indexOf(s),
    );
    expect(order.every((at) => at >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });
});

describe('read: PDF headings', () => {
  it('takes a body-size line in the headings’ colour for a heading when the font has no bold face (pandoc → LibreOffice, Chinese)', async () => {
    const text = await markdownOf('zh-report.pdf');
    expect(text).toMatch(/^# 第三季度运营报告$/m);
    expect(text).toMatch(/^## 生产情况$/m);
    expect(text).toMatch(/^### 各工厂产量$/m);
    expect(text).toContain('\n\n北方工厂的产量最高，南方工厂与上季度持平。');
  });

  it('takes a line in the headings’ colour that ends in a colon for a heading, not a bold label in the body’s colour (pandoc → LibreOffice, Chinese)', async () => {
    const text = await markdownOf('zh-colon.pdf');
    expect(text).toMatch(/^## 工作原理$/m);
    expect(text).toMatch(/^### 采样过程说明：$/m);
    expect(text).toMatch(/^### 使用参考$/m);
    expect(text).not.toMatch(/^#+ .*Note/m);
    expect(text).toContain('Note:');
  });

  it('takes a heading that opens with code for a heading of its size, not a line of the code block above it (pandoc → docx → LibreOffice)', async () => {
    const text = await markdownOf('code-headings.pdf');
    expect(text).toMatch(/^## Schedule$/m);
    expect(text).toMatch(/^## --timeout option$/m);
    expect(text).toMatch(/^## --quiet option$/m);
    expect(text).toMatch(/^backup start --loop 1d -f \/var\/backups\/archive-%t\.tar$/m);
  });

  it('takes numbered subheads a little larger than the body, in another font, for headings (docling normal_4pages.pdf)', async () => {
    ops.put('korean-headings.pdf', fs.readFileSync('fixtures/reading/docling/normal_4pages.pdf'));
    const text = await markdownOf('korean-headings.pdf', { pages: '2' });
    expect(text).toMatch(/^#+ \(1\) 「감염병의 예방 및 관리에 관한 법률」 개정$/m);
    expect(text).toMatch(/^#+ \(2\) 생명보험 표준약관 재해분류표$/m);
  });
});

describe('read: PDF pages that draw too much to be tables', () => {
  it('reads the text of a page of a million tiny paths without running its drawing a second time', async () => {
    ops.put('dots.pdf', manyPathsPdf(1_000_000, 'dots'));
    expect(await markdownOf('dots.pdf')).toBe('<!-- page 1 -->\n\nMany paths\n');
    const doc = mupdf.Document.openDocument(fs.readFileSync(ops.at('dots.pdf')), 'application/pdf') as mupdf.PDFDocument;
    const stats: DrawingStats = { paths: 0, overflow: false };
    expect(pageDrawing(doc.loadPage(0) as mupdf.PDFPage, stats).rulings).toEqual([]);
    expect(stats).toEqual({ paths: 0, overflow: true });
    doc.destroy();
  }, 120_000);

  it('stops collecting paths past the cap and makes no table of graph paper', async () => {
    ops.put('mesh.pdf', manyPathsPdf(MAX_PATHS + 5_000, 'mesh'));
    ops.put('fine-mesh.pdf', manyPathsPdf(400, 'mesh'));
    const doc = mupdf.Document.openDocument(fs.readFileSync(ops.at('mesh.pdf')), 'application/pdf') as mupdf.PDFDocument;
    const stats: DrawingStats = { paths: 0, overflow: false };
    expect(pageDrawing(doc.loadPage(0) as mupdf.PDFPage, stats).rulings).toEqual([]);
    expect(stats).toEqual({ paths: MAX_PATHS + 1, overflow: true });
    doc.destroy();
    expect(await markdownOf('mesh.pdf')).toBe('<!-- page 1 -->\n\nMany paths\n');
    // 200 × 200 lines a few points apart: 40,000 cells, a mesh.
    expect(await markdownOf('fine-mesh.pdf')).toBe('<!-- page 1 -->\n\nMany paths\n');
  }, 120_000);
});
