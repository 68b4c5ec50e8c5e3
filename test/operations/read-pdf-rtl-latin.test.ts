// Reading English set right to left in Chrome's prints (issue 45): react.dev's Persian pages set
// code blocks, and the pages left in English all their prose, in right-to-left paragraphs, and
// Chrome draws each line as the bidirectional algorithm lays it out: an English run left to right
// with the punctuation and brackets at its ends moved to the far side (`{ )(function MyComponent`,
// `.functions are compiled`). Read in logical order, as poppler's pdftotext reads a right-to-left
// page's lines; the code on a page mixing Persian and English, and the prose and code of a page
// in English only (no right-to-left letter tells its direction: its layout does).

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printWithChrome } from './chrome-print.js';
import { inProcess, type InProcess } from './in-process.js';

let ops: InProcess;

const CODE_LINES = 'function MyComponent() {\n  "use memo"; // Opt this component into compilation\n  return <div>{/* ... */}</div>;\n}';
const CODE = `\`\`\`js\n${CODE_LINES}\n\`\`\`\n`;

/** Persian prose around an English code block: most of the page's letters are Persian, so poppler reads it right to left. */
const PERSIAN = `# دستورهای کامپایلر\n\nدستورهای کامپایلر رشته‌هایی هستند که در ابتدای یک تابع یا یک ماژول نوشته می‌شوند و تعیین می‌کنند که کامپایلر آن را بهینه کند یا نه. این دستورها را تنها در جایی به کار ببرید که واقعا لازم است.\n\n${CODE}\nبرای هر دستوری که به کار می‌برید دلیل آن را در یک توضیح بنویسید تا بعدها بتوانید آن را دوباره بررسی کنید و در صورت امکان حذف کنید.\n\nپس از رفع مشکل، دستور را حذف کنید تا کامپایلر دوباره تابع را بهینه کند و همه‌ی مؤلفه‌ها از بهینه‌سازی بهره ببرند.\n`;

/** react.dev's directives page, left in English on the Persian site: its paragraphs' last lines end in a full stop Chrome sets at their left. */
const ENGLISH = `React Compiler directives are special string literals that control whether specific functions are compiled.\n\nReact Compiler directives provide fine-grained control over which functions are optimized by the compiler. They are string literals placed at the beginning of a function body or at the top of a module.\n\n${CODE}\nPlace directives at the beginning of a function to control its compilation.\n`;

/** pandoc's HTML of `markdown` set right to left, in DejaVu Serif by name (the machine's default serif changes where lines wrap), printed by Chrome. */
function printRightToLeft(name: string, markdown: string): void {
  ops.put(`${name}.md`, markdown);
  const html = `${name}.html`;
  const args = [`${name}.md`, '-f', 'gfm', '-s', '--metadata', `pagetitle=${name}`, '--variable', 'mainfont=DejaVu Serif', '--metadata', 'lang=fa'];
  execFileSync('pandoc', [...args, '--metadata', 'dir=rtl', '-o', html], { cwd: ops.dir, stdio: 'ignore' });
  printWithChrome(ops, fs.readFileSync(ops.at(html), 'utf8'), `${name}.pdf`);
}

/** poppler's text of a PDF, without the bidi embedding marks (U+202A–U+202C) it puts around right-to-left and left-to-right runs. */
const pdftotext = (pdf: string, ...options: string[]) =>
  execFileSync('pdftotext', [...options, ops.at(pdf), '-'], { encoding: 'utf8' }).replace(/[\u202a-\u202c]/g, '');

/** The lines of the Markdown's first code block, their ends trimmed. */
const codeLines = (markdown: string) =>
  (/```\n([\s\S]*?)\n```/.exec(markdown)?.[1] ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

const LOGICAL_CODE = ['function MyComponent() {', '"use memo"; // Opt this component into compilation', 'return <div>{/* ... */}</div>;', '}'];

beforeAll(async () => {
  ops = await inProcess({ workers: '1' });
  printRightToLeft('persian', PERSIAN);
  printRightToLeft('english', ENGLISH);
}, 240_000);
afterAll(() => ops.close());

describe('read: English code in a right-to-left paragraph of a Persian page (Chrome’s print)', () => {
  it('reads each code line in logical order, as poppler reads the page’s lines', async () => {
    // What Chrome drew: the brackets and semicolons at the far side of each line.
    const poppler = pdftotext('persian.pdf');
    expect(poppler).toContain('{ )(function MyComponent');
    expect(poppler).toContain(';>return <div>{/* ... */}</div\n');
    // poppler reads the page right to left: the quote Chrome drew at the right of the line comes first.
    expect(poppler).toContain(`\n${LOGICAL_CODE[1]}\n`);
    const text = (await ops.ok('read', { input: 'persian.pdf' })).text ?? '';
    expect(codeLines(text)).toEqual(LOGICAL_CODE);
  });

  it('indents each code line by the spaces Chrome draws at its right end, the block being set flush right', async () => {
    // What Chrome drew (poppler's word boxes): the indented lines end two characters (6 points each) short of the first line's right edge.
    const boxes = pdftotext('persian.pdf', '-bbox');
    const rightOf = (word: string) => Number(new RegExp(`xMax="([\\d.]+)"[^>]*>${word}</word>`).exec(boxes)?.[1]);
    expect(rightOf('MyComponent') - rightOf('compilation&quot;')).toBeGreaterThan(10);
    expect(rightOf('compilation&quot;')).toBeCloseTo(rightOf('\\*/}&lt;/div'), 0);
    const text = (await ops.ok('read', { input: 'persian.pdf' })).text ?? '';
    expect(text).toContain(`\`\`\`\n${CODE_LINES}\n\`\`\``);
  });
});

describe('read: a page in English set right to left (Chrome’s print of react.dev’s untranslated Persian pages)', () => {
  it('reads its sentences with their full stops at their ends and its code in logical order', async () => {
    // What Chrome drew, read apart from the reader: the full stop left of a paragraph's last line, set flush right.
    const layout = pdftotext('english.pdf', '-layout');
    expect(layout).toMatch(/^\s{8,}\.whether specific functions are compiled$/m);
    expect(layout).toMatch(/^\s{8,}\{ \)\(function MyComponent$/m);
    const text = (await ops.ok('read', { input: 'english.pdf' })).text ?? '';
    expect(text).toMatch(/whether specific functions are compiled\.$/m);
    expect(text).toMatch(/at the top of a module\.$/m);
    expect(text).toMatch(/control its\s+compilation\.$/m);
    expect(codeLines(text)).toEqual(LOGICAL_CODE);
    // `</div` without its `>` would be taken for a tag by a Markdown reader's HTML parser, swallowing what follows.
    expect(text).not.toMatch(/<\/div(?!>)/);
  });
});
