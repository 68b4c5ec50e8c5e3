// Faults injected into a running service: jobs past their timeout in every engine, a worker
// that runs out of memory, LibreOffice killed mid-conversion, and outputs that cannot be written
// (read-only dir, parent is a file, the file-size limit of `ulimit -f`). Each must end in the
// contract's error for that job alone, with nothing half-written, and the next job must succeed
// (past its timeout, the OCR engine also keeps no thread of the stopped job).

import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killHard, pdfText } from '../helpers/documents.js';
import { fromRaw, photoPixels } from '../helpers/images.js';
import { makeImagePdf, makePdf } from '../helpers/make-pdf.js';
import { ENGLISH_TEXT, slowOcrImage } from '../helpers/ocr-images.js';
import { leftoverTempFiles, startService, type ApiResponse, type RunningService } from '../helpers/service.js';
import { sha256 } from '../helpers/tools.js';
import { recordFigures } from './figures.js';
import { FIXTURES, OCR_TEXT, writeFixtures } from './fixtures.js';
import { launchService, runsAsRoot, shareWithService } from './launch.js';
import { isZombieOrGone, officeProcessesOf, settledThreads, waitUntil } from './proc.js';
import { makeDocx } from './docx.js';

const injected: Record<string, string> = {};

afterAll(() => recordFigures('faults', { injected, survived: Object.values(injected).filter((v) => v === 'survived').length }));

interface TimeoutCase {
  engine: 'pdf' | 'image' | 'ocr' | 'document';
  timeoutSeconds: number;
  heavy: (dir: string) => Promise<{ route: string; body: Record<string, unknown>; output: string }>;
  next: { route: string; body: Record<string, unknown> };
  /** Service flags besides --timeout. */
  flags?: string[];
  /** Called with the engine warm, before the heavy job; what it returns checks the service after the next job. */
  watch?: (service: RunningService) => Promise<(next: ApiResponse) => Promise<void>>;
}

// No case depends on this machine's speed: the engine is warmed by a first small job before the
// clock runs; each limit is far above that small job (which, after the TIMEOUT, also pays for a
// fresh worker or office on a loaded machine); and each heavy job is slow by construction, many
// times its limit on any machine (its memory grows only with the work done before the limit).
const TIMEOUT_CASES: TimeoutCase[] = [
  {
    engine: 'pdf',
    timeoutSeconds: 10,
    heavy: async (dir) => {
      // 1,000 copies of a 6,000-page PDF: six million pages to merge.
      fs.writeFileSync(path.join(dir, 'pages.pdf'), makePdf({ pages: Array.from({ length: 6000 }, (_, i) => `Page ${i}`) }));
      return { route: '/api/pdf/merge', body: { files: Array(1000).fill('pages.pdf'), output: 'late.pdf' }, output: 'late.pdf' };
    },
    next: { route: '/api/pdf/merge', body: { files: [FIXTURES.pdf, FIXTURES.pdf2], output: 'next.pdf' } },
  },
  {
    engine: 'image',
    timeoutSeconds: 5,
    // Lossless optimisation of a 100 MP photo-like PNG (89 MB): 67 s of CPU here. (An 81 MP
    // AVIF upscale, used before, is now refused up front as over the encoder's memory.)
    heavy: async (dir) => {
      await fromRaw(photoPixels(2500, 2500)).resize(10_000, 10_000).png({ compressionLevel: 6 }).toFile(path.join(dir, 'huge.png'));
      return { route: '/api/image/compress', body: { input: 'huge.png', output: 'late.png' }, output: 'late.png' };
    },
    next: { route: '/api/image/convert', body: { input: FIXTURES.png, output: 'next.webp' } },
  },
  {
    engine: 'ocr',
    timeoutSeconds: 30,
    heavy: async (dir) => {
      // Nine A4 pages of Chinese in 5 pt type, read in the default languages (slowOcrImage). Five
      // pages of English at 12 pt, used before, took 105 s here under load: only 3.5× the limit,
      // within reach of a fast quiet machine.
      fs.writeFileSync(path.join(dir, 'pages.png'), await slowOcrImage());
      return { route: '/api/ocr', body: { input: 'pages.png', output: 'late.txt' }, output: 'late.txt' };
    },
    next: { route: '/api/ocr', body: { input: FIXTURES.ocr, language: 'eng' } },
    // One tesseract.js thread: a stopped job whose thread stayed would leave the service's thread
    // count above what it was before (one TIMEOUT is enough to see a pile-up).
    flags: ['--workers', '1'],
    watch: async (service) => {
      const baseline = (await settledThreads(service.child.pid as number)).length;
      return async (next) => {
        expect((await settledThreads(service.child.pid as number)).length).toBeLessThanOrEqual(baseline);
        expect(String(next.body.text).replace(/\s+/g, ' ')).toContain(OCR_TEXT);
      };
    },
  },
  {
    engine: 'document',
    // The limit is per document from its launch; the long file takes 20 s and more (7× or more).
    timeoutSeconds: 3,
    heavy: async (dir) => {
      // 120,000 paragraphs (thousands of pages) in one file: LibreOffice prints nothing until it is done.
      fs.writeFileSync(path.join(dir, 'long.docx'), makeDocx(Array.from({ length: 120_000 }, (_, i) => `Paragraph ${i}: ${ENGLISH_TEXT}`)));
      return { route: '/api/convert', body: { input: 'long.docx', output: 'late.pdf', format: 'pdf' }, output: 'late.pdf' };
    },
    next: { route: '/api/convert', body: { input: FIXTURES.docx, output: 'next.pdf', format: 'pdf' } },
    // One slot, so that every office process seen before the heavy job is the stalled one's.
    flags: ['--workers', '1'],
  },
];

