// A development set of pdfTeX papers with tables (issue 45): docling's test PDFs are the held-out
// producer read worst (TEDS 0.50), and no dev set holds papers like them. docling's own arXiv test
// PDFs (2203.01017v2, 2206.01062, 2305.03393v1) are 4 MiB or more, so no mirror holds them, and
// its skipped_1page/skipped_2pages have no ground truth. docling's repository does hold the LaTeX
// sources of arXiv papers with ground truth (tests/data/latex: its LaTeX reader's Markdown of each
// source), so these are those papers typeset here by pdflatex and scored against that Markdown.
// Licence: docling's test data (MIT). None of these is in any other corpus list, and none is held
// out: all are dev (the PDF reader may be tuned on them). 2305.03393 is the paper whose page 9 is
// in the tuned set. `npx tsx test/bench/read-dev.ts --docling`.
//
// The ground truth is docling's reading of the source, not of the page: where it is plainly not
// what the page shows (macros it leaves unexpanded, citations), that loss is not chased.
// Needs pdflatex with texlive-latex-extra (multirow, nicefrac, environ); Times (ptm) is not
// assumed, so the NeurIPS styles are set in Computer Modern. Papers that fail to build are named
// on stderr and left out (2412.19437 needs newtxmath, and 2501.00089 and 2501.01300 have no table).

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { hasChinese, type CorpusDocument } from './read-corpus.js';
import { cachedEntries } from './corpus-cache.js';
import { gitShow, hashOf, mirrorOf, type Repository } from './read-corpus-heldout.js';

const DOCLING: Repository = { name: 'docling-project/docling', commit: 'e1cb2b234c48ff29746b0f2f843d07f8e23905a0' };
const PAPERS: readonly string[] = ['1706.03762', '2305.03393', '2310.06825'];

/** Bump when the recipe changes in a way PAPERS does not show, to rebuild the cache. */
const RECIPE_VERSION = 1;

/** The files of a paper's source folder at the pinned commit. */
function sourceFiles(paper: string): string[] {
  const mirror = mirrorOf(DOCLING);
  if (!mirror) throw new Error(`no mirror of ${DOCLING.name}`);
  const listing = execFileSync('git', ['-C', mirror, 'ls-tree', '-r', '--name-only', DOCLING.commit, `tests/data/latex/sources/${paper}/`], {
    encoding: 'utf8',
  });
  return listing.split('\n').filter(Boolean);
}

/** Sets the NeurIPS styles' Times (ptm, T1) in Computer Modern: Times's TeX fonts are not assumed installed. */
const withoutTimes = (file: string, text: string) =>
  /\.(sty|tex)$/.test(file) ? text.replace(/^\\renewcommand\{\\rmdefault\}\{ptm\}/m, '').replace(/^\\usepackage\[T1\]\{fontenc\}/m, '') : text;

/** Extracts one paper's sources into `dir` and typesets main.tex twice (for references); returns the PDF's path. */
function typeset(paper: string, dir: string): string {
  const prefix = `tests/data/latex/sources/${paper}/`;
  for (const file of sourceFiles(paper)) {
    const target = path.join(dir, file.slice(prefix.length));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    const content = gitShow(DOCLING, file);
    fs.writeFileSync(target, /\.(sty|tex)$/.test(file) ? withoutTimes(file, content.toString('utf8')) : content);
  }
  for (let pass = 0; pass < 2; pass++) {
    try {
      execFileSync('pdflatex', ['-interaction=batchmode', 'main.tex'], { cwd: dir, stdio: 'ignore', timeout: 600_000 });
    } catch {
      // pdflatex exits 1 on recoverable errors (a missing figure) while still writing the PDF; checked below.
    }
  }
  const pdf = path.join(dir, 'main.pdf');
  if (!fs.existsSync(pdf)) throw new Error('pdflatex made no PDF (see main.log)');
  return pdf;
}

/** Typesets every paper into `dir`: the entries made (a paper that fails is named on stderr). */
function build(dir: string): { file: string; groundTruth: string }[] {
  const entries: { file: string; groundTruth: string }[] = [];
  for (const paper of PAPERS) {
    try {
      const pdf = typeset(paper, path.join(dir, paper));
      const file = `${paper}-pdftex.pdf`;
      fs.copyFileSync(pdf, path.join(dir, file));
      entries.push({ file, groundTruth: gitShow(DOCLING, `tests/data/latex/groundtruth/${paper}_main.tex.md`).toString('utf8') });
    } catch (error) {
      process.stderr.write(`read-corpus-docling-dev: left out ${paper}: ${(error as Error).message.split('\n')[0]}\n`);
    }
    fs.rmSync(path.join(dir, paper), { recursive: true, force: true });
  }
  return entries;
}

/** The papers typeset into `cacheDir` (or read from it while the recipe is unchanged). */
export function doclingDevCorpus(cacheDir: string): CorpusDocument[] {
  const stamp = hashOf({ RECIPE_VERSION, DOCLING, PAPERS, mirror: Boolean(mirrorOf(DOCLING)) });
  return cachedEntries(cacheDir, stamp, build).map((e) => ({
    source: 'docling',
    file: path.join(cacheDir, e.file),
    format: 'pdf',
    groundTruth: e.groundTruth,
    chinese: hasChinese(e.groundTruth),
    set: 'dev' as const,
  }));
}
