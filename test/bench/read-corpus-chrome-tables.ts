// A development set of Markdown tables as Chrome prints them (issue 45): the producers corpus's
// Chrome half reads its dev tables at TEDS 0.98 but its held-out ones at 0.35, its dev pages having
// too few tables to show what is lost. These are more pages of the same projects, each with pipe
// tables (wide ones, long wrapping cells, code in cells, Chinese and Persian), printed exactly as
// that corpus prints them (pandoc's HTML through Chrome) and scored against pandoc's Markdown. No
// page here is in any other corpus list, nor a page of the same name held out in another language
// or format; all are dev (the PDF reader may be tuned on them). `npx tsx test/bench/read-dev.ts --chrome-tables`.

import fs from 'node:fs';
import path from 'node:path';
import { hasChinese, type CorpusDocument } from './read-corpus.js';
import { REACT_FA, ROCKETMQ, cleanSiteMarkdown, gitShow, hashOf, mirrorOf, normalised, stemOf, type Repository } from './read-corpus-heldout.js';
import { printWithChrome, type Page } from './read-corpus-producers.js';

const page = (repo: Repository, file: string, rtl = false): Page => ({ repo, path: file, producer: 'chrome', rtl });

const PAGES: readonly Page[] = [
  ...['client/java/API_Reference_ DefaultPullConsumer'].map((n) => page(ROCKETMQ, `docs/cn/${n}.md`)),
  ...['Configuration_Client', 'acl/Operations_ACL', 'Operations_Broker', 'Example_Filter', 'Operations_Trace'].map((n) => page(ROCKETMQ, `docs/en/${n}.md`)),
  ...[
    'learn/queueing-a-series-of-state-updates',
    'learn/updating-arrays-in-state',
    'learn/referencing-values-with-refs',
    'reference/react-compiler/directives',
  ].map((n) => page(REACT_FA, `src/content/${n}.md`, true)),
];

/** Bump when the recipe changes in a way PAGES does not show, to rebuild the cache. */
const RECIPE_VERSION = 1;

/** The pages printed into `cacheDir` (or read from it while the recipe is unchanged); pages without a mirror are named on stderr. */
export function chromeTablesCorpus(cacheDir: string): CorpusDocument[] {
  const manifestFile = path.join(cacheDir, 'manifest.json');
  const stamp = hashOf({ RECIPE_VERSION, PAGES, mirrors: [ROCKETMQ, REACT_FA].map((r) => Boolean(mirrorOf(r))) });
  let manifest = (fs.existsSync(manifestFile) ? JSON.parse(fs.readFileSync(manifestFile, 'utf8')) : {}) as {
    stamp?: string;
    entries?: { file: string; groundTruth: string }[];
  };
  if (manifest.stamp !== stamp) {
    fs.rmSync(cacheDir, { recursive: true, force: true });
    fs.mkdirSync(cacheDir, { recursive: true });
    const entries: { file: string; groundTruth: string }[] = [];
    for (const p of PAGES) {
      const base = `${stemOf(p.repo, p.path).replaceAll(' ', '')}-chrome`;
      try {
        const markdown = cleanSiteMarkdown(gitShow(p.repo, p.path).toString('utf8'));
        fs.writeFileSync(path.join(cacheDir, `${base}.md`), markdown);
        printWithChrome(cacheDir, base, p, hasChinese(markdown));
        entries.push({ file: `${base}.pdf`, groundTruth: normalised(markdown) });
      } catch (error) {
        process.stderr.write(`read-corpus-chrome-tables: left out ${base}: ${(error as Error).message.split('\n')[0]}\n`);
      }
    }
    fs.rmSync(path.join(cacheDir, 'chrome-profile'), { recursive: true, force: true });
    manifest = { stamp, entries };
    fs.writeFileSync(manifestFile, JSON.stringify(manifest, null, 1));
  }
  return (manifest.entries ?? []).map((e) => ({
    source: 'chrome',
    file: path.join(cacheDir, e.file),
    format: 'pdf',
    groundTruth: e.groundTruth,
    chinese: hasChinese(e.groundTruth),
    set: 'dev' as const,
  }));
}