describe('faults: a job past its timeout', () => {
  for (const c of TIMEOUT_CASES) {
    it(`${c.engine}: answers TIMEOUT in time, leaves nothing behind, and the next job succeeds`, { timeout: 180_000 }, async () => {
      const service = await startService(['--timeout', String(c.timeoutSeconds), ...(c.flags ?? [])]);
      try {
        await writeFixtures(service.dir);
        // Engines start lazily; the first small job proves this one is up before the clock runs.
        const first = await service.post(c.next.route, c.next.body);
        expect(first.body.success, JSON.stringify(first.body)).toBe(true);
        const heavy = await c.heavy(service.dir);
        const checkAfter = await c.watch?.(service);
        const officesBefore = officeProcessesOf(service.child.pid as number);
        const started = performance.now();
        const late = await service.post(heavy.route, heavy.body);
        const ms = performance.now() - started;
        expect(late.status, JSON.stringify(late.body)).toBe(504);
        expect(late.body.code).toBe('TIMEOUT');
        // In time, not exactly on time: a busy machine adds start-up and kill time, never a hang.
        expect(ms).toBeLessThan(c.timeoutSeconds * 1000 * 2 + 30_000);
        expect(fs.existsSync(path.join(service.dir, heavy.output))).toBe(false);
        expect(leftoverTempFiles(service.dir)).toEqual([]);
        const next = await service.post(c.next.route, c.next.body);
        expect(next.status, JSON.stringify(next.body)).toBe(200);
        await checkAfter?.(next);
        if (c.engine === 'document') {
          // The stalled office was killed as a whole group (launcher included), and a new one served the next file.
          expect(officesBefore.length).toBeGreaterThan(0);
          expect(await waitUntil(() => officesBefore.every((pid) => isZombieOrGone(pid)), 10_000)).toBe(true);
          const after = officeProcessesOf(service.child.pid as number);
          expect(after.filter(isLauncher)).toEqual([]);
          expect(after.length).toBeGreaterThan(0);
          expect(pdfText(path.join(service.dir, 'next.pdf'))).toContain('Quarterly report');
        }
        injected[`timeout-${c.engine}`] = 'survived';
      } finally {
        await service.stop();
      }
    });
  }
});

