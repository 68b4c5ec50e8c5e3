// A development set of technical manuals' option tables as LibreOffice, Chrome and groff print
// them (issue 45): the held-out corpus's LibreOffice Writer PDFs of such pages read TEDS 0.91, its
// Chrome prints 0.47 and the producers corpus's groff → Ghostscript prints 0.89, but every Arthas
// and RocketMQ page with a table is already in some list, so the dev sets no longer show what
// those PDFs lose (the Chrome dev set, read-corpus-chrome-tables.ts, reads 0.95: its pages lack
// the wide tables the held-out ones lose on). These are the same kind of pages from another
// project: DataX's plugin manuals (alibaba/DataX, Apache-2.0, pinned at 60ea07b7 of 2025-07-01),
// parameter, type-mapping and sample-data tables, mostly in Chinese; every page is also printed
// by Chrome, and its two English pages by groff → Ghostscript too. Each page is printed exactly as
// those corpora print theirs (read-corpus-heldout.ts's "-pdf" recipe: pandoc's DOCX through
// LibreOffice; read-corpus-producers.ts's pandoc HTML through headless Chromium, and its groff
// PostScript through ps2pdf) and scored against pandoc's Markdown. None is in any other corpus list; none is held out: all are dev (the
// PDF reader may be tuned on them). `npx tsx test/bench/read-dev.ts --manuals [filter]`.

import fs from 'node:fs';
import path from 'node:path';
import { hasChinese, type CorpusDocument } from './read-corpus.js';
import { cachedEntries } from './corpus-cache.js';
import { cleanSiteMarkdown, convertWithLibreOffice, gitShow, hashOf, mirrorOf, normalised, renderWithPandoc, type Repository } from './read-corpus-heldout.js';
import { printWithChrome, printWithGroff } from './read-corpus-producers.js';

const DATAX: Repository = { name: 'alibaba/DataX', commit: '60ea07b73086785849f9b9bec9c27308b6ffec55' };

/** Chinese plugin manuals (near-twins such as postgresqlwriter beside mysqlwriter left out). */
const CHINESE = [
  'mysqlwriter/doc/mysqlwriter.md',
  'odpswriter/doc/odpswriter.md',
  'tdenginewriter/doc/tdenginewriter-CN.md',
  'hbase11xreader/doc/hbase11xreader.md',
  'kuduwriter/doc/kuduwirter.md',
  'neo4jwriter/doc/neo4jwriter.md',
  'hbase11xsqlreader/doc/hbase11xsqlreader.md',
  'tsdbwriter/doc/tsdbhttpwriter.md',
  'otsstreamreader/README.md',
  'ossreader/doc/ossreader.md',
  'hdfswriter/doc/hdfswriter.md',
  'mongodbreader/doc/mongodbreader.md',
];
/** The English manuals (DataX has no others with tables). */
const ENGLISH = ['tdenginewriter/doc/tdenginewriter.md', 'databendwriter/doc/databendwriter.md'];

type Printer = 'pdf' | 'chrome' | 'ghostscript';
const PAGES: readonly { path: string; printer: Printer }[] = [
  ...[...CHINESE, ...ENGLISH].map((p) => ({ path: p, printer: 'pdf' as const })),
  ...[...CHINESE, ...ENGLISH].map((p) => ({ path: p, printer: 'chrome' as const })),
  ...ENGLISH.map((p) => ({ path: p, printer: 'ghostscript' as const })),
];

/** Bump when the recipe changes in a way PAGES does not show, to rebuild the cache. */
const RECIPE_VERSION = 2;

/** `datax__<page>`, a README named after its plugin's folder. */
const stemOf = (file: string) => `datax__${path.basename(file, '.md') === 'README' ? file.split('/')[0] : path.basename(file, '.md')}`;

function build(dir: string): { file: string; groundTruth: string }[] {
  const entries: { file: string; groundTruth: string }[] = [];
  const docx: string[] = [];
  for (const page of PAGES) {
    const base = `${stemOf(page.path)}-${page.printer}`;
    try {
      const markdown = cleanSiteMarkdown(gitShow(DATAX, page.path).toString('utf8'));
      fs.writeFileSync(path.join(dir, `${base}.md`), markdown);
      if (page.printer === 'pdf') {
        renderWithPandoc(dir, base, 'pdf', base);
        docx.push(`${base}.docx`);
      } else if (page.printer === 'chrome') printWithChrome(dir, base, { repo: DATAX, path: page.path, producer: 'chrome' }, hasChinese(markdown));
      else printWithGroff(dir, base, false);
      entries.push({ file: `${base}.pdf`, groundTruth: normalised(markdown) });
    } catch (error) {
      process.stderr.write(`read-corpus-manuals-dev: left out ${base}: ${(error as Error).message.split('\n')[0]}\n`);
    }
  }
  convertWithLibreOffice(dir, 'pdf', docx);
  fs.rmSync(path.join(dir, 'chrome-profile'), { recursive: true, force: true });
  return entries.filter((e) => {
    const made = fs.existsSync(path.join(dir, e.file));
    if (!made) process.stderr.write(`read-corpus-manuals-dev: left out ${e.file}: not printed\n`);
    return made;
  });
}

/** The program that printed a page, from its file name's printer suffix. */
function sourceOf(file: string): string {
  if (file.endsWith('-ghostscript.pdf')) return 'ghostscript';
  return file.endsWith('-chrome.pdf') ? 'chrome' : 'libreoffice';
}

/** The pages printed into `cacheDir` (or read from it while the recipe is unchanged); without DataX's mirror, none. */
export function manualsDevCorpus(cacheDir: string): CorpusDocument[] {
  const stamp = hashOf({ RECIPE_VERSION, DATAX, PAGES, mirror: Boolean(mirrorOf(DATAX)) });
  return cachedEntries(cacheDir, stamp, build).map((e) => ({
    source: sourceOf(e.file),
    file: path.join(cacheDir, e.file),
    format: 'pdf',
    groundTruth: e.groundTruth,
    chinese: hasChinese(e.groundTruth),
    set: 'dev' as const,
  }));
}
