// Reading quality on HTML pages, in-process: each `name.html` of a folder read by the reader
// worker's HTML reader and scored against its `name.html.md` (read-metrics.ts), MarkItDown beside
// it when MARKITDOWN_SRC is set (its output cached as `name.html.markitdown`). For tuning the HTML
// reader on a development set, never on the held-out corpus's pages:
// `npx tsx test/bench/read-dev-html.ts [DIR] [name-filter]`; `--show name [DIR]` prints one page's
// Markdown. Without DIR, the development set is built once into .bench-work/read-dev-html: the
// tuned set's HTML pages (fixtures/reading/docling) and RocketMQ's English docs (Apache-2.0; the
// held-out corpus renders its Chinese ones) rendered by `pandoc -s` as the held-out corpus renders
// pages, their ground truth the source Markdown as pandoc normalises it.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { readBlocks } from '../../wasm/read/document.js';
import { renderMarkdown } from '../../wasm/read/render.js';
import { ROOT } from '../helpers/service.js';
import { cleanSiteMarkdown, gitShow, normalised, ROCKETMQ } from './read-corpus-heldout.js';
import { scoreMarkdown, type DocumentScores } from './read-metrics.js';

/** RocketMQ's English pages whose Chinese twins no corpus renders as HTML (CLITools left out: its cleaned Markdown keeps raw table cells). */
const ROCKETMQ_EN = ['Configuration_Client', 'Design_Filter', 'Design_Query', 'Design_Remoting', 'Design_Store', 'Example_Filter', 'Example_Orderly'];
const ROCKETMQ_EN_MORE = ['Operations_Broker', 'Operations_Consumer', 'Troubleshoopting', 'Feature', 'Example_OpenMessaging', 'Operations_Trace'];

function buildDevSet(dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
  const docling = path.join(ROOT, 'fixtures/reading/docling');
  for (const name of fs.readdirSync(docling).filter((f) => /\.html(\.md)?$/.test(f))) fs.copyFileSync(path.join(docling, name), path.join(dir, name));
  for (const name of [...ROCKETMQ_EN, ...ROCKETMQ_EN_MORE]) {
    const markdown = cleanSiteMarkdown(gitShow(ROCKETMQ, `docs/en/${name}.md`).toString('utf8'));
    const title = /^#\s+(.*)$/m.exec(markdown)?.[1] ?? name;
    const html = execFileSync('pandoc', ['-f', 'gfm', '-s', '--metadata', `title=${title}`], { input: markdown });
    fs.writeFileSync(path.join(dir, `rocketmq-en-${name}.html`), html);
    fs.writeFileSync(path.join(dir, `rocketmq-en-${name}.html.md`), normalised(markdown));
  }
}

const args = process.argv.slice(2);
const show = args[0] === '--show' ? args[1] : undefined;
const given = show ? args[2] : args[0];
const dir = given ?? path.join(ROOT, '.bench-work/read-dev-html');
if (!given && !fs.existsSync(dir)) buildDevSet(dir);
const filter = show ?? args[1] ?? '';

function docwasm(file: string): string {
  return renderMarkdown(readBlocks(fs.readFileSync(file), 'html'), 10_000_000).markdown;
}

function markitdown(file: string): string | undefined {
  const source = process.env.MARKITDOWN_SRC;
  if (!source) return undefined;
  const cached = `${file}.markitdown`;
  if (fs.existsSync(cached)) return fs.readFileSync(cached, 'utf8');
  const PYTHONPATH = [source, process.env.MARKITDOWN_PYTHONPATH].filter(Boolean).join(path.delimiter);
  let out = '';
  try {
    out = execFileSync('/usr/bin/python3', ['-m', 'markitdown', file], {
      env: { ...process.env, PYTHONPATH },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch {
    // A failure scores as empty, as a user would get it.
  }
  fs.writeFileSync(cached, out);
  return out;
}

const fmt = (v: number | null) => (v === null ? '  –  ' : v.toFixed(3));
const line = (s: DocumentScores) => `${fmt(s.overall)} (${fmt(s.nid)} / ${fmt(s.teds)} / ${fmt(s.mhs)})`;
const mean = (values: readonly (number | null)[]) => {
  const present = values.filter((v): v is number => v !== null);
  return present.length ? present.reduce((a, b) => a + b, 0) / present.length : null;
};
const ours: DocumentScores[] = [];
const theirs: DocumentScores[] = [];
for (const name of fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.html') && f.includes(filter))
  .sort()) {
  const file = path.join(dir, name);
  const truth = fs.readFileSync(`${file}.md`, 'utf8');
  const markdown = docwasm(file);
  if (show) {
    process.stdout.write(`${markdown}\n`);
    continue;
  }
  const score = scoreMarkdown(truth, markdown);
  ours.push(score);
  const peer = markitdown(file);
  const peerScore = peer === undefined ? undefined : scoreMarkdown(truth, peer);
  if (peerScore) theirs.push(peerScore);
  console.log(`${name.padEnd(40)} docwasm ${line(score)}${peerScore ? `   MarkItDown ${line(peerScore)}` : ''}`);
}
const m = (all: DocumentScores[]) =>
  line({
    overall: mean(all.map((s) => s.overall)),
    nid: mean(all.map((s) => s.nid)),
    teds: mean(all.map((s) => s.teds)),
    mhs: mean(all.map((s) => s.mhs)),
  } as DocumentScores);
if (!show) console.log(`mean (${ours.length} pages) docwasm ${m(ours)}${theirs.length ? `   MarkItDown ${m(theirs)}` : ''}`);
