// `npm run bench:memory`: issue 43's memory row. A mixed workload (a Chinese page read by OCR, a
// docx → pdf with the WebAssembly office, a PDF merge, an image resize and a PDF read; two
// requests in flight) runs against a service started with `--memory-budget 1600`, once for each
// way a user starts it. The resident memory of the service's whole process tree (its own
// process, its worker threads and any office it started) is sampled every 50 ms from /proc;
// after the last request the service is left idle until its engines retire, and the tree is
// measured again. A second table measures what one instance of each engine costs — the peak of
// the tree above where the service rested, over that engine's heaviest usual jobs — beside the
// cost it declares to the budget (health's `data.memory.engines`). Both tables are written into
// docs/performance.md (`bench-memory`).

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { attachService, CLI, freePort, ROOT, stopAndRemove, tempDir, type RunningService } from '../helpers/service.js';
import { CHINESE_PAGES, renderTestPage } from '../helpers/ocr-page-set.js';
import { replaceGenerated } from '../docs/generated.js';
import { MALLOC_TUNABLES } from '../../src/cli/malloc-restart.js';
import { treePssKb, treeRssKb } from './harness.js';

const BUDGET_MB = 1600;
const PEAK_TARGET_MB = 1760;
const IDLE_TARGET_MB = 250;
const IDLE_TIMEOUT_S = 5;
const ROUNDS = Number(process.env.MEMORY_ROUNDS ?? 3);

interface Start {
  name: string;
  /** The program and arguments a user types, before `--port …`. */
  command: string[];
  env: NodeJS.ProcessEnv;
}

const STARTS: Start[] = [
  {
    name: '`npm start`, `npx docwasm serve` (bin/docwasm.mjs; on Node 20 it stays as the service’s parent)',
    command: [process.execPath, path.join(ROOT, 'bin/docwasm.mjs'), 'serve'],
    env: { GLIBC_TUNABLES: undefined },
  },
  {
    name: 'the portable bundle’s launcher (`exec node` with the allocator settings: one process)',
    command: [process.execPath, CLI, 'serve'],
    env: { GLIBC_TUNABLES: MALLOC_TUNABLES },
  },
  {
    name: '`node dist/src/cli/main.js serve` (it starts itself again with the settings: two processes on Node 20)',
    command: [process.execPath, CLI, 'serve'],
    env: { GLIBC_TUNABLES: undefined },
  },
];

interface Result {
  start: string;
  requests: number;
  failed: string[];
  peakMb: number;
  idleMb: number;
  /** The same, shared pages counted once (a launcher and its service share node's own pages). */
  idlePssMb: number;
  committedPeakMb: number;
}

