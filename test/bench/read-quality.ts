// Reading quality: every document of the corpus (test/bench/read-corpus.ts) read by docwasm
// (`/api/read` of a running service) and by the peers available offline — pandoc (docx, odt,
// html, rtf, csv → GitHub Markdown), mammoth (docx → Markdown) and poppler's `pdftotext -layout`
// (PDF, plain text) — scored with the opendataloader-bench metrics (test/bench/read-metrics.ts),
// and the table written into docs/reading-quality.md.
// `npm run bench:read-quality` runs it alone; `npm run bench` runs it as the read-quality group.

import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { pdfinfo } from '../helpers/pdf-inspect.js';
import { ROOT, startService, stopAndRemove, type RunningService } from '../helpers/service.js';
import { readingCorpus } from './read-corpus.js';
import { heldOutCorpus } from './read-corpus-heldout.js';
import { producersCorpus } from './read-corpus-producers.js';
import { hebrewCorpus } from './read-corpus-hebrew.js';
import { scoreMarkdown } from './read-metrics.js';
import { renderQualityReport, type Scored } from './read-quality-report.js';

const run = promisify(execFile);

interface Peer {
  name: string;
  formats: readonly string[];
  read: (file: string) => Promise<string>;
}

const PANDOC_READERS: Readonly<Record<string, string>> = { docx: 'docx', odt: 'odt', html: 'html', rtf: 'rtf', csv: 'csv' };

const PEERS: readonly Peer[] = [
  {
    name: 'pandoc',
    formats: Object.keys(PANDOC_READERS),
    read: async (file) => (await run('pandoc', ['-f', PANDOC_READERS[ext(file)] as string, '-t', 'gfm', file], { maxBuffer: 1e8 })).stdout,
  },
  {
    name: 'mammoth',
    formats: ['docx'],
    read: async (file) => (await run(path.join(ROOT, 'node_modules/.bin/mammoth'), [file, '--output-format=markdown'], { maxBuffer: 1e8 })).stdout,
  },
  { name: 'pdftotext -layout', formats: ['pdf'], read: async (file) => (await run('pdftotext', ['-layout', file, '-'], { maxBuffer: 1e8 })).stdout },
];

const ext = (file: string) => path.extname(file).slice(1).toLowerCase();

/** A program on PATH, or undefined. */
const onPath = (name: string) =>
  (process.env.PATH ?? '')
    .split(path.delimiter)
    .map((dir) => path.join(dir, name))
    .find((file) => fs.existsSync(file));

/**
 * Microsoft's MarkItDown: from its source with Debian's Python when `MARKITDOWN_SRC` names a
 * checkout's `packages/markitdown/src` (what Debian does not package is put on
 * `MARKITDOWN_PYTHONPATH`; docs/reading-quality.md says how), else its `markitdown` command when
 * on PATH (`pip install 'markitdown[all]'`). One process a document, as a user runs it.
 */
function markitdownPeer(): Peer | undefined {
  const source = process.env.MARKITDOWN_SRC;
  const command = source ? '/usr/bin/python3' : onPath('markitdown');
  if (!command) return undefined;
  const args = source ? ['-m', 'markitdown'] : [];
  const pythonPath = [source, process.env.MARKITDOWN_PYTHONPATH].filter(Boolean).join(path.delimiter);
  const env = source ? { ...process.env, PYTHONPATH: pythonPath } : process.env;
  return {
    name: 'MarkItDown',
    formats: ['docx', 'pptx', 'xlsx', 'html', 'pdf', 'csv'],
    read: async (file) => (await run(command, [...args, file], { maxBuffer: 1e8, env })).stdout,
  };
}

/** A PDF's page count (poppler's pdfinfo), for docwasm's seconds per page. */
function pageCount(file: string): number | undefined {
  return ext(file) === 'pdf' ? Number(pdfinfo(file).Pages) || undefined : undefined;
}

const PYMUPDF = 'pymupdf4llm (WASM)';

/** What the bench uses of Pyodide's interface. */
interface Pyodide {
  loadPackage(url: string, options: { messageCallback: (message: string) => void }): Promise<void>;
  runPython(code: string): unknown;
  FS: { writeFile(path: string, data: Uint8Array): void };
}

/**
 * pymupdf4llm in WebAssembly, from the npm package @bentopdf/pymupdf-wasm (Pyodide with the
 * PyMuPDF and pymupdf4llm wheels; 56 MB, so not a dependency of docwasm): used when
 * `PYMUPDF_WASM_DIR` names an installed copy (`npm install --prefix /tmp/p @bentopdf/pymupdf-wasm`)
 * or the package is in node_modules. Its assets are copied to a scratch dir because the package
 * declares ESM while pyodide.asm.js is CommonJS. One interpreter reads every PDF.
 */
