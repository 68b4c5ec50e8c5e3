// Gathers the figures of the last reliability run (.reliability/*.json, written by the tests)
// into reliability-results.json and prints them as the README's "Reliability" table.
// Run by `npm run test:reliability` after the suite; `npx tsx test/reliability/report.ts` alone
// reprints the last run.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from '../helpers/service.js';
import { FIGURES_DIR } from './figures.js';
import { replaceGenerated } from '../docs/generated.js';

type Figures = Record<string, unknown> & { at?: string };

const sections: Record<string, Figures> = {};
if (fs.existsSync(FIGURES_DIR)) {
  for (const file of fs.readdirSync(FIGURES_DIR).filter((f) => f.endsWith('.json'))) {
    const figures = JSON.parse(fs.readFileSync(path.join(FIGURES_DIR, file), 'utf8')) as Figures;
    sections[path.basename(file, '.json')] = figures;
  }
}
if (Object.keys(sections).length === 0) {
  process.stderr.write('No figures yet: run `npm run test:reliability` first.\n');
  process.exit(1);
}

const machine = `${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()}`;
fs.writeFileSync(path.join(ROOT, 'reliability-results.json'), `${JSON.stringify({ machine, sections }, null, 2)}\n`);

const num = (v: unknown) => (typeof v === 'number' ? v.toLocaleString('en-US') : String(v ?? '–'));
const rows: string[] = [];
const row = (what: string, held: string) => rows.push(`| ${what} | ${held} |`);
let latencyTable = '';

const load = sections.load ?? sections['load-fast'];
if (load) {
  const per = load.perOperation as Record<string, { p50: number; p95: number }>;
  row(
    `Load: ${num(load.requests)} mixed requests (every endpoint), concurrency ${num(load.concurrency)}`,
    `${num(load.failures)} failures, ${num(load.busy)} BUSY; ${num(load.requestsPerSecond)} req/s; peak RSS ${num(load.peakRssMb)} MB`,
  );
  latencyTable = [
    '| Operation under that load | p50 ms | p95 ms |',
    '|---|---|---|',
    ...Object.entries(per)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([op, s]) => `| ${op} | ${num(s.p50)} | ${num(s.p95)} |`),
  ].join('\n');
}
const bp = sections.backpressure ?? sections['backpressure-fast'];
if (bp) {
  const lat = bp.busyLatencyMs as { p50: number; p95: number };
  row(
    `Backpressure: ${num(bp.requests)} simultaneous requests, queue bound ${num(bp.queueLimit)}, 1 worker per engine`,
    `${num(bp.busy)} answered BUSY + Retry-After (p50 ${num(lat.p50)} ms, p95 ${num(lat.p95)} ms), ${num(bp.succeeded)} served; peak RSS ${num(bp.peakRssMb)} MB (ceiling ${num(bp.rssCeilingMb)} MB); normal service right after`,
  );
}
const faults = sections.faults;
if (faults) {
  const injected = faults.injected as Record<string, string>;
  const officeCode = injected['file-size-limit-libreoffice-code'];
  const note =
    officeCode && officeCode !== 'OUTPUT_NOT_WRITABLE' ? ` (LibreOffice under the file-size limit answers ${officeCode}, not OUTPUT_NOT_WRITABLE)` : '';
  row(
    `Faults injected: ${Object.keys(injected)
      .filter((k) => injected[k] === 'survived')
      .join(', ')}`,
    `${num(faults.survived)} survived: the job got its contract error, nothing half-written, the next job succeeded${note}`,
  );
}
const hostile = sections.hostile ?? sections['hostile-fast'];
if (hostile) {
  const mutations = hostile.mutations as Record<string, number>;
  const lat = hostile.latencyMs as { p95: number; max: number };
  row(
    `Hostile input: ${num(hostile.files)} files (${Object.entries(mutations)
      .map(([m, n]) => `${m} ${n}`)
      .join(', ')}), ${num(hostile.requests)} requests over ${num(hostile.endpoints)} endpoints`,
    `${num(hostile.internalErrors)} 500s, ${num(hostile.late)} hangs; answers p95 ${num(lat.p95)} ms, max ${num(lat.max)} ms; same process healthy after`,
  );
}
for (const start of ['plain', 'launcher']) {
  const soak = sections[`soak-${start}`];
  if (!soak) continue;
  row(
    `Soak: ${num(soak.jobs)} sequential jobs (every endpoint), ${start} start`,
    `${num(soak.failures)} failures; RSS ${num(soak.rssAfterWarmUpMb)} → ${num(soak.rssEndMb)} MB after ${num(soak.warmUpJobs)} warm-up jobs (${num(soak.rssGrowthPercent)} %); fds ${num(soak.fdsAfterWarmUp)} → ${num(soak.fdsEnd)}; 0 temp files; LibreOffice processes ≤ ${num(soak.officeProcessesMax)}, ${num(soak.officeProcessesAfterStop)} after stop`,
  );
}
const shutdown = sections.shutdown;
if (shutdown) {
  row(
    `Shutdown: SIGTERM with ${num(shutdown.inFlight)} jobs in flight`,
    `exit ${num(shutdown.exitCode)} after ${num(shutdown.exitMs)} ms; ${num(shutdown.finished)} finished, ${num(shutdown.failedCleanly)} failed cleanly; no partial file, temp file or child left`,
  );
}
for (const start of ['plain', 'launcher']) {
  const idle = sections[`idle-memory-${start}`];
  if (!idle) continue;
  const extra = (op: string) => Math.round((idle[`${op}.afterRetirementMs`] as number) - (idle[`${op}.warmMs`] as number));
  const how = start === 'plain' ? '`node main.js serve`' : 'the portable launcher (glibc malloc settings)';
  row(
    `Idle memory, started as ${how}, --idle-timeout 3 s`,
    `whole tree ${num(idle.afterStartMb)} MB after start, ${num(idle.warmMb)} MB warm (one job per engine), ${num(idle.afterRetirementMb)} MB after retirement; first job after it: ${['pdf.merge', 'image.resize', 'ocr', 'convert'].map((op) => `${op} ${extra(op) >= 0 ? '+' : ''}${num(extra(op))} ms`).join(', ')} against warm`,
  );
}
const wasmStarts = sections['wasm-office-starts'];
if (wasmStarts) {
  const start = wasmStarts.startMs as { p50: number; max: number };
  const convert = wasmStarts.firstConvertMs as { p50: number; max: number };
  row(
    `WebAssembly office: ${num(wasmStarts.rounds)} starts in a row (start, convert a docx, stop)`,
    `no start hung (each bounded at 240 s); start p50 ${num(start.p50)} ms, max ${num(start.max)} ms; first conversion p50 ${num(convert.p50)} ms, max ${num(convert.max)} ms; no process left`,
  );
}
const security = sections.security;
if (security) {
  row(
    'Security',
    `${num(security.guardRequests)} guard violations refused, ${num(security.pathAttacks)} path escapes (.., symlinks, absolute, very long) refused, odd names (spaces, unicode, leading "-") through all endpoints`,
  );
}

const report = `Reliability figures (${machine}, ${new Date().toISOString().slice(0, 10)})\n\n| Scenario | What held |\n|---|---|\n${rows.join('\n')}\n\n${latencyTable}`;
replaceGenerated(path.join(ROOT, 'docs/reliability.md'), 'reliability', report);
process.stdout.write(`${report}\n\nWritten to reliability-results.json and docs/reliability.md\n`);
