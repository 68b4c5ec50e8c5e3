// Reading PDFs from other producers than LibreOffice (issue 45): a manual whose numbered
// headings (`2.3.1 …`) are in the body's font and weight, its levels from the numbers, and the
// same in Chinese numbering (一、 → （一）), drawn line by line by ReportLab (python3-reportlab);
// console output in a code block that groff (pandoc's ms) indents, its columns lined up; groff's
// -ms numbered headings, bold at the body's size (`.NH`); a page number where LaTeX sets it, above
// the footer band (ReportLab); headings set as body text whose levels only the PDF's outline
// (bookmarks) tells.

import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PYTHON } from '../helpers/tools.js';
import { inProcess, type InProcess } from './in-process.js';

let ops: InProcess;

/**
 * Draws `lines` (kind, text) on A4 pages, every line in one size (10 pt): kind `b` bold, `h` in
 * the body's face (a numbered heading with space above and below it), `p` body text. Chinese in WenQuanYi
 * Zen Hei (fonts-wqy-zenhei; no bold face: a bold line is in the same face, as such manuals are).
 */
const MANUAL_PDF = `
import json, sys
from reportlab.pdfgen import canvas
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
name, chinese, lines = sys.argv[1], sys.argv[2] == 'zh', json.loads(sys.argv[3])
if chinese:
    pdfmetrics.registerFont(TTFont('Zen', '/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc', subfontIndex=0))
body, bold = ('Zen', 'Zen') if chinese else ('Helvetica', 'Helvetica-Bold')
c = canvas.Canvas(name, pagesize=(595, 842))
y = 780
for kind, text in lines:
    if kind != 'p':
        y -= 10
    if y < 80:
        c.showPage()
        y = 780
    c.setFont(bold if kind == 'b' else body, 10)
    c.drawString(72, y, text)
    y -= 14 if kind == 'p' else 18
c.save()
`;

const PROSE = [
  'The unit is shipped with its mounting plate, two brackets and the cable set. Check the contents',
  'against the packing list before you start, and keep the carton until the unit has been tested.',
];

const ENGLISH: [string, string][] = [
  ['b', '1 Installation'],
  ['p', PROSE[0] as string],
  ['p', PROSE[1] as string],
  ['h', '1.1 Before You Start'],
  ['p', PROSE[0] as string],
  ['h', '1.1.1 Tools Needed'],
  ['p', PROSE[1] as string],
  // Set apart as headings are, but a measure and a contents line: no headings.
  ['h', '2.5 kg is what the plate weighs with both brackets'],
  ['h', '3.4 Cleaning . . . . . . . . . . . . . . . . . . . . 12'],
  ['h', '1.1.2 Mounting the Plate'],
  ['p', PROSE[0] as string],
  ['h', '1.2 Wiring'],
  ['p', PROSE[1] as string],
  ['b', '2 Operation'],
  ['p', PROSE[0] as string],
  ['h', '2.1 First Start'],
  ['p', PROSE[1] as string],
];

const CHINESE_PROSE = '设备出厂时附带安装板、两个支架和电缆组件。开始之前，请对照装箱单检查内容，并在设备测试完成之前保留包装箱。';
const CHINESE: [string, string][] = [
  ['b', '一、安装'],
  ['p', CHINESE_PROSE],
  ['b', '（一）准备工作'],
  ['p', CHINESE_PROSE],
  ['b', '（二）接线'],
  ['p', CHINESE_PROSE],
  ['b', '二、运行'],
  ['p', CHINESE_PROSE],
  ['b', '（一）首次启动'],
  ['p', CHINESE_PROSE],
];

/**
 * Draws `lines` (kind, text) in Helvetica 10 on A4 pages (kind `page` starts one): kind `1`, `2`
 * a heading the outline names at that depth, set as body text with no number; `p` body text.
 * `outline` (title, depth, page index) replaces the bookmarks the headings would get.
 */
const BOOKMARKED_PDF = `
import json, sys
from reportlab.pdfgen import canvas
name, lines, outline = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
c = canvas.Canvas(name, pagesize=(595, 842))
y, page, entries = 780, 0, []
def mark_page():
    for n, (title, depth, at) in enumerate(outline or []):
        if at == page:
            c.bookmarkPage('o%d' % n)
            entries.append(('o%d' % n, title, depth))
mark_page()
for kind, text in lines:
    if kind == 'page':
        c.showPage()
        y, page = 780, page + 1
        mark_page()
        continue
    if kind != 'p':
        y -= 10
        if outline is None:
            c.bookmarkHorizontal('h%d' % len(entries), 72, y + 12)
            entries.append(('h%d' % len(entries), text, int(kind)))
    c.setFont('Helvetica', 10)
    c.drawString(72, y, text)
    y -= 14 if kind == 'p' else 18
for key, title, depth in entries:
    c.addOutlineEntry(title, key, level=depth - 1)
c.showOutline()
c.save()
`;

