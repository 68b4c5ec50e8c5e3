// Reading Chrome's prints (issue 45): titles set in bold at the body's size (`h4`), in Arabic drawn
// by Chrome as a Type 3 copy of DejaVu Sans made bold (the machine's DejaVu Sans Bold has no
// Arabic), read as headings; bold words that fill a line of a paragraph kept in the paragraph, in
// Arabic and in English (Liberation Serif Bold); the lam-alef ligature, which Chrome maps to alef
// then lam, read lam first on a page read line by line, and the article's alef after و that
// Chrome maps to a space read as an alef; a Hebrew table, which Chrome sets right to left, read
// from the right, and a table of code on a Persian page, which Chrome sets the same way; a
// padded table whose every cell of a row wraps; a table the page break cuts below its third row,
// its header wrapped over two lines and repeated on the next page; a table under a page's rule
// (`---`) as wide as it, with prose between, its last column wrapping, read from its own top rule,
// and in English on a page set right to left (react.dev's Persian site), read from the right; a
// Persian table whose rows are mostly code, each Persian cell's words in order.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printWithChrome } from './chrome-print.js';
import { inProcess, type InProcess } from './in-process.js';

let ops: InProcess;

const ARABIC_PROSE =
  'يتطلب كتابة الدوال النقية بعض العادات والانضباط ولكنه يفتح أيضا فرصا رائعة، إذ يمكن للمكونات أن تعمل في بيئة مختلفة على الخادم مثلا، ويمكنك من خلال ذلك تحسين الأداء بتخطي تصيير المكونات التي لم تتغير مدخلاتها.';
const ARABIC_BOLD =
  'باستدعاء وظائف المكون مرتين يساعد الوضع الصارم في العثور على المكونات التي تخالف هذه القواعد ويمكنك عندها إصلاحها قبل أن تصل إلى المستخدمين ويجب عليك دائما معاملة المدخلات على أنها للقراءة فقط';
const ENGLISH_PROSE =
  'Writing pure functions takes some habit and discipline, but it also unlocks marvellous opportunities: components can run on the server, and rendering can skip the ones whose inputs have not changed.';
const ENGLISH_BOLD =
  'By calling the component functions twice Strict Mode helps find components that break these rules so that you can fix them before they reach your users and you should always treat these inputs as read only';

/** A page as pandoc writes a react.dev page: a title, prose, and two `h4` callout titles. */
const pageHtml = (lang: string, dir: string, [title, first, second]: readonly string[], prose: string, bold: string, lead: string, tail: string) =>
  `<!doctype html><html lang="${lang}" dir="${dir}"><head><meta charset="utf-8"><title>page</title></head><body>
<h1>${title}</h1><p>${prose}</p><p>${prose}</p>
<h4>${first}</h4><p>${lead} <strong>${bold}</strong> ${tail}</p><p>${prose}</p>
<h4>${second}</h4><p>${prose}</p><p>${prose}</p></body></html>`;

const ARABIC_TITLES = ['النقاء في المكونات', 'اكتشاف الحسابات غير النقية', 'لماذا يهتم React بالنقاء'];
const ENGLISH_TITLES = ['Keeping components pure', 'Detecting impure calculations with Strict Mode', 'Why does React care about purity'];

const HEBREW_HOURS =
  '# שעות הפתיחה\n\nהספרייה פתוחה לקהל בימים הבאים.\n\n| יום | שעות |\n|---|---|\n| ראשון עד חמישי | 09:00–19:00 |\n| שישי | 09:00–13:00 |\n| שבת | סגור |\n\nהפעילויות חינמיות למנויים.\n';

// react.dev in Persian: a table of code cells (no Persian letters in it) under Persian prose, beside a code block Chrome sets past the text's right edge.
const PERSIAN_UPDATES =
  '# صف به‌روزرسانی‌ها\n\nری‌اکت به‌روزرسانی‌ها را به ترتیب در صف قرار می‌دهد و در رندر بعدی آن‌ها را اجرا می‌کند.\n\n```js\nsetNumber(n => n + 1);\nsetNumber(n => n + 1);\n```\n\nاین جدول نشان می‌دهد که هر تابع چه چیزی برمی‌گرداند:\n\n| queued update | `n` | returns |\n|---|---|---|\n| `n => n + 1` | `0` | `1` |\n| `n => n + 1` | `1` | `2` |\n\nری‌اکت عدد نهایی را ذخیره می‌کند.\n';

