// `npm run bench:queue` (not part of npm test): async throughput through the shared queue
// (issue 48). 200 small jobs — a third each merge, resize and OCR of a small image — through one
// service with jobs in-process, then one service (--no-local-worker) and 1, 2 and 4 `docwasm
// worker` processes on a real redis-server, all on this machine; jobs/s and p95 latency (submit
// → finished, as the client sees it). The queue's own overhead per job is measured apart: 50
// merges one at a time, in-process vs one worker, p50 latency difference. Writes the figures
// into docs/scaling-out.md between its BENCH markers.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cleanUpTestFile } from '../helpers/cleanup.js';
import { makePdf } from '../helpers/make-pdf.js';
import { finishedJob } from '../helpers/jobs.js';
import { startRedis, startWorker, type RunningWorker } from '../helpers/redis.js';
import { ROOT, startService, stopAndRemove, type RunningService } from '../helpers/service.js';

const JOBS = Number(process.env.BENCH_QUEUE_JOBS ?? 200);
const SEQUENTIAL = 50;
const DOC = path.join(ROOT, 'docs/scaling-out.md');

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docwasm-bench-queue-'));
fs.writeFileSync(path.join(dir, 'a.pdf'), makePdf({ pages: ['Alpha'] }));
fs.writeFileSync(path.join(dir, 'b.pdf'), makePdf({ pages: ['Bravo', 'Charlie'] }));
execFileSync('convert', [
  '-size',
  '420x90',
  'xc:white',
  '-fill',
  'black',
  '-pointsize',
  '36',
  '-annotate',
  '+12+60',
  'Queue bench 2026',
  path.join(dir, 'text.png'),
]);

/** The i-th job of the mix: merge, resize, OCR in turn. */
function jobOf(i: number, run: string): [string, Record<string, unknown>] {
  const out = `${run}/${i}`;
  if (i % 3 === 0) return ['/api/pdf/merge', { files: ['a.pdf', 'b.pdf'], output: `${out}.pdf` }];
  if (i % 3 === 1) return ['/api/image/resize', { input: 'text.png', output: `${out}.png`, width: 210 }];
  return ['/api/ocr', { input: 'text.png', language: 'eng' }];
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
};

/** Submits every job at once, waits for all; latency is each job's submit → seen finished. */
async function burst(service: RunningService, run: string): Promise<{ jobsPerSecond: number; p50: number; p95: number }> {
  const started = Date.now();
  const latencies = await Promise.all(
    Array.from({ length: JOBS }, async (_, i) => {
      const [route, body] = jobOf(i, run);
      const t0 = Date.now();
      const response = await service.post(route, { ...body, async: true });
      if (response.status !== 202) throw new Error(`${route}: ${response.status} ${JSON.stringify(response.body)}`);
      const job = await finishedJob(service, (response.body.data as { jobId: string }).jobId, 1_800_000);
      if (job.status !== 'succeeded') throw new Error(`${route}: ${job.status} ${JSON.stringify(job.result)}`);
      return Date.now() - t0;
    }),
  );
  return { jobsPerSecond: JOBS / ((Date.now() - started) / 1000), p50: percentile(latencies, 50), p95: percentile(latencies, 95) };
}

/** One merge at a time: what the queue adds to a job that waits for nothing else. */
async function sequential(service: RunningService, run: string): Promise<number> {
  const latencies: number[] = [];
  for (let i = 0; i < SEQUENTIAL; i += 1) {
    const t0 = Date.now();
    const response = await service.post('/api/pdf/merge', { files: ['a.pdf', 'b.pdf'], output: `${run}/${i}.pdf`, async: true });
    await finishedJob(service, (response.body.data as { jobId: string }).jobId);
    latencies.push(Date.now() - t0);
  }
  return percentile(latencies, 50);
}

async function main(): Promise<void> {
  const redis = await startRedis();
  const flags = ['--base-dir', dir, '--allow-dir', dir];
  const rows: string[] = [];
  // 200 jobs at once would fill an engine's queue (64 by default): BUSY is not what this measures.
  const inProcess = await startService([...flags, '--queue-limit', '256']);
  await burst(inProcess, 'warm');
  const embedded = await burst(inProcess, 'embedded');
  const embeddedP50 = await sequential(inProcess, 'seq-embedded');
  await stopAndRemove(inProcess);
  rows.push(`| in-process (no queue) | ${embedded.jobsPerSecond.toFixed(1)} | ${embedded.p50} | ${embedded.p95} |`);

  let queuedP50 = 0;
  for (const count of [1, 2, 4]) {
    const service = await startService([...flags, '--queue', redis.url, '--no-local-worker']);
    const workers: RunningWorker[] = [];
    for (let i = 0; i < count; i += 1)
      workers.push(await startWorker(redis.url, [...flags, '--workers', String(Math.max(1, Math.floor(os.availableParallelism() / count)))]));
    const figures = await burst(service, `warm-${count}`)
      .then(() => burst(service, `queued-${count}`))
      .catch((err: unknown) => {
        // The service's log says why a job or a poll failed.
        console.error(service.stderr().split('\n').slice(-40).join('\n'));
        throw err;
      });
    if (count === 1) queuedP50 = await sequential(service, 'seq-queued');
    for (const worker of workers) await worker.stop();
    await stopAndRemove(service);
    rows.push(`| service + ${count} worker${count > 1 ? 's' : ''} | ${figures.jobsPerSecond.toFixed(1)} | ${figures.p50} | ${figures.p95} |`);
    console.log(rows.at(-1));
  }
  await redis.kill();
  fs.rmSync(dir, { recursive: true, force: true });

  const table = [
    `Measured by \`npm run bench:queue\` on ${os.availableParallelism()} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}), shared with other work, ${new Date().toISOString().slice(0, 10)}:`,
    `${JOBS} jobs submitted at once (a third each: pdf/merge of 2 small PDFs, image/resize of a 420×90 PNG, OCR of it), latency = submit → seen finished by polling.`,
    '',
    '| setup | jobs/s | p50 ms | p95 ms |',
    '|---|---|---|---|',
    ...rows,
    '',
    `The queue's own cost, ${SEQUENTIAL} merges one at a time: p50 ${embeddedP50} ms in-process, ${queuedP50} ms through Redis and one worker — ${queuedP50 - embeddedP50} ms a job (the bound is 10 ms).`,
  ].join('\n');
  const doc = fs.readFileSync(DOC, 'utf8');
  fs.writeFileSync(DOC, doc.replace(/<!-- BENCH:START -->[\s\S]*<!-- BENCH:END -->/, `<!-- BENCH:START -->\n${table}\n<!-- BENCH:END -->`));
  console.log(table);
}

// A failed run leaves nothing behind either: its folder, and the services, workers and Redis it started.
await main().finally(async () => {
  await cleanUpTestFile();
  fs.rmSync(dir, { recursive: true, force: true });
});
