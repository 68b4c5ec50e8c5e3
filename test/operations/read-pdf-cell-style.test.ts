// Italic table cells in PDFs (issue 45): a pandoc table whose cells are `*italic*`, one of them
// wrapped, printed by Chrome (pandoc's HTML) and by LibreOffice (pandoc's DOCX). The reading
// corpora's ground truth is that Markdown normalised by pandoc, so a cell set wholly in an italic
// face reads back as the Markdown wrote it. Bold cells and a paragraph's bold word read as before
// (plain): forms set label columns bold as the table's style (blocks.ts styledRuns). Bold and
// italic words inside a cell's text are the author's: Chrome's print and LibreOffice's set them
// inside the cell's pieces (a wrapped cell's lines), and they read as **bold** and *italic*; a
// word LibreOffice wraps onto a line of its own, all bold, is not told from a bold cell's line.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSoffice, SOFFICE } from '../helpers/soffice.js';
import { printWithChrome } from './chrome-print.js';
import { inProcess, type InProcess } from './in-process.js';

let ops: InProcess;

const WRAPPED = 'The hour of the day at which the broker removes old commit log files from the disk, once they are older than the retention hours';
const OPTIONS = `# Broker options

The options below change how the **broker** stores messages.

| Option | Kind | Effect |
|---|---|---|
| **storePath** | *string* | Where the commit log is written |
| **flushInterval** | *number* | Milliseconds between two flushes of the page cache |
| retentionHours | integer | Hours a message is kept before deletion |
| deleteWhen | plain text | *${WRAPPED}* |

Every option is read when the broker starts.
`;

/** The table as the reader writes it: the Markdown's italic cells, its bold ones plain. */
const READ_TABLE = [
  '| Option | Kind | Effect |',
  '| - | - | - |',
  '| storePath | *string* | Where the commit log is written |',
  '| flushInterval | *number* | Milliseconds between two flushes of the page cache |',
  '| retentionHours | integer | Hours a message is kept before deletion |',
  `| deleteWhen | plain text | *${WRAPPED}* |`,
].join('\n');

const WATCH = `# Watch

| Parameter | Description |
|---|---|
| before | watch **before** the method is called |
| after | watch *after* an exception, then **stop** |
| plain | nothing set apart here |
`;
const READ_WATCH = [
  '| Parameter | Description |',
  '| - | - |',
  '| before | watch **before** the method is called |',
  '| after | watch *after* an exception, then **stop** |',
  '| plain | nothing set apart here |',
].join('\n');

const fontsOf = (pdf: string) => execFileSync('pdffonts', [ops.at(pdf)], { encoding: 'utf8' });
const layoutOf = (pdf: string) => execFileSync('pdftotext', ['-layout', ops.at(pdf), '-'], { encoding: 'utf8' });

beforeAll(async () => {
  ops = await inProcess({ soffice: SOFFICE, workers: '1' });
  ops.put('options.md', OPTIONS);
  // Liberation Serif by name (scripts/test-tools.txt), in its regular, bold and italic faces.
  execFileSync(
    'pandoc',
    ['options.md', '-f', 'gfm', '-s', '--metadata', 'pagetitle=options', '--variable', 'mainfont=Liberation Serif', '-o', 'options.html'],
    {
      cwd: ops.dir,
      stdio: 'ignore',
    },
  );
  printWithChrome(ops, fs.readFileSync(ops.at('options.html'), 'utf8'), 'options-chrome.pdf');
  ops.put('watch.md', WATCH);
  execFileSync('pandoc', ['watch.md', '-f', 'gfm', '-s', '--metadata', 'pagetitle=watch', '--variable', 'mainfont=Liberation Serif', '-o', 'watch.html'], {
    cwd: ops.dir,
    stdio: 'ignore',
  });
  printWithChrome(ops, fs.readFileSync(ops.at('watch.html'), 'utf8'), 'watch-chrome.pdf');
  execFileSync('pandoc', ['watch.md', '-f', 'gfm', '-o', 'watch.docx'], { cwd: ops.dir, stdio: 'ignore' });
  runSoffice(ops.at('profile'), ['--convert-to', 'pdf', 'watch.docx'], ops.dir);
  fs.rmSync(ops.at('profile'), { recursive: true, force: true });
  execFileSync('pandoc', ['options.md', '-f', 'gfm', '-o', 'options.docx'], { cwd: ops.dir, stdio: 'ignore' });
  runSoffice(ops.at('profile'), ['--convert-to', 'pdf', 'options.docx'], ops.dir);
  fs.rmSync(ops.at('profile'), { recursive: true, force: true });
}, 360_000);
afterAll(() => ops.close());

describe('read: bold and italic table cells in PDFs', () => {
  it.each([
    ['Chrome’s print of pandoc’s HTML', 'options-chrome.pdf'],
    ['LibreOffice’s PDF of pandoc’s DOCX', 'options.pdf'],
  ])('%s: a cell set wholly in italic reads as *italic*, bold cells and the paragraph’s bold word as before', async (_producer, pdf) => {
    // What the producer drew, read apart from the reader: a bold and an italic face beside the
    // regular one, and the table's rows side by side, the last cell wrapped: its first words and its last on lines of their own.
    const fonts = fontsOf(pdf);
    expect(fonts).toMatch(/-Bold\b/);
    expect(fonts).toMatch(/-Italic\b/);
    const layout = layoutOf(pdf);
    expect(layout).toMatch(/storePath\s+string\s+Where the commit/);
    const lines = layout.split('\n');
    expect(lines.findIndex((line) => line.includes('The hour of'))).toBeLessThan(lines.findIndex((line) => line.includes('retention hours')));
    const text = (await ops.ok('read', { input: pdf })).text ?? '';
    expect(text).toContain(`stores messages.\n\n${READ_TABLE}\n\nEvery option`);
    expect(text).toContain('The options below change how the broker stores messages.');
  });

  it('Chrome’s print: bold and italic words inside a cell read as **bold** and *italic*', async () => {
    const fonts = fontsOf('watch-chrome.pdf');
    expect(fonts).toMatch(/-Bold\b/);
    expect(fonts).toMatch(/-Italic\b/);
    expect(layoutOf('watch-chrome.pdf')).toMatch(/after\s+watch after an exception, then stop/);
    const text = (await ops.ok('read', { input: 'watch-chrome.pdf' })).text ?? '';
    expect(text).toContain(READ_WATCH);
  });

  it('LibreOffice’s PDF: a bold word inside a wrapped cell reads as **bold**', async () => {
    // The description wraps after "is": the bold word stands in the cell's first line.
    expect(layoutOf('watch.pdf')).toMatch(/before\s+watch before the method is\s*\n\s+called/);
    const text = (await ops.ok('read', { input: 'watch.pdf' })).text ?? '';
    expect(text).toContain('| before | watch **before** the method is called |');
    expect(text).toContain('| plain | nothing set apart here |');
  });
});
