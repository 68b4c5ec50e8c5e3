// A development set of Markdown tables as Chrome prints them (issue 45): the producers corpus's
// Chrome half reads its dev tables at TEDS 0.98 but its held-out ones at 0.35, its dev pages having
// too few tables to show what is lost. These are more pages of the same projects, each with pipe
// tables (wide ones, long wrapping cells, code in cells, Chinese, Persian and Arabic), printed exactly as
// that corpus prints them (pandoc's HTML through Chrome) and scored against pandoc's Markdown. No
// page here is in another corpus list (one dev exception, below), nor a page of the same name held out in another language
// or format; all are dev (the PDF reader may be tuned on them). `npx tsx test/bench/read-dev.ts --chrome-tables`.
//
// Arthas: every page of its manual that holds a pipe table (site/docs/doc, site/docs/en/doc) is
// already in another list in some language or format, so its pages here are the Arthas documents
// with option tables that no list holds: two command pages the manual has since dropped or not yet
// merged (qlexpress on a branch, getcurl from the 2021 Sphinx manual; both Chinese only) and the
// repository's own READMEs and agent guide (parameter tables, English and Chinese), each pinned to
// the commit it is read at.
//
// react.dev (Persian and Arabic, right to left): at the pinned commits six pages hold a pipe table
// (`git grep` over src/content; no page holds an HTML table outside code). `responding-to-events`
// is held out (the producers corpus's Persian Chrome print), so it is here in neither language; the
// other five are here in both. Arabic `importing-and-exporting-components` is also a LibreOffice
// print in fixtures/read-dev (dev too); no other list holds any of them in any language or format.

import fs from 'node:fs';
import path from 'node:path';
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
import { printWithChrome, type Page } from './read-corpus-producers.js';

const page = (repo: Repository, file: string, rtl = false): Page => ({ repo, path: file, producer: 'chrome', rtl });

/** Arthas at another commit than the corpora's pin: the one a page below is read at. */
const arthasAt = (commit: string): Repository => ({ ...ARTHAS, commit });

const PAGES: readonly Page[] = [
  page(arthasAt('1564a47044fe3bc43dfd6d2cb38b9d7fa556d9b6'), 'site/docs/doc/qlexpress.md'),
  page(arthasAt('32df1e022db822d3dc106c17ec7479a50008516a'), 'site/src/site/sphinx/getcurl.md'),
  page(arthasAt('d5362bae97c4ecd5f544f0cf4ddd3ef3b9f7bd39'), 'channel/README.md'),
  page(ARTHAS, 'labs/cluster-management/README.md'),
  page(ARTHAS, 'AGENTS.md'),
  ...['README', 'README_CN'].map((n) => page(arthasAt('eda422866a49b9ab50f6daa188adc8aba38665b5'), `plugins/arthas/${n}.md`)),
  ...['client/java/API_Reference_ DefaultPullConsumer'].map((n) => page(ROCKETMQ, `docs/cn/${n}.md`)),
  ...['Configuration_Client', 'acl/Operations_ACL', 'Operations_Broker', 'Example_Filter', 'Operations_Trace'].map((n) => page(ROCKETMQ, `docs/en/${n}.md`)),
  ...[
    'learn/queueing-a-series-of-state-updates',
    'learn/updating-arrays-in-state',
    'learn/referencing-values-with-refs',
    'reference/react-compiler/directives',
  ].map((n) => page(REACT_FA, `src/content/${n}.md`, true)),
  ...[
    'learn/queueing-a-series-of-state-updates',
    'learn/updating-arrays-in-state',
    'learn/referencing-values-with-refs',
    'reference/react-compiler/directives',
    'learn/importing-and-exporting-components',
  ].map((n) => page(REACT_AR, `src/content/${n}.md`, true)),
  page(REACT_FA, 'src/content/learn/importing-and-exporting-components.md', true),
];

/** Bump when the recipe changes in a way PAGES does not show, to rebuild the cache. */
const RECIPE_VERSION = 1;

/** Prints every page into `dir`: the entries made (a page that fails is named on stderr). */
function build(dir: string): { file: string; groundTruth: string }[] {
  const entries: { file: string; groundTruth: string }[] = [];
  for (const p of PAGES) {
    const base = `${stemOf(p.repo, p.path).replaceAll(' ', '')}-chrome`;
    try {
      const markdown = cleanSiteMarkdown(gitShow(p.repo, p.path).toString('utf8'));
      fs.writeFileSync(path.join(dir, `${base}.md`), markdown);
      printWithChrome(dir, base, p, hasChinese(markdown));
      entries.push({ file: `${base}.pdf`, groundTruth: normalised(markdown) });
    } catch (error) {
      process.stderr.write(`read-corpus-chrome-tables: left out ${base}: ${(error as Error).message.split('\n')[0]}\n`);
    }
  }
  fs.rmSync(path.join(dir, 'chrome-profile'), { recursive: true, force: true });
  return entries;
}

/** The pages printed into `cacheDir` (or read from it while the recipe is unchanged); pages without a mirror are named on stderr. */
export function chromeTablesCorpus(cacheDir: string): CorpusDocument[] {
  const stamp = hashOf({ RECIPE_VERSION, PAGES, mirrors: [ARTHAS, ROCKETMQ, REACT_FA, REACT_AR].map((r) => Boolean(mirrorOf(r))) });
  return cachedEntries(cacheDir, stamp, build).map((e) => ({
    source: 'chrome',
    file: path.join(cacheDir, e.file),
    format: 'pdf',
    groundTruth: e.groundTruth,
    chinese: hasChinese(e.groundTruth),
    set: 'dev' as const,
  }));
}
