// `npm run bench [-- group…]`: starts the built service once, runs every suite in
// test/bench/*.bench.ts (or the named groups), prints one table and writes bench-results.json;
// a run of every group also writes the table into docs/performance.md, and a run of the read
// group writes its rows into that file's reading section.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startService, stopAndRemove } from '../helpers/service.js';
import { replaceGenerated } from '../docs/generated.js';
import { median, takeNativePeakKb, treeRssKb, type BenchCase, type BenchSuite } from './harness.js';

interface Row {
  group: string;
  name: string;
  oursMs: number;
  nativeMs?: number;
  tool?: string;
  ratio?: number;
  servicePeakMb: number;
  /** How far the job took the service above where it rested before the case: the job's own peak. */
  jobPeakMb: number;
  nativePeakMb?: number;
  targetMs?: number;
  withinTarget?: boolean;
}

/** Groups whose rows a doc also shows in a section of its own (`bench-<group>`). */
const OWN_TABLES: Readonly<Record<string, string>> = {
  read: 'docs/performance.md',
  'wasm-documents': 'docs/performance.md',
  paddle: 'docs/ocr-measurements.md',
  ocr: 'docs/ocr-engines.md',
  ofd: 'docs/ofd.md',
};

const here = path.dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);

async function main(): Promise<void> {
  const service = await startService(['--timeout', '600']);
  const work = path.join(service.dir, 'bench');
  fs.mkdirSync(work, { recursive: true });
  const rows: Row[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  const onFinish = (cleanup: () => Promise<void>) => void cleanups.push(cleanup);
  try {
    for (const file of fs
      .readdirSync(here)
      .filter((f) => f.endsWith('.bench.ts'))
      .sort()) {
      const group = file.replace('.bench.ts', '');
      if (wanted.length && !wanted.includes(group)) continue;
      const suite = ((await import(pathToFileURL(path.join(here, file)).href)) as { default: BenchSuite }).default;
      process.stderr.write(`bench: preparing ${group}\n`);
      for (const benchCase of await suite({ service, work, onFinish })) rows.push(await measure(benchCase, service.child.pid as number));
    }
  } finally {
    for (const cleanup of cleanups) await cleanup();
    await stopAndRemove(service);
  }
  const table = renderTable(rows);
  process.stdout.write(`${table}\n`);
  fs.writeFileSync('bench-results.json', `${JSON.stringify({ date: new Date().toISOString(), rows }, null, 2)}\n`);
  // Only a run of every group replaces the published table, so it always comes from one run.
  if (wanted.length === 0) replaceGenerated('docs/performance.md', 'bench', `${machineLine()}\n\n${table}`);
  // Groups with a table of their own there get it from any run that includes them.
  for (const [group, doc] of Object.entries(OWN_TABLES).filter(([g]) => wanted.length === 0 || wanted.includes(g))) {
    const own = rows.filter((r) => r.group === group);
    if (own.length) replaceGenerated(doc, `bench-${group}`, `${machineLine()}\n\n${renderTable(own)}`);
  }
}

async function measure(benchCase: BenchCase, servicePid: number): Promise<Row> {
  const iterations = benchCase.iterations ?? 5;
  const ours: number[] = [];
  const native: number[] = [];
  let servicePeakKb = 0;
  const pid = benchCase.servicePid ?? servicePid;
  const restingKb = treeRssKb(pid);
  const sampler = setInterval(() => (servicePeakKb = Math.max(servicePeakKb, treeRssKb(pid))), 20);
  process.stderr.write(`bench: ${benchCase.group} / ${benchCase.name}\n`);
  try {
    for (let i = 0; i < (benchCase.warmups ?? 1); i++) await benchCase.ours();
    await benchCase.native?.run();
    takeNativePeakKb();
    for (let i = 0; i < iterations; i++) {
      ours.push(await time(benchCase.ours));
      if (benchCase.native) native.push(await time(benchCase.native.run));
    }
  } finally {
    clearInterval(sampler);
  }
  if (benchCase.ownPeakKb) servicePeakKb = benchCase.ownPeakKb();
  const oursMs = median(ours);
  const nativeMs = benchCase.native ? median(native) : undefined;
  return {
    group: benchCase.group,
    name: benchCase.name,
    oursMs,
    servicePeakMb: Math.round(servicePeakKb / 1024),
    jobPeakMb: Math.round(Math.max(0, servicePeakKb - (benchCase.ownPeakKb ? 0 : restingKb)) / 1024),
    ...(benchCase.targetMs !== undefined && { targetMs: benchCase.targetMs, withinTarget: oursMs <= benchCase.targetMs }),
    ...(nativeMs !== undefined && { nativeMs, tool: benchCase.native?.tool, ratio: oursMs / nativeMs, nativePeakMb: Math.round(takeNativePeakKb() / 1024) }),
  };
}

async function time(run: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

function machineLine(): string {
  return `Last \`npm run bench\`: ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, Node ${process.version}.`;
}

function renderTable(rows: readonly Row[]): string {
  const lines = [
    '| group | operation | docwasm (median ms) | native tool | native (median ms) | ratio | docwasm peak RSS MB | job peak MB | native peak RSS MB |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.group} | ${r.name}${targetNote(r)} | ${r.oursMs.toFixed(0)} | ${r.tool ?? '-'} | ${r.nativeMs?.toFixed(0) ?? '-'} | ${r.ratio ? `${r.ratio.toFixed(2)}×` : '-'} | ${r.servicePeakMb} | ${r.jobPeakMb} | ${r.nativePeakMb ?? '-'} |`,
    ),
  ];
  return lines.join('\n');
}

function targetNote({ targetMs, withinTarget }: Row): string {
  return targetMs === undefined ? '' : ` (target ≤ ${targetMs} ms: ${withinTarget ? 'met' : 'missed'})`;
}

await main();