async function launch(start: Start): Promise<RunningService> {
  const port = await freePort();
  const dir = tempDir('docwasm-bench-memory-');
  const [program, ...args] = start.command as [string, ...string[]];
  const flags = ['--port', String(port), '--base-dir', dir, '--memory-budget', String(BUDGET_MB), '--idle-timeout', String(IDLE_TIMEOUT_S)];
  const child = spawn(program, [...args, ...flags, '--document-backend', 'wasm'], { env: { ...process.env, ...start.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  return attachService(child, port, dir);
}

async function prepare(dir: string): Promise<void> {
  fs.writeFileSync(path.join(dir, 'page.png'), await renderTestPage(CHINESE_PAGES[0]!));
  fs.copyFileSync(path.join(ROOT, 'fixtures/documents/text-docx.docx'), path.join(dir, 'text.docx'));
  fs.copyFileSync(path.join(ROOT, 'fixtures/documents/big.docx'), path.join(dir, 'big.docx'));
  fs.copyFileSync(path.join(ROOT, 'fixtures/pdf/text.pdf'), path.join(dir, 'a.pdf'));
  fs.copyFileSync(path.join(ROOT, 'fixtures/reading/docling/normal_4pages.pdf'), path.join(dir, 'report.pdf'));
}

/** The five kinds of request, each writing to a name of its own in round `r`. */
function workload(r: number): [string, Record<string, unknown>][] {
  return [
    ['/api/ocr', { input: 'page.png', language: 'chi_sim+eng' }],
    ['/api/convert', { input: 'text.docx', output: `out/text-${r}.pdf`, format: 'pdf' }],
    ['/api/convert', { input: 'big.docx', output: `out/big-${r}.pdf`, format: 'pdf' }],
    ['/api/pdf/merge', { files: ['a.pdf', 'a.pdf', 'a.pdf'], output: `out/merged-${r}.pdf` }],
    ['/api/image/resize', { input: 'page.png', output: `out/small-${r}.jpg`, width: 1200 }],
    ['/api/read', { input: 'report.pdf' }],
  ];
}

/** Runs the requests two at a time, in order; returns the routes that did not succeed. */
async function runTwoInFlight(service: RunningService, requests: [string, Record<string, unknown>][]): Promise<string[]> {
  const failed: string[] = [];
  let next = 0;
  const lane = async () => {
    while (next < requests.length) {
      const [route, body] = requests[next++]!;
      const answer = await service.post(route, body);
      if (answer.body.success !== true) failed.push(`${route} ${String(answer.body.code)}: ${String(answer.body.error)}`);
    }
  };
  await Promise.all([lane(), lane()]);
  return failed;
}

async function committedMb(service: RunningService): Promise<number> {
  const health = await service.get('/api/health');
  const memory = (health.body.data as { memory?: { committedMb?: number } } | undefined)?.memory;
  return memory?.committedMb ?? 0;
}

async function measure(start: Start): Promise<Result> {
  const service = await launch(start);
  try {
    await prepare(service.dir);
    fs.mkdirSync(path.join(service.dir, 'out'));
    // The office starts at once in the background; the row is about the work, so wait for it.
    while (((await service.get('/api/health')).body.data as { document?: { state?: string } }).document?.state !== 'ready') await sleep(500);
    let peakKb = treeRssKb(service.child.pid!);
    let committedPeak = 0;
    const sampler = setInterval(() => (peakKb = Math.max(peakKb, treeRssKb(service.child.pid!))), 50);
    const watcher = setInterval(() => void committedMb(service).then((mb) => (committedPeak = Math.max(committedPeak, mb))), 500);
    const requests = Array.from({ length: ROUNDS }, (_, r) => workload(r)).flat();
    const failed = await runTwoInFlight(service, requests);
    clearInterval(sampler);
    clearInterval(watcher);
    await idle(service);
    const [idleKb, idlePssKb] = [treeRssKb(service.child.pid!), treePssKb(service.child.pid!)];
    return {
      start: start.name,
      requests: requests.length,
      failed,
      peakMb: peakKb / 1024,
      idleMb: idleKb / 1024,
      idlePssMb: idlePssKb / 1024,
      committedPeakMb: committedPeak,
    };
  } finally {
    await stopAndRemove(service);
  }
}

/** Returns once every engine has retired (no instance left in health) and 10 s more have passed. */
async function idle(service: RunningService): Promise<void> {
  const deadline = Date.now() + 10 * 60_000;
  while (Date.now() < deadline && (await committedMb(service)) > 0) await sleep(1000);
  await sleep(10_000);
}

interface EngineCost {
  engine: string;
  declaredMb: number;
  measuredMb: number;
  jobs: string;
}

/** Each engine's heaviest usual jobs, run one at a time on a service of its own. */
const ENGINE_JOBS: { engine: string; jobs: string; flags: string[]; requests: [string, Record<string, unknown>][] }[] = [
  {
    engine: 'pdf',
    jobs: 'merge, pages to PNG at 150 dpi',
    flags: [],
    requests: [
      ['/api/pdf/merge', { files: ['report.pdf', 'report.pdf', 'a.pdf'], output: 'out/merged.pdf' }],
      ['/api/pdf/to-images', { input: 'report.pdf', format: 'png', dpi: 150, outputDir: 'out/pages' }],
    ],
  },
  {
    engine: 'image',
    jobs: 'an 8.7 MP page resized, to WebP and AVIF',
    flags: [],
    requests: [
      ['/api/image/resize', { input: 'page.png', output: 'out/small.jpg', width: 1200 }],
      ['/api/image/convert', { input: 'page.png', output: 'out/page.webp' }],
      ['/api/image/convert', { input: 'page.png', output: 'out/page.avif' }],
    ],
  },
  { engine: 'ocr', jobs: 'an A4 Chinese page, `chi_sim+eng` (PP-OCR)', flags: [], requests: [['/api/ocr', { input: 'page.png', language: 'chi_sim+eng' }]] },
  {
    engine: 'read',
    jobs: 'a 4-page PDF and a long docx as Markdown',
    flags: [],
    requests: [
      ['/api/read', { input: 'report.pdf' }],
      ['/api/read', { input: 'big.docx' }],
    ],
  },
  {
    engine: 'libreoffice-wasm',
    jobs: 'two docx → pdf',
    flags: ['--document-backend', 'wasm'],
    requests: [
      ['/api/convert', { input: 'text.docx', output: 'out/text.pdf', format: 'pdf' }],
      ['/api/convert', { input: 'big.docx', output: 'out/big.pdf', format: 'pdf' }],
    ],
  },
];

/** One engine's cost: the tree's peak over its jobs, less the tree at rest just before them. */
async function measureEngine(spec: (typeof ENGINE_JOBS)[number]): Promise<EngineCost> {
  const port = await freePort();
  const dir = tempDir('docwasm-bench-memory-');
  const flags = ['--port', String(port), '--base-dir', dir, '--idle-timeout', '600', ...spec.flags];
  const child = spawn(process.execPath, [CLI, 'serve', ...flags], { env: { ...process.env, GLIBC_TUNABLES: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
  const service = await attachService(child, port, dir);
  try {
    await prepare(dir);
    fs.mkdirSync(path.join(dir, 'out'));
    await sleep(3000);
    // The WebAssembly office starts with the service: its rest is the service's own before it.
    const restKb = spec.engine === 'libreoffice-wasm' ? 0 : treeRssKb(child.pid!);
    let peakKb = restKb;
    const sampler = setInterval(() => (peakKb = Math.max(peakKb, treeRssKb(child.pid!))), 50);
    // One request at a time: the row is one instance's cost, and two in flight would start two.
    const failed: string[] = [];
    for (const request of spec.requests) failed.push(...(await runTwoInFlight(service, [request])));
    clearInterval(sampler);
    if (failed.length > 0) throw new Error(`${spec.engine}: ${failed.join('; ')}`);
    const engines = ((await service.get('/api/health')).body.data as { memory: { engines: { engine: string; costMb: number }[] } }).memory.engines;
    const declaredMb = engines.find((e) => e.engine === spec.engine)?.costMb ?? Number.NaN;
    return { engine: spec.engine, declaredMb, measuredMb: Math.round((peakKb - restKb) / 1024), jobs: spec.jobs };
  } finally {
    await stopAndRemove(service);
  }
}

function costTable(costs: EngineCost[]): string {
  return [
    `| engine instance | declared to the budget | measured: peak above the service at rest | jobs |`,
    `|---|---|---|---|`,
    ...costs.map(
      (c) => `| ${c.engine} | ${c.declaredMb} MB | ${c.measuredMb} MB${c.engine === 'libreoffice-wasm' ? ' (the whole service)' : ''} | ${c.jobs} |`,
    ),
  ].join('\n');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function table(results: Result[]): string {
  const lines = [
    `| started as | requests (failed) | peak of the process tree | budget committed at most | after idle retirement | the same, shared pages once (PSS) |`,
    `|---|---|---|---|---|---|`,
    ...results.map(
      (r) =>
        `| ${r.start} | ${r.requests} (${r.failed.length}) | ${Math.round(r.peakMb)} MB ${r.peakMb <= PEAK_TARGET_MB ? '✓' : '✗'} | ${r.committedPeakMb} MB | ${Math.round(r.idleMb)} MB ${r.idleMb <= IDLE_TARGET_MB ? '✓' : '✗'} | ${Math.round(r.idlePssMb)} MB |`,
    ),
  ];
  const when = new Date().toISOString().slice(0, 10);
  return (
    `Written by \`npm run bench:memory\` on ${when} (${ROUNDS} rounds of six requests, two in flight, ` +
    `\`--memory-budget ${BUDGET_MB} --idle-timeout ${IDLE_TIMEOUT_S} --document-backend wasm\`; targets: peak ≤ ${PEAK_TARGET_MB} MB, ` +
    `idle ≤ ${IDLE_TARGET_MB} MB, every request answered).\n\n${lines.join('\n')}\n`
  );
}

async function main(): Promise<void> {
  const results: Result[] = [];
  for (const start of STARTS) {
    const result = await measure(start);
    console.log(JSON.stringify(result));
    results.push(result);
  }
  const costs: EngineCost[] = [];
  for (const spec of ENGINE_JOBS) {
    const cost = await measureEngine(spec);
    console.log(JSON.stringify(cost));
    costs.push(cost);
  }
  const text = `${table(results)}\nWhat one instance of each engine costs, each on a service of its own with glibc’s defaults (\`GLIBC_TUNABLES\` empty: one process):\n\n${costTable(costs)}\n`;
  console.log(text);
  if (process.env.MEMORY_ROUNDS === undefined) replaceGenerated(path.join(ROOT, 'docs/performance.md'), 'bench-memory', text);
}

await main();
