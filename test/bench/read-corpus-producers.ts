// PDFs from many producers (issue 45): the held-out corpus's PDFs come mostly from one producer
// (LibreOffice), the hidden corpus's from many. Here the same kind of pages (Arthas's manual in
// English and Chinese, RocketMQ's Chinese docs, react.dev in Persian and Arabic; licences in
// fixtures/README.md) are printed by other programs, each setting headings its own way:
//   - Chrome's print (Skia/PDF) of pandoc's HTML — also the right-to-left pages;
//   - the same with a manual's style sheet: sections numbered (`1.2 …`; Chinese `一、`, `（一）`,
//     `1.`) and set in the body's size, the first level bold, the others in the body's weight;
//   - groff (gropdf) of pandoc's ms with numbered headings: `1.2.3 Title` in bold at body size;
//   - Ghostscript (ps2pdf) of groff's PostScript without numbers: bold runs at body size;
//   - LibreOffice Impress of pandoc's pptx: presentations saved as PDF, slide titles as headings.
// The ground truth is the page's Markdown as pandoc normalises it (groff's numbers added to its
// headings, as it prints them). Each document is either `dev` — the half the PDF reader may be
// tuned on — or `held-out`, never tuned on, by a hash of its name, so the split does not move
// when documents are added. Built into a cache dir (.bench-work/, not committed) from the local
// mirrors, as read-corpus-heldout.ts builds its own.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { runSoffice } from '../helpers/soffice.js';
import { hasChinese, type CorpusDocument } from './read-corpus.js';
import { cachedEntries } from './corpus-cache.js';
import {
  ARTHAS,
  REACT_AR,
  REACT_FA,
  ROCKETMQ,
  cleanSiteMarkdown,
  gitShow,
  hashOf,
  mirrorOf,
  normalised,
  stemOf,
  type Repository,
} from './read-corpus-heldout.js';

export type Producer = 'chrome' | 'chrome-numbered' | 'groff' | 'ghostscript' | 'impress';

export interface Page {
  repo: Repository;
  path: string;
  producer: Producer;
  rtl?: boolean;
}

const arthasEn = (name: string) => `site/docs/en/doc/${name}.md`;
const arthasZh = (name: string) => `site/docs/doc/${name}.md`;
const rocketmq = (name: string) => `docs/cn/${name}.md`;
const reactLearn = (name: string) => `src/content/learn/${name}.md`;
const each = (repo: Repository, producer: Producer, paths: readonly string[], rtl = false): Page[] => paths.map((p) => ({ repo, path: p, producer, rtl }));

/**
 * None of these pages is in the PDF reader's development set (fixtures/read-dev) or among the
 * held-out corpus's PDFs. groff has no Chinese or Arabic faces, so it prints English pages only.
 */
