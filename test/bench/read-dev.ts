// Reading quality on the PDF development set (fixtures/read-dev, made by its make.ts): each PDF
// read in-process by the PDF worker's reader and scored against its source Markdown with the
// opendataloader-bench metrics (read-metrics.ts). `npx tsx test/bench/read-dev.ts [name-filter]`;
// `--show name` prints one document's Markdown (also after a set's flag); `--held-out [name-filter]` scores the PDFs of the
// held-out corpus instead (read-corpus-heldout.ts, the read-quality bench's cache), in-process and
// without peers, so that a change to the PDF reader is measured there in a minute; `--producers
// [filter]` scores the development half of the PDFs from many producers (read-corpus-producers.ts)
// and `--producers-held-out [filter]` its held-out half (measure there, never tune); `--hebrew
// [filter]` the development half of the Hebrew PDFs (read-corpus-hebrew.ts); `--tuned [filter]` the
// tuned set's PDFs in fixtures/reading (each beside its `.pdf.md` ground truth); `--headings
// [filter]` PDFs whose headings only weight and numbering mark (read-corpus-headings.ts); `--chrome-tables
// [filter]` Chrome's prints of more pages with Markdown tables, all dev (read-corpus-chrome-tables.ts); `--manuals
// [filter]` LibreOffice's, Chrome's and groff's prints of DataX's plugin manuals, all dev (read-corpus-manuals-dev.ts); `--docling
// [filter]` pdfTeX papers typeset from docling's LaTeX test sources, all dev (read-corpus-docling-dev.ts). CPU time is the
// process's user+system time spent reading, per page.

import fs from 'node:fs';
import path from 'node:path';
import { readPdfMarkdown } from '../../wasm/pdf/read-task.js';
import { ROOT } from '../helpers/service.js';
import { heldOutCorpus } from './read-corpus-heldout.js';
import { producersCorpus } from './read-corpus-producers.js';
import { hebrewCorpus } from './read-corpus-hebrew.js';
import { headingsCorpus } from './read-corpus-headings.js';
import { chromeTablesCorpus } from './read-corpus-chrome-tables.js';
import { manualsDevCorpus } from './read-corpus-manuals-dev.js';
import { doclingDevCorpus } from './read-corpus-docling-dev.js';
import { scoreMarkdown, type DocumentScores } from './read-metrics.js';

const DIR = path.join(ROOT, 'fixtures', 'read-dev');

function readMarkdown(file: string): { markdown: string; pages: number; cpuMs: number } {
  const start = process.cpuUsage();
  const read = readPdfMarkdown({ input: { path: file }, maxPages: 100_000, maxCharacters: 5_000_000 }, (ref) => fs.readFileSync(ref.path), 1e10);
  const used = process.cpuUsage(start);
  return { markdown: read.pages.map((p) => p.blocks.join('\n\n')).join('\n\n'), pages: read.pageCount, cpuMs: (used.user + used.system) / 1000 };
}

const mean = (values: readonly (number | null)[]) => {
  const present = values.filter((v): v is number => v !== null);
  return present.length ? present.reduce((a, b) => a + b, 0) / present.length : null;
};
const fmt = (v: number | null) => (v === null ? '  –  ' : v.toFixed(3));

const args = process.argv.slice(2);
const heldOut = args[0] === '--held-out';
const producers = args[0] === '--producers' ? 'dev' : args[0] === '--producers-held-out' ? 'held-out' : undefined;
const hebrew = args[0] === '--hebrew';
const tuned = args[0] === '--tuned';
const headings = args[0] === '--headings';
const chromeTables = args[0] === '--chrome-tables';
const manuals = args[0] === '--manuals';
const docling = args[0] === '--docling';
// `--show name` alone shows a document of fixtures/read-dev; after a set's flag (`--tuned --show name`), one of that set.
const show = args.includes('--show') ? args[args.indexOf('--show') + 1] : undefined;
const filter = show ?? (heldOut || producers || hebrew || tuned || headings || chromeTables || manuals || docling ? args[1] : args[0]) ?? '';
const PRODUCERS_CACHE = path.join(ROOT, '.bench-work/read-corpus-producers');
/** The PDFs scored, each with its ground truth. */
const TUNED_DIRS = ['docling', 'markitdown'].map((d) => path.join(ROOT, 'fixtures/reading', d));
/** A corpus document as this script scores it: named by its file. */
const scored = (d: { file: string; groundTruth: string }) => ({ name: path.basename(d.file), file: d.file, truth: d.groundTruth });
const documents = tuned
  ? TUNED_DIRS.flatMap((dir) =>
      fs
        .readdirSync(dir)
        .filter((f) => f.endsWith('.pdf'))
        .map((name) => ({ name, file: path.join(dir, name), truth: fs.readFileSync(path.join(dir, `${name}.md`), 'utf8') })),
    )
  : manuals
    ? manualsDevCorpus(path.join(ROOT, '.bench-work/read-corpus-manuals-dev')).map(scored)
    : docling
      ? doclingDevCorpus(path.join(ROOT, '.bench-work/read-corpus-docling-dev')).map(scored)
      : headings
        ? headingsCorpus(path.join(ROOT, '.bench-work/read-corpus-headings'))
        : chromeTables
          ? chromeTablesCorpus(path.join(ROOT, '.bench-work/read-corpus-chrome-tables')).map(scored)
          : hebrew
            ? hebrewCorpus(path.join(ROOT, '.bench-work/read-corpus-hebrew'))
                .filter((d) => d.set === 'dev' && d.format === 'pdf')
                .map(scored)
            : producers
              ? producersCorpus(PRODUCERS_CACHE)
                  .filter((d) => d.set === producers)
                  .map(scored)
              : heldOut
                ? heldOutCorpus(path.join(ROOT, '.bench-work/read-corpus-heldout'))
                    .filter((d) => d.format === 'pdf')
                    .map((d) => ({ name: path.relative(path.join(ROOT, '.bench-work/read-corpus-heldout'), d.file), file: d.file, truth: d.groundTruth }))
                : fs
                    .readdirSync(DIR)
                    .filter((f) => f.endsWith('.pdf'))
                    .map((name) => ({ name, file: path.join(DIR, name), truth: fs.readFileSync(path.join(DIR, name.replace(/\.pdf$/, '.md')), 'utf8') }));
const results: { name: string; scores: DocumentScores; pages: number; cpuMs: number }[] = [];
for (const { name, file, truth } of documents.filter((d) => d.name.includes(filter)).sort((a, b) => a.name.localeCompare(b.name))) {
  const { markdown, pages, cpuMs } = readMarkdown(file);
  if (show) process.stdout.write(`${markdown}\n`);
  const scores = scoreMarkdown(truth, markdown);
  results.push({ name, scores, pages, cpuMs });
  if (!show)
    console.log(
      `${name.padEnd(32)} overall ${fmt(scores.overall)}  nid ${fmt(scores.nid)}  teds ${fmt(scores.teds)}  mhs ${fmt(scores.mhs)}  ${(cpuMs / pages / 1000).toFixed(3)} s/page`,
    );
}
const pages = results.reduce((n, r) => n + r.pages, 0);
const cpu = results.reduce((n, r) => n + r.cpuMs, 0);
const m = (key: keyof DocumentScores) => fmt(mean(results.map((r) => r.scores[key])));
console.log(
  `mean (${results.length} docs, ${pages} pages): overall ${m('overall')}  nid ${m('nid')}  teds ${m('teds')}  mhs ${m('mhs')}  ${(cpu / pages / 1000).toFixed(3)} CPU s/page (first page warms mupdf)`,
);