const GUIDE: [string, string][] = [
  ['1', 'Getting started'],
  ['p', PROSE[0] as string],
  ['2', 'what you need'],
  ['p', PROSE[1] as string],
  ['2', 'unpacking the unit'],
  ['p', PROSE[0] as string],
  ['page', ''],
  ['1', 'Wiring'],
  ['p', PROSE[1] as string],
  // The words of a heading of another page, as a line of this one: body text.
  ['p', 'what you need'],
  ['p', PROSE[0] as string],
];

/**
 * Right-to-left lines (DejaVu Sans) as two producers draw them: `words` as Chrome's Skia does — the
 * line set from the right margin, its words drawn from the left, each Arabic word's letters in
 * logical order (each left of the one before); `logical` as LibreOffice draws a line of a
 * left-to-right paragraph — its Arabic run at the left margin, the letters in logical order, and a
 * Latin word after it at the run's right. Letters unshaped: the text layer is what is read.
 */
const RTL_PDF = `
import json, sys
from reportlab.pdfgen import canvas
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
pdfmetrics.registerFont(TTFont('DV', '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf'))
name, lines = sys.argv[1], json.loads(sys.argv[2])
c = canvas.Canvas(name, pagesize=(595, 842))
y = 780
def arabic(word):
    return any('\u0590' <= ch <= '\u06ff' for ch in word)
def letters_leftwards(word, right, size):
    for ch in word:
        right -= pdfmetrics.stringWidth(ch, 'DV', size)
        c.drawString(right, y, ch)
for size, how, words in lines:
    c.setFont('DV', size)
    width = lambda s: pdfmetrics.stringWidth(s, 'DV', size)
    if how == 'words':
        placed, x = [], 523
        for word in words:
            x -= width(word)
            placed.append((x, word))
            x -= width(' ')
        for x, word in reversed(placed):
            if arabic(word):
                letters_leftwards(word, x + width(word), size)
            else:
                c.drawString(x, y, word)
    elif how == 'runs':
        # Chrome's way with Hebrew: the runs placed right to left, then drawn from the left, each run's letters in logical order.
        runs = []
        for word in words:
            if runs and arabic(runs[-1][-1]) == arabic(word):
                runs[-1].append(word)
            else:
                runs.append([word])
        placed, x = [], 523
        for run in (' '.join(r) for r in runs):
            x -= width(run)
            placed.append((x, run))
            x -= width(' ')
        for x, run in reversed(placed):
            if arabic(run):
                letters_leftwards(run, x + width(run), size)
            else:
                c.drawString(x, y, run)
    else:
        run = ' '.join(w for w in words if arabic(w))
        letters_leftwards(run, 72 + width(run), size)
        c.drawString(72 + width(run + ' '), y, ' '.join(w for w in words if not arabic(w)))
    y -= size * 2
c.save()
`;

const ARABIC_HEADING = ['يكتب', 'محمد', 'رسالة'];
const ARABIC_LINE = ['يكتب', 'محمد', 'رسالة', 'طويلة', 'في', 'المساء', 'ويستخدم', 'React', 'كل', 'يوم'];
const HEBREW_LINE = ['הגינה', 'נפתחה', 'באביב', '2021', 'ומשמשת', 'היום', 'יותר', 'מ', 'React', 'משפחות'];