const PAGES: readonly Page[] = [
  ...each(ARTHAS, 'chrome', ['agent', 'auth', 'base64', 'cls', 'echo', 'jfr', 'mc', 'reset', 'save-log', 'stop', 'version', 'retransform'].map(arthasEn)),
  ...each(ARTHAS, 'chrome', ['async', 'base64', 'echo', 'mc', 'reset', 'session'].map(arthasZh)),
  ...each(ROCKETMQ, 'chrome', ['Example_Compaction_Topic_cn', 'dledger/deploy_guide', 'Debug_In_Idea', 'RocketMQ_Example'].map(rocketmq)),
  ...each(REACT_FA, 'chrome', ['responding-to-events', 'thinking-in-react', 'state-a-components-memory'].map(reactLearn), true),
  ...each(
    REACT_AR,
    'chrome',
    ['describing-the-ui', 'javascript-in-jsx-with-curly-braces', 'thinking-in-react', 'keeping-components-pure'].map(reactLearn),
    true,
  ),
  ...each(
    ARTHAS,
    'groff',
    ['getstatic', 'grep', 'groovy', 'history', 'jvm', 'keymap', 'logger', 'mbean', 'memory', 'perfcounter', 'redefine', 'stack'].map(arthasEn),
  ),
  ...each(
    ARTHAS,
    'chrome-numbered',
    ['arthas-properties', 'external-command', 'install-detail', 'manual-install', 'idea-plugin', 'async', 'advice-class', 'mcp-server'].map(arthasEn),
  ),
  ...each(
    ARTHAS,
    'chrome-numbered',
    ['arthas-properties', 'external-command', 'install-detail', 'manual-install', 'idea-plugin', 'advanced-use', 'ai', 'auth'].map(arthasZh),
  ),
  ...each(ARTHAS, 'ghostscript', ['sm', 'sysenv', 'sysprop', 'tee', 'vmtool', 'dump', 'jad', 'line', 'ognl', 'cat', 'help', 'pwd'].map(arthasEn)),
  ...each(ARTHAS, 'impress', ['batch-support', 'start-arthas', 'http-api', 'tunnel', 'quick-start', 'web-console'].map(arthasEn)),
  ...each(ARTHAS, 'impress', ['getstatic', 'perfcounter', 'sysprop', 'vmoption'].map(arthasZh)),
  // Added 2026-12-06, so the held-out half holds at least 100 PDFs (issue 45): pages no list held in
  // any language or format, the react.dev ones translated at the pins, each in one language only.
  ...each(
    REACT_FA,
    'chrome',
    ['conditional-rendering', 'rendering-lists', 'state-as-a-snapshot', 'react-developer-tools', 'sharing-state-between-components'].map(reactLearn),
    true,
  ),
  ...each(REACT_AR, 'chrome', ['passing-props-to-a-component', 'managing-state', 'adding-interactivity'].map(reactLearn), true),
  ...each(ARTHAS, 'groff', ['commands', 'download', 'quit'].map(arthasEn)),
  ...each(
    ROCKETMQ,
    'ghostscript',
    ['Concept', 'Design_LoadBlancing', 'Design_Trancation', 'Example_Transaction', 'Operations_Producer'].map((n) => `docs/en/${n}.md`),
  ),
];

/** Bump when the recipe changes in a way PAGES does not show, to rebuild the cache. */
const RECIPE_VERSION = 3;

/** The tuning half: a fixed half of the names, by hash. */
export const isDevDocument = (name: string) => parseInt(hashOf(name).slice(0, 2), 16) < 128;

/** How a heading's number is written, from its counters (the first level numbered first). */
type Numbering = (counters: readonly number[]) => string;

/** groff's `.NH` and the English manual's style sheet: `1`, `1.1`, `1.1.1`. */
const ARABIC: Numbering = (counters) => counters.map((n) => n || 1).join('.');

const HAN_DIGITS = '〇一二三四五六七八九';
/** Chinese numerals as CSS's cjk-decimal… style writes them up to 99 (cjk-ideographic: 十一, 二十). */
const han = (n: number) => (n < 10 ? (HAN_DIGITS[n] as string) : `${n >= 20 ? HAN_DIGITS[Math.floor(n / 10)] : ''}十${n % 10 ? HAN_DIGITS[n % 10] : ''}`);
/** The Chinese manual's style sheet: `一、`, `（一）`, `1.`. */
const CHINESE: Numbering = (counters) => {
  const n = counters.at(-1) || 1;
  return [`${han(n)}、`, `（${han(n)}）`, `${n}.`][counters.length - 1] ?? `${n}.`;
};