describe('faults: a worker out of memory', () => {
  let service: RunningService;
  beforeAll(async () => {
    // cpdf keeps whole documents on the JS heap; with a 96 MiB cap a 20 MB image PDF cannot fit.
    service = await startService(['--pdf-engine', 'cpdf', '--workers', '2'], { DOCWASM_WORKER_HEAP_MB: '96' });
    await writeFixtures(service.dir);
    fs.writeFileSync(path.join(service.dir, 'huge.pdf'), makeImagePdf(6, 1000));
  });
  afterAll(() => service.stop());

  it('fails only its own job with TOO_LARGE; jobs beside it and after it succeed', async () => {
    const small = (i: number) => service.post('/api/pdf/merge', { files: [FIXTURES.pdf, FIXTURES.pdf2], output: `small-${i}.pdf` });
    const [oom, ...beside] = await Promise.all([
      service.post('/api/pdf/merge', { files: ['huge.pdf', 'huge.pdf'], output: 'oom.pdf' }),
      ...[1, 2, 3, 4].map(small),
    ]);
    expect(oom?.status, JSON.stringify(oom?.body)).toBe(413);
    expect(oom?.body.code).toBe('TOO_LARGE');
    expect(beside.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(fs.existsSync(path.join(service.dir, 'oom.pdf'))).toBe(false);
    expect(leftoverTempFiles(service.dir)).toEqual([]);
    expect((await small(5)).status).toBe(200);
    expect(service.child.exitCode).toBeNull();
    injected['worker-out-of-memory'] = 'survived';
  });
});

describe('faults: LibreOffice killed mid-conversion', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService(['--workers', '1']);
    await writeFixtures(service.dir);
    // 120,000 paragraphs: 185 s of LibreOffice work here, so that it is still converting when the
    // office is killed on any machine (the shared 20,000-paragraph heavy.docx took 9.8 s here
    // under load, a few seconds on a fast quiet machine: too close to the wait below).
    fs.writeFileSync(path.join(service.dir, 'long.docx'), makeDocx(Array.from({ length: 120_000 }, (_, i) => `Paragraph ${i}: ${ENGLISH_TEXT}`)));
  });
  afterAll(() => service.stop());

  it('fails that job cleanly, restarts the office, leaves no orphan, and converts the next file', async () => {
    const pid = service.child.pid as number;
    expect((await service.post('/api/convert', { input: FIXTURES.docx, output: 'first.pdf', format: 'pdf' })).status).toBe(200);
    const conversion = service.post('/api/convert', { input: 'long.docx', output: 'killed.pdf', format: 'pdf' });
    // Wait until the launcher runs (the conversion is under way), then kill the office itself.
    expect(await waitUntil(() => officeProcessesOf(pid).some((p) => isLauncher(p)), 60_000, 20)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const offices = officeProcessesOf(pid).filter((p) => !isLauncher(p));
    expect(offices.length).toBeGreaterThan(0);
    for (const p of offices) killHard(p);
    const killed = await conversion;
    expect(killed.status, JSON.stringify(killed.body)).toBeGreaterThanOrEqual(400);
    expect(killed.status).not.toBe(500);
    expect(killed.body.success).toBe(false);
    expect(fs.existsSync(path.join(service.dir, 'killed.pdf'))).toBe(false);
    expect(leftoverTempFiles(service.dir)).toEqual([]);
    // No process of the killed office lives on (its launcher included).
    expect(await waitUntil(() => offices.every((p) => !fs.existsSync(`/proc/${p}`) || isZombieOrGone(p)), 5_000)).toBe(true);
    const next = await service.post('/api/convert', { input: FIXTURES.docx, output: 'after.pdf', format: 'pdf' });
    expect(next.status, JSON.stringify(next.body)).toBe(200);
    const stopped = await service.stop();
    expect(stopped).toBe(0);
    expect(await waitUntil(() => officeProcessesOf(pid).length === 0, 5_000)).toBe(true);
    injected['soffice-killed'] = 'survived';
  });
});

function isLauncher(pid: number): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--convert-to');
  } catch {
    return false;
  }
}

/** One job per engine that writes an output, aimed at `target` (a stem without extension). */
function writingJobs(target: string): { engine: string; route: string; body: Record<string, unknown>; outputs: string[] }[] {
  return [
    { engine: 'pdf.merge', route: '/api/pdf/merge', body: { files: [FIXTURES.pdf], output: `${target}.pdf` }, outputs: [`${target}.pdf`] },
    {
      engine: 'pdf.split',
      route: '/api/pdf/split',
      body: { input: FIXTURES.pdf, pages: '1,2', outputDir: target },
      outputs: [`${target}/doc_1.pdf`, `${target}/doc_2.pdf`],
    },
    { engine: 'image.convert', route: '/api/image/convert', body: { input: FIXTURES.jpeg, output: `${target}.png` }, outputs: [`${target}.png`] },
    { engine: 'ocr', route: '/api/ocr', body: { input: FIXTURES.ocr, language: 'eng', output: `${target}.txt` }, outputs: [`${target}.txt`] },
    { engine: 'convert', route: '/api/convert', body: { input: FIXTURES.docx, output: `${target}.pdf`, format: 'pdf' }, outputs: [`${target}.pdf`] },
  ];
}

type WritingJob = ReturnType<typeof writingJobs>[number];

async function expectNotWritable(service: RunningService, job: WritingJob): Promise<void> {
  const code = await expectCleanFailure(service, job);
  expect({ engine: job.engine, code }).toEqual({ engine: job.engine, code: 'OUTPUT_NOT_WRITABLE' });
}