/** The Markdown headings of a read, `level text`. */
const headingsOf = (markdown: string) => [...markdown.matchAll(/^(#{1,6}) (.*)$/gm)].map((m) => `${(m[1] as string).length} ${m[2] as string}`);

/** A page with console output whose columns line up, as a manual shows it. */
const CONSOLE_MD = `# memory

Shows the memory of the JVM.

## Usage

\`\`\`bash
$ memory
Memory                    used      total      max        usage
heap                      32M       256M       4096M      0.79%
g1_eden_space             11M       68M        -1         16.18%
g1_old_gen                17M       184M       4096M      0.43%
nonheap                   35M       39M        -1         89.55%
\`\`\`

The heap is the memory the objects take.
`;

/**
 * groff's -ms numbered headings (\`.NH\`): \`1.\` and \`1.1.\` in bold at the body's size, each
 * paragraph's first line indented, no outline; \`steps\` a numbered list of bold one-line titles
 * with no deeper number, as a how-to sets its steps.
 */
const NH_SECTIONS: readonly [number, string][] = [
  [1, 'Scope'],
  [2, 'Who should read it'],
  [2, 'What it leaves out'],
  [1, 'Installation'],
  [2, 'Tools needed'],
  [3, 'Torque values'],
  [1, 'Maintenance'],
];
const PARAGRAPH =
  'Place the unit on a level floor, at least half a metre from any wall, so that air can flow around it and the panels can be opened for service.';
const nhManual = (sections: readonly [number, string][]) =>
  `.TL\nField Service Manual\n${sections.map(([depth, title]) => `.NH ${depth}\n${title}\n.PP\n${PARAGRAPH}\n`).join('')}`;
const STEPS_MS = `.TL\nAssembly\n${['Preparation', 'Assembly', 'Testing'].map((t, i) => `.IP ${i + 1}.\n.B ${t}\n.PP\n${PARAGRAPH}\n`).join('')}`;

/** Three A4 pages as LaTeX's article sets them: text from the top margin, the page number centred 0.17 of the page up (baseline 140 pt). */
const FOOT_NUMBERED_PDF = `
import sys
from reportlab.pdfgen import canvas
c = canvas.Canvas(sys.argv[1], pagesize=(595, 842))
for page in range(1, 4):
    c.setFont('Helvetica', 10)
    for i in range(12):
        c.drawString(133, 700 - i * 12, f'Line {i + 1} of page {page}: the text of a paper set in one column, justified.')
    c.drawCentredString(298, 140, str(page))
    c.showPage()
c.save()
`;

beforeAll(async () => {
  ops = await inProcess({ workers: '1' });
  execFileSync(PYTHON, ['-c', FOOT_NUMBERED_PDF, 'foot-numbered.pdf'], { cwd: ops.dir });
  ops.put('nh-manual.pdf', execFileSync('groff', ['-ms', '-Tpdf'], { input: nhManual(NH_SECTIONS) }));
  ops.put('nh-steps.pdf', execFileSync('groff', ['-ms', '-Tpdf'], { input: STEPS_MS }));
  ops.put('console.md', CONSOLE_MD);
  const ms = execFileSync('pandoc', ['console.md', '-f', 'gfm', '-s', '-t', 'ms'], { cwd: ops.dir });
  ops.put('console.pdf', execFileSync('groff', ['-ms', '-t', '-k', '-Tpdf'], { input: ms }));
  execFileSync(PYTHON, ['-c', MANUAL_PDF, 'manual-en.pdf', 'en', JSON.stringify(ENGLISH)], { cwd: ops.dir });
  execFileSync(PYTHON, ['-c', MANUAL_PDF, 'manual-zh.pdf', 'zh', JSON.stringify(CHINESE)], { cwd: ops.dir });
  execFileSync(PYTHON, ['-c', BOOKMARKED_PDF, 'guide.pdf', JSON.stringify(GUIDE), 'null'], { cwd: ops.dir });
  const rtl = [
    [16, 'words', ARABIC_HEADING],
    [10, 'words', ARABIC_LINE],
    [10, 'logical', [...ARABIC_HEADING, 'null']],
    [10, 'runs', HEBREW_LINE],
  ];
  execFileSync(PYTHON, ['-c', RTL_PDF, 'arabic.pdf', JSON.stringify(rtl)], { cwd: ops.dir });
  const otherTitles = [
    ['Chapter One', 1, 0],
    ['Chapter Two', 1, 1],
  ];
  execFileSync(PYTHON, ['-c', BOOKMARKED_PDF, 'guide-other-outline.pdf', JSON.stringify(GUIDE), JSON.stringify(otherTitles)], { cwd: ops.dir });
}, 60_000);
afterAll(() => ops.close());

describe('read: code from groff (pandoc → ms → groff)', () => {
  it('reads console output whose columns line up as a code block, not as a table', async () => {
    const text = (await ops.ok('read', { input: 'console.pdf' })).text ?? '';
    expect(text).not.toContain('|');
    const code = /```\n([\s\S]*?)\n```/.exec(text)?.[1] ?? '';
    expect(code.split('\n').map((l) => l.split(/\s+/)[0])).toEqual(['$', 'Memory', 'heap', 'g1_eden_space', 'g1_old_gen', 'nonheap']);
    expect(text).toMatch(/^The heap is the memory the objects take\.$/m);
  });
});

describe('read: headings of PDFs set in the body size (ReportLab)', () => {
  it('reads numbered headings in the body font and weight as headings, their levels from the numbers', async () => {
    const text = (await ops.ok('read', { input: 'manual-en.pdf' })).text ?? '';
    expect(headingsOf(text)).toEqual([
      '1 1 Installation',
      '2 1.1 Before You Start',
      '3 1.1.1 Tools Needed',
      '3 1.1.2 Mounting the Plate',
      '2 1.2 Wiring',
      '1 2 Operation',
      '2 2.1 First Start',
    ]);
    expect(text).toMatch(/^2\.5 kg is what the plate weighs/m);
    expect(text).toMatch(/^3\.4 Cleaning \. \./m);
  });

  it('reads Chinese numbered headings at the body size by their numbering: 一、 over （一）', async () => {
    const text = (await ops.ok('read', { input: 'manual-zh.pdf' })).text ?? '';
    expect(headingsOf(text)).toEqual(['1 一、安装', '2 （一）准备工作', '2 （二）接线', '1 二、运行', '2 （一）首次启动']);
  });
});

describe('read: numbered headings in bold at the body size (groff -ms)', () => {
  it('reads `1.` in bold as a section’s heading, not a list item swallowing its paragraph, where the document numbers its sections so', async () => {
    const text = (await ops.ok('read', { input: 'nh-manual.pdf' })).text ?? '';
    expect(headingsOf(text)).toEqual([
      '1 Field Service Manual',
      '2 1. Scope',
      '3 1.1. Who should read it',
      '3 1.2. What it leaves out',
      '2 2. Installation',
      '3 2.1. Tools needed',
      '4 2.1.1. Torque values',
      '2 3. Maintenance',
    ]);
    expect(text.match(new RegExp(`^${PARAGRAPH.replaceAll('.', '\\.')}$`, 'gm'))).toHaveLength(NH_SECTIONS.length);
  });

  it('keeps bold numbered steps with no deeper number a list', async () => {
    const text = (await ops.ok('read', { input: 'nh-steps.pdf' })).text ?? '';
    expect(headingsOf(text)).toEqual(['1 Assembly']);
    expect(text).toMatch(/^1\. Preparation Place/m);
  });
});

describe('read: page numbers at the foot of a LaTeX page', () => {
  it('leaves out a bare page number below the text though it stands above the footer band', async () => {
    const text = (await ops.ok('read', { input: 'foot-numbered.pdf' })).text ?? '';
    expect(text).toContain('Line 12 of page 3: the text of a paper set in one column, justified.');
    expect(text).not.toMatch(/^\d$/m);
  });
});

describe('read: heading levels from the outline (bookmarks)', () => {
  it('reads body-text lines the outline names on their page as headings at its depths', async () => {
    const text = (await ops.ok('read', { input: 'guide.pdf' })).text ?? '';
    expect(headingsOf(text)).toEqual(['1 Getting started', '2 what you need', '2 unpacking the unit', '1 Wiring']);
    expect(text).toContain('has been tested. what you need The unit');
  });

  it('leaves the headings to the text when the outline names other titles', async () => {
    const text = (await ops.ok('read', { input: 'guide-other-outline.pdf' })).text ?? '';
    expect(headingsOf(text)).toEqual([]);
    expect(text).toContain('Getting started');
    expect(text).toContain('Wiring');
  });
});

describe('read: right-to-left lines in logical order however drawn', () => {
  it('reads a line drawn word by word from the left (Chrome) right to left, a Latin word in its place', async () => {
    const text = (await ops.ok('read', { input: 'arabic.pdf' })).text ?? '';
    expect(headingsOf(text)).toEqual([`1 ${ARABIC_HEADING.join(' ')}`]);
    expect(text).toContain(ARABIC_LINE.join(' '));
  });

  it('reads a flush-right Hebrew line whose runs are drawn from the left, each in logical order (Chrome), right to left', async () => {
    const text = (await ops.ok('read', { input: 'arabic.pdf' })).text ?? '';
    expect(text).toContain(HEBREW_LINE.join(' '));
  });

  it('reads a line drawn in logical order as drawn, though its Latin word stands at its right', async () => {
    const text = (await ops.ok('read', { input: 'arabic.pdf' })).text ?? '';
    expect(text).toContain([...ARABIC_HEADING, 'null'].join(' '));
  });
});