// RocketMQ's message trace table: cells centred on a neighbour's two lines, and a row whose every cell wraps.
const TRACE_TABLE =
  '# Message trace\n\nA trace records what each side did with a message, as the table below lists.\n\n| Producer | Consumer | Broker |\n| --- | --- | --- |\n| production instance information | consumption instance information | message Topic |\n| send message time | post time, post round | message storage location |\n| whether the message was sent successfully | Whether the message was successfully consumed | The Key of the message |\n| Time spent sending | Time spent consuming | Tag of the message |\n';

// RocketMQ's message fields: seven paragraphs put the table's header and three rows at the foot of page 1 (checked by pdftotext).
const MESSAGE_PROSE =
  'A message carries its topic, its body and the properties a producer sets on it; the broker stores them as they come and hands them to consumers.';
const MESSAGE_ROWS = [
  ['Topic', 'null', 'Required: Name of the message topic'],
  ['Body', 'null', 'Required: Message content'],
  ['Tags', 'null', 'Optional: Tag for filtering'],
  ['Keys', 'null', 'Optional: Business keys (e.g., order IDs)'],
  ['Flag', '0', 'Optional: Custom flag'],
  ['DelayTimeLevel', '0', 'Optional: Message delay level'],
  ['WaitStoreMsgOK', 'TRUE', 'Optional: Acknowledgment before storing'],
];
const MESSAGE_TABLE = `# Message data\n\n${Array(7).fill(MESSAGE_PROSE).join('\n\n')}\n\n| Field Name | Default Value | Description |\n|---|---|---|\n${MESSAGE_ROWS.map((r) => `| ${r.join(' | ')} |\n`).join('')}\nThe broker keeps each message for three days.\n`;

// react.dev's directives page (English on its Persian site): a rule, a section, and a table whose last column wraps.
const DIRECTIVES =
  'React Compiler directives are special string literals that control whether specific functions are compiled.\n\n---\n\n## Overview\n\nReact Compiler directives provide fine-grained control over which functions are optimized by the compiler. They are string literals placed at the beginning of a function body or at the top of a module.\n\n### Available directives\n\n* **`"use memo"`** - Opts a function into compilation\n* **`"use no memo"`** - Opts a function out of compilation\n\n### Quick comparison\n\n| Directive | Purpose | When to use |\n|-----------|---------|-------------|\n| `"use memo"` | Force compilation | When using `annotation` mode or to override `infer` mode heuristics |\n| `"use no memo"` | Prevent compilation | Debugging issues or working with incompatible code |\n\n---\n\n## Usage\n\nPlace directives at the beginning of a function to control its compilation.\n';
const DIRECTIVES_TABLE =
  '| Directive | Purpose | When to use |\n| - | - | - |\n| `"use memo"` | Force compilation | When using annotation mode or to override infer mode heuristics |\n';

// react.dev in Persian: array methods to avoid and to prefer, rows of Latin code with a Persian first cell.
const PERSIAN_ARRAYS =
  'در اینجا یک جدول مرجع از عملیات رایج روی آرایه‌ها آورده شده است.\n\n|           | خودداری شود (آرایه را تغییر می‌دهد) | ترجیح داده شود (آرایه جدید ایجاد می‌کند) |\n| --------- | --- | --- |\n| اضافه کردن    | `push`, `unshift` | `concat`, `[...arr]` spread syntax (مثال) |\n| حذف کردن  | `pop`, `shift`, `splice` | `filter`, `slice` (مثال) |\n| جایگزین کردن | `splice`, `arr[i] = ...` assignment | `map` (مثال) |\n| مرتب سازی   | `reverse`, `sort` | ابتدا از آرایه کپی بگیرید (مثال) |\n\nبه‌عنوان جایگزین می‌توانید از Immer استفاده کنید.\n';

/**
 * The face pandoc's page is set in, named: else Chrome takes the machine's default serif, which
 * installing Liberation's fonts changes from DejaVu Serif, and with it where lines wrap and pages break.
 */
const SERIF = ['--variable', 'mainfont=DejaVu Serif'];