/** The numbers a producer prints before headings from `fromLevel` down, put before the ground truth's headings. */
function numberedHeadings(markdown: string, numbering: Numbering, fromLevel = 1): string {
  const counters: number[] = [];
  let inCode = false;
  return markdown
    .split('\n')
    .map((line) => {
      if (/^\s*```/.test(line)) inCode = !inCode;
      const heading = inCode ? null : /^(#{1,6}) (.*)$/.exec(line);
      if (!heading || (heading[1] as string).length < fromLevel) return line;
      const depth = (heading[1] as string).length - fromLevel + 1;
      while (counters.length < depth) counters.push(0);
      counters.length = depth;
      counters[depth - 1] = (counters[depth - 1] as number) + 1;
      return `${heading[1]} ${numbering(counters)} ${heading[2]}`;
    })
    .join('\n');
}

/**
 * A manual's style sheet for Chrome: `##` to `####` numbered by CSS counters and set in the
 * body's size, `##` bold, the deeper ones in the body's weight (as numbering() above writes them).
 */
function manualStyle(chinese: boolean): string {
  const [h2, h3, h4] = chinese
    ? ['counter(h2, cjk-ideographic) "、"', '"（" counter(h3, cjk-ideographic) "）"', 'counter(h4) ". "']
    : ['counter(h2) " "', 'counter(h2) "." counter(h3) " "', 'counter(h2) "." counter(h3) "." counter(h4) " "'];
  return `<style>
body { counter-reset: h2; font-size: 11pt; }
h2, h3, h4 { font-size: 1em; margin: 1.2em 0 0.4em; }
h2 { counter-reset: h3; } h3 { counter-reset: h4; font-weight: normal; } h4 { font-weight: normal; }
h2::before { counter-increment: h2; content: ${h2}; }
h3::before { counter-increment: h3; content: ${h3}; }
h4::before { counter-increment: h4; content: ${h4}; }
</style>`;
}

/** Blocks of Markdown: fenced code kept whole, others split at blank lines. */
function markdownBlocks(markdown: string): string[] {
  const blocks: string[] = [];
  let current: string[] = [];
  let inCode = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) inCode = !inCode;
    if (!inCode && line.trim() === '') {
      if (current.length) blocks.push(current.join('\n'));
      current = [];
    } else current.push(line);
  }
  if (current.length) blocks.push(current.join('\n'));
  return blocks;
}

/**
 * A page cut to what fits on slides, so the ground truth is what the slides show (text running
 * off a slide is clipped in its PDF): every heading a slide title (`##`, the first `#`), then at
 * most three blocks, a code block or table at most 8 lines of 70 characters.
 */
function slideSized(markdown: string): string {
  const out: string[] = [];
  let kept = 0;
  for (const block of markdownBlocks(markdown)) {
    const heading = /^(#{1,6}) (.*)$/.exec(block);
    if (heading) {
      out.push(`${out.length ? '##' : '#'} ${heading[2]}`);
      kept = 0;
    } else if (kept++ < 3) {
      const lines = block.split('\n');
      const fenced = /^\s*```/.test(lines[0] as string);
      const cut = fenced ? [...lines.slice(0, 9).map((l) => l.slice(0, 70)), '```'] : lines.slice(0, 8);
      out.push((fenced && lines.length <= 10 ? lines : cut).join('\n'));
    }
  }
  return `${out.join('\n\n')}\n`;
}

export function printWithChrome(dir: string, base: string, page: Page, chinese: boolean): void {
  const meta = ['--metadata', `pagetitle=${base}`, ...(page.rtl ? ['--metadata', 'dir=rtl'] : [])];
  if (page.producer === 'chrome-numbered') fs.writeFileSync(path.join(dir, `${base}.css.html`), manualStyle(chinese));
  const style = page.producer === 'chrome-numbered' ? ['-H', `${base}.css.html`] : [];
  execFileSync('pandoc', [`${base}.md`, '-f', 'gfm', '-s', ...meta, ...style, '-o', `${base}.html`], { cwd: dir });
  printHtmlWithChrome(dir, `${base}.html`, `${base}.pdf`);
  fs.rmSync(path.join(dir, `${base}.html`));
  fs.rmSync(path.join(dir, `${base}.css.html`), { force: true });
}

/** Chrome's print of an HTML file in `dir` to a PDF there (its profile in `dir/chrome-profile`, for the caller to remove). */
export function printHtmlWithChrome(dir: string, html: string, pdf: string): void {
  const profile = path.join(dir, 'chrome-profile');
  execFileSync(
    'chromium',
    ['--headless', '--no-sandbox', '--disable-gpu', '--no-pdf-header-footer', `--user-data-dir=${profile}`, `--print-to-pdf=${pdf}`, html],
    {
      cwd: dir,
      stdio: 'ignore',
      timeout: 120_000,
    },
  );
}

/** groff's PDF (gropdf) or PostScript through Ghostscript, from pandoc's ms; tables through tbl, UTF-8 through preconv. */
export function printWithGroff(dir: string, base: string, numbered: boolean): void {
  const ms = execFileSync('pandoc', [`${base}.md`, '-f', 'gfm', '-t', 'ms', '-s', ...(numbered ? ['-N'] : [])], { cwd: dir });
  if (numbered) fs.writeFileSync(path.join(dir, `${base}.pdf`), execFileSync('groff', ['-ms', '-t', '-k', '-Tpdf'], { input: ms, maxBuffer: 1 << 28 }));
  else execFileSync('ps2pdf', ['-', `${base}.pdf`], { cwd: dir, input: execFileSync('groff', ['-ms', '-t', '-k', '-Tps'], { input: ms, maxBuffer: 1 << 28 }) });
}

interface Entry {
  file: string;
  producer: Producer;
  groundTruth: string;
}

function build(dir: string, skipped: string[]): Entry[] {
  const out: Entry[] = [];
  const slides: string[] = [];
  for (const page of PAGES) {
    let markdown: string;
    try {
      markdown = cleanSiteMarkdown(gitShow(page.repo, page.path).toString('utf8'));
    } catch (error) {
      skipped.push(`${page.repo.name} ${page.path}: ${(error as Error).message.split('\n')[0]}`);
      continue;
    }
    if (page.producer === 'impress') markdown = slideSized(markdown);
    const base = `${stemOf(page.repo, page.path)}-${page.producer}`;
    fs.writeFileSync(path.join(dir, `${base}.md`), markdown);
    const groundTruth = normalised(markdown);
    try {
      if (page.producer === 'chrome' || page.producer === 'chrome-numbered') printWithChrome(dir, base, page, hasChinese(markdown));
      else if (page.producer === 'impress') {
        execFileSync('pandoc', [`${base}.md`, '-f', 'gfm', '--slide-level=2', '-o', `${base}.pptx`], { cwd: dir });
        slides.push(`${base}.pptx`);
      } else printWithGroff(dir, base, page.producer === 'groff');
    } catch (error) {
      skipped.push(`${base}: ${(error as Error).message.split('\n')[0]}`);
      continue;
    }
    const truth =
      page.producer === 'groff'
        ? numberedHeadings(groundTruth, ARABIC)
        : page.producer === 'chrome-numbered'
          ? numberedHeadings(groundTruth, hasChinese(markdown) ? CHINESE : ARABIC, 2)
          : groundTruth;
    out.push({ file: `${base}.pdf`, producer: page.producer, groundTruth: truth });
  }
  if (slides.length) runSoffice(path.join(dir, 'profile'), ['--convert-to', 'pdf', ...slides], dir);
  for (const leftover of ['profile', 'chrome-profile']) fs.rmSync(path.join(dir, leftover), { recursive: true, force: true });
  return out.filter((e) => {
    const made = fs.existsSync(path.join(dir, e.file));
    if (!made) skipped.push(`${e.file}: not printed`);
    return made;
  });
}

/**
 * The producers' PDFs, built into `cacheDir` (or read from it while the recipe is unchanged).
 * Pages whose repository has no mirror here are left out and named on stderr.
 */
export function producersCorpus(cacheDir: string): CorpusDocument[] {
  const stamp = hashOf({ RECIPE_VERSION, PAGES, mirrors: [ARTHAS, ROCKETMQ, REACT_FA, REACT_AR].map((r) => Boolean(mirrorOf(r))) });
  const entries = cachedEntries(cacheDir, stamp, (dir) => {
    const skipped: string[] = [];
    const built = build(dir, skipped);
    for (const s of skipped) process.stderr.write(`read-corpus-producers: left out ${s}\n`);
    return built;
  });
  return entries.map((e) => ({
    source: e.producer,
    file: path.join(cacheDir, e.file),
    format: 'pdf',
    groundTruth: e.groundTruth,
    chinese: hasChinese(e.groundTruth),
    set: isDevDocument(e.file) ? ('dev' as const) : ('held-out' as const),
  }));
}
