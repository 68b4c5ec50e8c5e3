// Hebrew documents (issue 45: the corpora had Arabic and Persian, no Hebrew). Short texts written
// in Hebrew for docwasm (fixtures/reading-hebrew; licences in fixtures/README.md) — headings in
// three levels, lists, a table, numbers, Latin names and commands inside Hebrew lines — each made
// into a DOCX and a standalone HTML page by pandoc (right to left), a PDF by LibreOffice from the
// DOCX and a PDF by Chrome's print from the HTML. The ground truth is the text's Markdown as pandoc
// normalises it. Each document is `dev` or `held-out` by the hash of its name, as
// read-corpus-producers.ts splits its PDFs. Built into a cache dir (.bench-work/, not committed).

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../helpers/service.js';
import { runSoffice } from '../helpers/soffice.js';
import type { CorpusDocument } from './read-corpus.js';
import { cachedEntries } from './corpus-cache.js';
import { hashOf, normalised } from './read-corpus-heldout.js';
import { isDevDocument, printHtmlWithChrome } from './read-corpus-producers.js';

const SOURCES = path.join(ROOT, 'fixtures/reading-hebrew');

/** Bump when the recipe changes in a way the sources do not show, to rebuild the cache. */
const RECIPE_VERSION = 1;

interface Entry {
  file: string;
  /** Who made it: pandoc (docx, html), LibreOffice (its PDF, as the report's producers table names it by default) or chrome. */
  source: string;
  format: string;
  groundTruth: string;
}

function build(dir: string, names: readonly string[], skipped: string[]): Entry[] {
  const out: Entry[] = [];
  for (const name of names) {
    const markdown = fs.readFileSync(path.join(SOURCES, `${name}.md`), 'utf8');
    const groundTruth = normalised(markdown);
    const title = /^#\s+(.*)$/m.exec(markdown)?.[1] ?? name;
    fs.writeFileSync(path.join(dir, `${name}.md`), markdown);
    const pandoc = (args: readonly string[]) => execFileSync('pandoc', [`${name}.md`, '-f', 'gfm', '--metadata', 'dir=rtl', ...args], { cwd: dir });
    pandoc(['-o', `${name}.docx`]);
    pandoc(['-s', '--metadata', `title=${title}`, '-o', `${name}.html`]);
    // LibreOffice converts every DOCX at once below; its PDF keeps the DOCX's name, so a copy is named for it.
    fs.copyFileSync(path.join(dir, `${name}.docx`), path.join(dir, `${name}-libreoffice.docx`));
    try {
      pandoc(['-s', '--metadata', `pagetitle=${name}`, '-o', `${name}-chrome.html`]);
      printHtmlWithChrome(dir, `${name}-chrome.html`, `${name}-chrome.pdf`);
      fs.rmSync(path.join(dir, `${name}-chrome.html`));
      out.push({ file: `${name}-chrome.pdf`, source: 'chrome', format: 'pdf', groundTruth });
    } catch (error) {
      skipped.push(`${name}-chrome.pdf: ${(error as Error).message.split('\n')[0]}`);
    }
    out.push(
      { file: `${name}.docx`, source: 'hebrew', format: 'docx', groundTruth },
      { file: `${name}.html`, source: 'hebrew', format: 'html', groundTruth },
      { file: `${name}-libreoffice.pdf`, source: 'hebrew', format: 'pdf', groundTruth },
    );
  }
  runSoffice(path.join(dir, 'profile'), ['--convert-to', 'pdf', ...names.map((n) => `${n}-libreoffice.docx`)], dir);
  for (const leftover of ['profile', 'chrome-profile']) fs.rmSync(path.join(dir, leftover), { recursive: true, force: true });
  for (const name of names) fs.rmSync(path.join(dir, `${name}-libreoffice.docx`));
  return out.filter((e) => {
    const made = fs.existsSync(path.join(dir, e.file));
    if (!made) skipped.push(`${e.file}: not made`);
    return made;
  });
}

/** The Hebrew documents, built into `cacheDir` (or read from it while the sources and recipe are unchanged). */
export function hebrewCorpus(cacheDir: string): CorpusDocument[] {
  const names = fs
    .readdirSync(SOURCES)
    .filter((f) => f.endsWith('.md'))
    .map((f) => f.slice(0, -3))
    .sort();
  const stamp = hashOf({ RECIPE_VERSION, sources: names.map((n) => fs.readFileSync(path.join(SOURCES, `${n}.md`), 'utf8')) });
  const entries = cachedEntries(cacheDir, stamp, (dir) => {
    const skipped: string[] = [];
    const built = build(dir, names, skipped);
    for (const s of skipped) process.stderr.write(`read-corpus-hebrew: left out ${s}\n`);
    return built;
  });
  return entries.map((e) => ({
    source: e.source,
    file: path.join(cacheDir, e.file),
    format: e.format,
    groundTruth: e.groundTruth,
    chinese: false,
    set: isDevDocument(e.file) ? ('dev' as const) : ('held-out' as const),
  }));
}