/** The Markdown headings' texts. */
const headingsOf = (markdown: string) => [...markdown.matchAll(/^#{1,6} (.*)$/gm)].map((m) => m[1]);
/** The paragraph of the Markdown that starts with `start`, its emphasis left out. */
const paragraphOf = (markdown: string, start: string) =>
  markdown
    .replace(/\*\*/g, '')
    .split('\n\n')
    .find((block) => block.startsWith(start)) ?? '';

beforeAll(async () => {
  ops = await inProcess({ workers: '1' });
  printWithChrome(ops, pageHtml('ar', 'rtl', ARABIC_TITLES, ARABIC_PROSE, ARABIC_BOLD, 'يوفر React وضعا صارما.', 'وهذا آمن دائما.'), 'arabic.pdf');
  // One justified paragraph: its last line alone stands short of the margin, so the page is read line by line (mupdf's JSON).
  const justified = `<!doctype html><html lang="ar" dir="rtl"><head><meta charset="utf-8"></head><body><p style="text-align: justify">${ARABIC_PROSE.repeat(3)}</p></body></html>`;
  printWithChrome(ops, justified, 'arabic-lines.pdf');
  printWithChrome(ops, pageHtml('en', 'ltr', ENGLISH_TITLES, ENGLISH_PROSE, ENGLISH_BOLD, 'React offers a Strict Mode.', 'which is safe.'), 'english.pdf');
  // A Hebrew page with a table, as pandoc writes it (its rules above and below): Chrome sets the table right to left.
  ops.put('hours.md', HEBREW_HOURS);
  execFileSync('pandoc', ['hours.md', '-f', 'gfm', '-s', '--metadata', 'title=hours', '--metadata', 'lang=he', '--metadata', 'dir=rtl', '-o', 'hours.html'], {
    cwd: ops.dir,
    stdio: 'ignore',
  });
  printWithChrome(ops, fs.readFileSync(ops.at('hours.html'), 'utf8'), 'hours.pdf');
  ops.put('updates.md', PERSIAN_UPDATES);
  execFileSync(
    'pandoc',
    ['updates.md', '-f', 'gfm', '-s', '--metadata', 'title=updates', '--metadata', 'lang=fa', '--metadata', 'dir=rtl', '-o', 'updates.html'],
    {
      cwd: ops.dir,
      stdio: 'ignore',
    },
  );
  printWithChrome(ops, fs.readFileSync(ops.at('updates.html'), 'utf8'), 'updates.pdf');
  ops.put('trace.md', TRACE_TABLE);
  // Liberation Serif (scripts/test-tools.txt) by name: its wraps are the ones this table's rows were measured in.
  execFileSync('pandoc', ['trace.md', '-f', 'gfm', '-s', '--metadata', 'title=trace', '--variable', 'mainfont=Liberation Serif', '-o', 'trace.html'], {
    cwd: ops.dir,
    stdio: 'ignore',
  });
  printWithChrome(ops, fs.readFileSync(ops.at('trace.html'), 'utf8'), 'trace.pdf');
  ops.put('message.md', MESSAGE_TABLE);
  execFileSync('pandoc', ['message.md', '-f', 'gfm', '-s', '--metadata', 'pagetitle=message', ...SERIF, '-o', 'message.html'], {
    cwd: ops.dir,
    stdio: 'ignore',
  });
  printWithChrome(ops, fs.readFileSync(ops.at('message.html'), 'utf8'), 'message.pdf');
  ops.put('directives.md', DIRECTIVES);
  for (const [dir, pdf] of [
    ['ltr', 'directives.pdf'],
    ['rtl', 'directives-rtl.pdf'],
  ] as const) {
    execFileSync(
      'pandoc',
      ['directives.md', '-f', 'gfm', '-s', '--metadata', 'pagetitle=directives', ...SERIF, '--metadata', `dir=${dir}`, '-o', `${pdf}.page.html`],
      {
        cwd: ops.dir,
        stdio: 'ignore',
      },
    );
    printWithChrome(ops, fs.readFileSync(ops.at(`${pdf}.page.html`), 'utf8'), pdf);
  }
  ops.put('arrays.md', PERSIAN_ARRAYS);
  execFileSync(
    'pandoc',
    ['arrays.md', '-f', 'gfm', '-s', '--metadata', 'pagetitle=arrays', ...SERIF, '--metadata', 'lang=fa', '--metadata', 'dir=rtl', '-o', 'arrays.html'],
    {
      cwd: ops.dir,
      stdio: 'ignore',
    },
  );
  printWithChrome(ops, fs.readFileSync(ops.at('arrays.html'), 'utf8'), 'arrays.pdf');
}, 240_000);
afterAll(() => ops.close());

describe('read: bold lines at the body size in Chrome’s prints', () => {
  it('reads Arabic titles Chrome draws in a Type 3 bold copy of the body’s face as headings', async () => {
    const text = (await ops.ok('read', { input: 'arabic.pdf' })).text ?? '';
    expect(headingsOf(text)).toEqual(ARABIC_TITLES);
  });

  it('keeps bold words that fill a line in their paragraph, in Arabic and in English', async () => {
    const arabic = (await ops.ok('read', { input: 'arabic.pdf' })).text ?? '';
    expect(paragraphOf(arabic, 'يوفر React')).toMatch(/وهذا آمن دائما\.$/);
    const english = (await ops.ok('read', { input: 'english.pdf' })).text ?? '';
    expect(headingsOf(english)).toEqual(ENGLISH_TITLES);
    expect(paragraphOf(english, 'React offers')).toMatch(/which is safe\.$/);
  });
});

describe('read: the lam-alef ligature in Chrome’s prints', () => {
  it('reads the ligature lam first (مدخلاتها, مثلا, الأداء), and an alef followed by a lam as they stand (الدوال)', async () => {
    // A page read character by character (its short lines hint at cells), and one read line by line.
    for (const input of ['arabic.pdf', 'arabic-lines.pdf']) {
      const prose = paragraphOf((await ops.ok('read', { input })).text ?? '', 'يتطلب');
      for (const word of ['خلال', 'مدخلاتها', 'مثلا', 'الأداء', 'الدوال', 'الخادم']) expect(prose).toContain(word);
    }
  });

  it('reads the article’s alef after و, which Chrome maps to a space before the ligature, as an alef (والانضباط)', async () => {
    // What Chrome wrote, read apart from the reader: poppler reads the alef (and the ligature alef first).
    expect(execFileSync('pdftotext', [ops.at('arabic.pdf'), '-'], { encoding: 'utf8' })).toContain('واالنضباط');
    for (const input of ['arabic.pdf', 'arabic-lines.pdf']) {
      const prose = paragraphOf((await ops.ok('read', { input })).text ?? '', 'يتطلب');
      expect(prose).toContain('العادات والانضباط ولكنه');
    }
  });
});

describe('read: a table set right to left in Chrome’s print (pandoc’s HTML of a Hebrew table)', () => {
  it('reads its columns from the right, a cell’s hours apart from the day beside it, the range in order', async () => {
    // What Chrome drew, read apart from the reader: the day at the right, the range's numbers from the right.
    const layout = execFileSync('pdftotext', ['-layout', ops.at('hours.pdf'), '-'], { encoding: 'utf8' });
    expect(layout).toMatch(/19:00–09:00\S*\s+\S*ראשון עד חמישי/);
    const text = (await ops.ok('read', { input: 'hours.pdf' })).text ?? '';
    expect(text).toContain('| יום | שעות |\n| - | - |\n| ראשון עד חמישי | 09:00–19:00 |\n| שישי | 09:00–13:00 |\n| שבת | סגור |');
    expect(text).toContain('הפעילויות חינמיות למנויים.');
  });
});

describe('read: a table of code set right to left in Chrome’s print of a Persian page', () => {
  it('reads its columns from the right though no cell holds a right-to-left letter', async () => {
    // What Chrome drew, read apart from the reader: the first column (queued update) at the right.
    const layout = execFileSync('pdftotext', ['-layout', ops.at('updates.pdf'), '-'], { encoding: 'utf8' });
    expect(layout).toMatch(/returns[^\n]*queued update/);
    const text = (await ops.ok('read', { input: 'updates.pdf' })).text ?? '';
    expect(text).toMatch(/\| queued update \| `?n`? \| returns \|\n\| - \| - \| - \|\n\| `n => n \+ 1` \| `0` \| `1` \|/);
  });
});

describe('read: a table whose rows are padded and cells centred in Chrome’s print', () => {
  it('keeps a row whose every cell wraps one row, beside rows with a centred cell', async () => {
    // What Chrome drew, read apart from the reader: the wrapped row's second lines on a line of their own.
    const layout = execFileSync('pdftotext', ['-layout', ops.at('trace.pdf'), '-'], { encoding: 'utf8' });
    expect(layout).toMatch(/^\s*successfully\s+successfully consumed\s+message\s*$/m);
    const text = (await ops.ok('read', { input: 'trace.pdf' })).text ?? '';
    expect(text).toContain(
      '| whether the message was sent successfully | Whether the message was successfully consumed | The Key of the message |\n| Time spent sending | Time spent consuming | Tag of the message |',
    );
    expect(text).toContain('| production instance information | consumption instance information | message Topic |');
  });
});

describe('read: a table the page break cuts, its header wrapped, in Chrome’s print', () => {
  it('reads the header over two lines as one row and the rows on both pages as one table', async () => {
    // What Chrome drew, read apart from the reader: on each page the header's "Default" over "Value", the third row last on page 1.
    const page = (n: string) => execFileSync('pdftotext', ['-f', n, '-l', n, '-layout', ops.at('message.pdf'), '-'], { encoding: 'utf8' });
    for (const n of ['1', '2']) expect(page(n)).toMatch(/^\s+Default\s*\n\s+Field Name\s+Description\s*\n\s+Value\s*$/m);
    expect(page('1')).toMatch(/Tags\s+null\s+Optional: Tag for filtering\s*$/);
    const text = (await ops.ok('read', { input: 'message.pdf' })).text ?? '';
    const rows = MESSAGE_ROWS.map((r) => `| ${r.join(' | ')} |`).join('\n');
    expect(text).toContain(`| Field Name | Default Value | Description |\n| - | - | - |\n${rows}\n`);
  });
});

describe('read: a table under a page’s rule as wide as it, in Chrome’s print', () => {
  it('reads the table from its own top rule, not the section between the page’s rule and it, its wrapping column no prose', async () => {
    // What Chrome drew, read apart from the reader: the second and last columns' cells wrapped, the first centred beside them.
    const layout = execFileSync('pdftotext', ['-layout', ops.at('directives.pdf'), '-'], { encoding: 'utf8' });
    expect(layout).toMatch(/^\s*Force\s+When using annotation mode or to\s*\n\s*"use memo"\s*$/m);
    const text = (await ops.ok('read', { input: 'directives.pdf' })).text ?? '';
    expect(text).toContain(`## Quick comparison\n\n${DIRECTIVES_TABLE}`);
    expect(text).toContain('| `"use no memo"` | Prevent compilation | Debugging issues or working with incompatible code |');
  });

  it('reads an English table on a page set right to left (flush right) from the right', async () => {
    // What Chrome drew, read apart from the reader: the first column (Directive) at the right, the prose flush right.
    const layout = execFileSync('pdftotext', ['-layout', ops.at('directives-rtl.pdf'), '-'], { encoding: 'utf8' });
    expect(layout).toMatch(/When to use\s+Purpose\s+Directive/);
    const text = (await ops.ok('read', { input: 'directives-rtl.pdf' })).text ?? '';
    expect(text).toContain(DIRECTIVES_TABLE);
  });
});

describe('read: Persian cells beside code cells in a table on a right-to-left page (Chrome’s print)', () => {
  it('reads each Persian cell’s words in order, the code cells as they stand', async () => {
    // What Chrome drew, read apart from the reader (poppler orders by position): the first cell at the right, its words in order.
    const layout = execFileSync('pdftotext', ['-layout', ops.at('arrays.pdf'), '-'], { encoding: 'utf8' });
    expect(layout).toMatch(/push, unshift\S*\s+\S*اضافه کردن/);
    const text = (await ops.ok('read', { input: 'arrays.pdf' })).text ?? '';
    expect(text).toContain('| اضافه کردن | push, unshift |');
    expect(text).toContain('| حذف کردن | pop, shift, splice | filter, slice (مثال) |');
    expect(text).toContain('| مرتب سازی | reverse, sort | ابتدا از آرایه کپی بگیرید (مثال) |');
  });
});