/** The job fails with a contract error (not 500), writes nothing, leaves no temp file, changes no input. */
async function expectCleanFailure(service: RunningService, job: WritingJob): Promise<string | undefined> {
  const inputs = fs
    .readdirSync(service.dir)
    .filter((f) => fs.statSync(path.join(service.dir, f)).isFile())
    .map((f) => path.join(service.dir, f));
  const before = inputs.map((f) => sha256(f));
  const { status, body } = await service.post(job.route, job.body);
  expect(body.success, `${job.engine}: ${JSON.stringify(body)}`).toBe(false);
  expect(status).toBeGreaterThanOrEqual(400);
  expect(status).not.toBe(500);
  for (const output of job.outputs) expect(fs.existsSync(path.join(service.dir, output)), output).toBe(false);
  expect(leftoverTempFiles(service.dir)).toEqual([]);
  expect(inputs.map((f) => sha256(f))).toEqual(before);
  return body.code;
}

describe('faults: outputs that cannot be written', () => {
  // One service for a read-only dir and a parent that is a file (its engines start once). Root
  // ignores permission bits, so the service runs as `nobody` when the tests run as root.
  let service: RunningService;
  beforeAll(async () => {
    service = await launchService({ unprivileged: true });
    await writeFixtures(service.dir);
  });
  afterAll(() => service.stop());

  it('a read-only output directory → OUTPUT_NOT_WRITABLE in every engine, nothing written, input unchanged', async () => {
    fs.mkdirSync(path.join(service.dir, 'ro'));
    fs.mkdirSync(path.join(service.dir, 'ro', 'split'));
    fs.chmodSync(path.join(service.dir, 'ro', 'split'), 0o555);
    fs.chmodSync(path.join(service.dir, 'ro'), 0o555);
    if (runsAsRoot()) expect(fs.statSync(service.dir).mode & 0o777).toBe(0o777);
    for (const job of writingJobs('ro/x')) await expectNotWritable(service, job);
    await expectNotWritable(service, {
      engine: 'pdf.split (existing dir)',
      route: '/api/pdf/split',
      body: { input: FIXTURES.pdf, pages: '1', outputDir: 'ro/split' },
      outputs: ['ro/split/doc_1.pdf'],
    });
    expect((await service.post('/api/pdf/merge', { files: [FIXTURES.pdf], output: 'fine.pdf' })).status).toBe(200);
    injected['read-only-dir'] = 'survived';
  });

  it('an output whose parent is a file → OUTPUT_NOT_WRITABLE in every engine', async () => {
    for (const job of writingJobs(`${FIXTURES.csv}/x`)) await expectNotWritable(service, job);
    // The folder the file is in is writable: the file as a parent is why they failed.
    expect((await service.post('/api/pdf/merge', { files: [FIXTURES.pdf], output: 'beside-the-file.pdf' })).status).toBe(200);
    injected['parent-is-a-file'] = 'survived';
  });

  it('the file-size limit (ulimit -f) hit while writing → OUTPUT_NOT_WRITABLE, no partial or temp file', async () => {
    // 1024 blocks = 512 KiB: enough for the service and LibreOffice to run, too little for these outputs.
    const service = await launchService({ fileSizeBlocks: 1024 });
    try {
      await writeFixtures(service.dir);
      fs.writeFileSync(path.join(service.dir, 'image-page.pdf'), makeImagePdf(1, 600));
      fs.writeFileSync(
        path.join(service.dir, 'long.docx'),
        makeDocx(Array.from({ length: 12_000 }, (_, i) => `Line ${i} of a long letter that fills many pages.`)),
      );
      for (const f of ['image-page.pdf', 'long.docx']) shareWithService(path.join(service.dir, f));
      await expectNotWritable(service, {
        engine: 'pdf.merge',
        route: '/api/pdf/merge',
        body: { files: ['image-page.pdf'], output: 'big.pdf' },
        outputs: ['big.pdf'],
      });
      await expectNotWritable(service, {
        engine: 'image.convert',
        route: '/api/image/convert',
        body: { input: FIXTURES.jpeg, output: 'big.png' },
        outputs: ['big.png'],
      });
      // LibreOffice also needs room for its own temp files, and under this limit it reports
      // "source file could not be loaded", which the backend maps to INVALID_INPUT: the failure
      // is clean (checked), its code is recorded for the report rather than asserted.
      const officeCode = await expectCleanFailure(service, {
        engine: 'convert',
        route: '/api/convert',
        body: { input: 'long.docx', output: 'long.pdf', format: 'pdf' },
        outputs: ['long.pdf'],
      });
      injected['file-size-limit-libreoffice-code'] = officeCode ?? 'none';
      expect((await service.post('/api/pdf/merge', { files: [FIXTURES.pdf], output: 'small.pdf' })).status).toBe(200);
      expect((await service.post('/api/convert', { input: FIXTURES.docx, output: 'small-doc.pdf', format: 'pdf' })).status).toBe(200);
      injected['file-size-limit'] = 'survived';
    } finally {
      await service.stop();
    }
  });
});