async function pymupdf4llmPeer(scratch: string): Promise<Peer | undefined> {
  const installed = process.env.PYMUPDF_WASM_DIR ?? path.join(ROOT, 'node_modules/@bentopdf/pymupdf-wasm');
  if (!fs.existsSync(path.join(installed, 'assets/pyodide.js'))) return undefined;
  const assets = path.join(scratch, 'pyodide-assets');
  fs.cpSync(path.join(installed, 'assets'), assets, { recursive: true });
  fs.writeFileSync(path.join(assets, 'package.json'), '{"type":"commonjs"}');
  fs.copyFileSync(path.join(assets, 'pyodide.js'), path.join(assets, 'pyodide.mjs'));
  const { loadPyodide } = (await import(pathToFileURL(path.join(assets, 'pyodide.mjs')).href)) as {
    loadPyodide: (o: { indexURL: string; stdout?: (s: string) => void }) => Promise<Pyodide>;
  };
  const py = await loadPyodide({ indexURL: `${assets}/`, stdout: () => undefined });
  for (const wheel of fs.readdirSync(assets).filter((f) => /^(numpy|pymupdf|pymupdf4llm)-.*\.whl$/.test(f)))
    await py.loadPackage(path.join(assets, wheel), { messageCallback: () => undefined });
  return {
    name: PYMUPDF,
    formats: ['pdf'],
    read: (file) => {
      py.FS.writeFile('/input.pdf', new Uint8Array(fs.readFileSync(file)));
      return Promise.resolve(String(py.runPython("import pymupdf4llm\npymupdf4llm.to_markdown('/input.pdf')")));
    },
  };
}

/** Page markers are docwasm's own navigation; no ground truth has them. */
const withoutPageMarkers = (markdown: string) => markdown.replace(/^<!-- page \d+ -->\n/gm, '');

async function readWithDocwasm(service: RunningService, file: string): Promise<string> {
  const response = await service.post('/api/read', { input: file, maxCharacters: 5_000_000 });
  if (response.status !== 200 || typeof response.body.text !== 'string') throw new Error(`read ${file}: ${JSON.stringify(response.body).slice(0, 300)}`);
  return withoutPageMarkers(response.body.text);
}

async function timed(read: () => Promise<string>): Promise<{ text: string; ms: number }> {
  const start = performance.now();
  let text = '';
  try {
    text = await read();
  } catch (err) {
    process.stderr.write(`read-quality: ${(err as Error).message.slice(0, 200)}\n`);
  }
  return { text, ms: performance.now() - start };
}

export async function scoreCorpus(service: RunningService, workDir: string): Promise<Scored[]> {
  // The held-out half is cached beside the bench's other work (.bench-work/, not committed): rendering it takes minutes.
  const corpus = [
    ...readingCorpus(path.join(workDir, 'read-corpus')),
    ...heldOutCorpus(path.join(ROOT, '.bench-work/read-corpus-heldout')),
    ...producersCorpus(path.join(ROOT, '.bench-work/read-corpus-producers')),
    ...hebrewCorpus(path.join(ROOT, '.bench-work/read-corpus-hebrew')),
  ];
  const peers = [...PEERS, markitdownPeer(), await pymupdf4llmPeer(workDir)].filter((p): p is Peer => p !== undefined);
  const scored: Scored[] = [];
  for (const doc of corpus) {
    await readWithDocwasm(service, doc.file).catch(() => ''); // warm the worker for this format
    const ours = await timed(() => readWithDocwasm(service, doc.file));
    scored.push({ doc, engine: 'docwasm', scores: scoreMarkdown(doc.groundTruth, ours.text), ms: ours.ms, pages: pageCount(doc.file) });
    for (const peer of peers.filter((p) => p.formats.includes(doc.format))) {
      const theirs = await timed(() => peer.read(doc.file));
      scored.push({ doc, engine: peer.name, scores: scoreMarkdown(doc.groundTruth, theirs.text), ms: theirs.ms });
    }
  }
  return scored;
}

async function main(): Promise<void> {
  const service = await startService(['--timeout', '600']);
  try {
    const scored = await scoreCorpus(service, service.dir);
    const report = renderQualityReport(scored, new Date().toISOString().slice(0, 10));
    fs.writeFileSync(path.join(ROOT, 'docs/reading-quality.md'), report);
    process.stdout.write(report);
  } finally {
    await stopAndRemove(service);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
