// PP-OCR against tesseract, one run, side by side: character error rates on the Chinese page
// set (Ming/Hei/Kai/Noto Serif, 10–12 pt, 200–300 dpi, a degraded scan, a phone photo) and the
// English one, for PP-OCR (`engine: paddle`), `auto`, tesseract.js (`engine: tesseract`, as
// docwasm read before) and the tesseract CLI (Debian's chi_sim+eng, one thread). The CER
// table (with each read's wall time) and the thread rows are written into docs/ocr-measurements.md;
// timed rows (PP-OCR and auto against the CLI on the same page, interleaved by the harness) go
// to the shared table and, by run.ts, to docs/ocr-measurements.md too. Also PP-OCR with
// onnxruntime-web on 1 and 2 threads, each in a process of its own (the thread count is fixed
// when the runtime starts), and on 1 thread with unsqueezed line images. The whole page set
// in-process, per squeeze factor, beside the CLI: test/bench/paddle-pages.ts.

import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { characterErrorRate } from '../helpers/ocr-accuracy.js';
import { CHINESE_PAGES, ENGLISH_PAGES, expectedText, renderTestPage, type PageSpec } from '../helpers/ocr-page-set.js';
import { ROOT, type RunningService } from '../helpers/service.js';
import { replaceGenerated } from '../docs/generated.js';
import { postOk, runCommand, runLine, type BenchCase, type BenchSuite } from './harness.js';
import { DEBIAN_TESSDATA } from '../helpers/tools.js';

const execFileAsync = promisify(execFile);
const LANGUAGE = 'chi_sim+eng';
const ENGINES = ['paddle', 'auto', 'tesseract'] as const;

interface Reading {
  cer: number;
  ms: number;
  engine?: string;
}

function cliArgs(image: string): string[] {
  return ['OMP_THREAD_LIMIT=1', 'tesseract', image, '-', '--oem', '1', '--tessdata-dir', DEBIAN_TESSDATA, '-l', LANGUAGE];
}

async function readWithService(service: RunningService, image: string, engine: string, expected: string): Promise<Reading> {
  const started = performance.now();
  const response = await service.post('/api/ocr', { input: image, language: LANGUAGE, engine });
  const ms = performance.now() - started;
  if (response.body.success !== true) throw new Error(`ocr ${engine} failed: ${JSON.stringify(response.body)}`);
  const data = response.body.data as { engine?: string };
  return { cer: characterErrorRate(expected, String(response.body.text)), ms, engine: data.engine };
}

function readWithCli(image: string, expected: string): Reading {
  const started = performance.now();
  const text = execFileSync('env', cliArgs(image), { stdio: ['ignore', 'pipe', 'ignore'] }).toString();
  return { cer: characterErrorRate(expected, text), ms: performance.now() - started };
}

async function cerTable(service: RunningService, pages: readonly { spec: PageSpec; image: string }[]): Promise<string> {
  const header = '| page | PP-OCR CER % (s) | auto CER % (s, engine) | tesseract.js CER % (s) | tesseract CLI CER % (s) |\n|---|---|---|---|---|';
  const rows: string[] = [];
  for (const { spec, image } of pages) {
    const expected = expectedText(spec);
    const [paddle, auto, tesseract] = [
      await readWithService(service, image, ENGINES[0], expected),
      await readWithService(service, image, ENGINES[1], expected),
      await readWithService(service, image, ENGINES[2], expected),
    ] as [Reading, Reading, Reading];
    const cli = readWithCli(image, expected);
    const cell = (r: Reading, withEngine = false) => `${(r.cer * 100).toFixed(2)} (${(r.ms / 1000).toFixed(1)}${withEngine ? `, ${r.engine}` : ''})`;
    rows.push(`| ${spec.name} | ${cell(paddle)} | ${cell(auto, true)} | ${cell(tesseract)} | ${cell(cli)} |`);
    process.stderr.write(`bench: paddle ${rows.at(-1)}\n`);
  }
  const table = `${header}\n${rows.join('\n')}`;
  process.stderr.write(`bench: paddle CER, ${LANGUAGE}, one run:\n${table}\n`);
  return table;
}

/** PP-OCR in-process on one page with `threads` WebAssembly threads (and lines squeezed to `squeeze`, else as docwasm reads), in a fresh process. */
// Not execFileSync: an event loop blocked for the ~20 s of these reads would not see the service
// close the idle keep-alive connection, and the next request would be sent on a closed socket.
async function threadsRow(image: string, threads: number, squeeze?: number): Promise<string> {
  const script = path.join(ROOT, 'test/bench/paddle-threads.ts');
  const args = [script, image, String(threads), ...(squeeze === undefined ? [] : [String(squeeze)])];
  const { stdout } = await execFileAsync(path.join(ROOT, 'node_modules/.bin/tsx'), args, { cwd: ROOT });
  return stdout.trim();
}

const suite: BenchSuite = async ({ service, work }) => {
  const pages: { spec: PageSpec; image: string }[] = [];
  for (const spec of [...CHINESE_PAGES, ...ENGLISH_PAGES]) {
    const image = path.join(work, `${spec.name.replace(/\W+/g, '-')}.${spec.variant === 'photo' ? 'jpg' : 'png'}`);
    if (!fs.existsSync(image)) fs.writeFileSync(image, await renderTestPage(spec));
    pages.push({ spec, image });
  }
  const cer = await cerTable(service, pages);
  const timed = [pages[1], pages[0], pages.find((p) => p.spec.name.startsWith('en '))].filter((p) => p !== undefined);
  const timedImage = (timed[0] as { image: string }).image;
  // The same read with line images unsqueezed (as before recognition.ts squeezed them) last.
  const threads = [
    `- 1 thread: ${await threadsRow(timedImage, 1)}`,
    `- 2 threads: ${await threadsRow(timedImage, 2)}`,
    `- 1 thread, line images unsqueezed: ${await threadsRow(timedImage, 1, 1)}`,
  ].join('\n');
  process.stderr.write(`bench: paddle threads (${(timed[0] as { spec: PageSpec }).spec.name}):\n${threads}\n`);
  const threadsNote = `PP-OCR in-process on the ${(timed[0] as { spec: PageSpec }).spec.name} page, second read, each in a fresh process (test/bench/paddle-threads.ts):`;
  replaceGenerated('docs/ocr-measurements.md', 'bench-paddle-cer', `${runLine()}\n\n${cer}\n\n${threadsNote}\n\n${threads}`);
  return timed.flatMap(({ spec, image }): BenchCase[] =>
    (spec.name.startsWith('en ') ? (['auto'] as const) : (['paddle'] as const)).map((engine) => ({
      group: 'paddle',
      name: `A4 ${spec.name}, ${LANGUAGE}, engine ${engine}`,
      iterations: 2,
      ours: () => postOk(service, '/api/ocr', { input: image, language: LANGUAGE, engine }),
      native: { tool: "tesseract CLI (1 thread, Debian's chi_sim+eng)", run: () => runCommand('env', cliArgs(image)) },
    })),
  );
};

export default suite;
