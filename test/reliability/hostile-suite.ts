// Sends a hostile corpus through every endpoint: each file to an endpoint of its own kind (in
// turn) and to one of another kind. Every answer must be a success or a contract error code
// (never a 500, a crash or a hang), and the service must be healthy and working afterwards.

import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leftoverTempFiles, startService, type RunningService } from '../helpers/service.js';
import { FIGURES_DIR, latencySummary, recordFigures } from './figures.js';
import { FIXTURES, P12_PASSWORD, writeFixtures } from './fixtures.js';
import { hostileCorpus, random, type HostileFile, type Kind } from './hostile-corpus.js';
import { OPERATIONS } from './operations.js';

/** Error codes a hostile file may produce (everything in the contract but routing and guards). */
const ALLOWED_CODES = new Set([
  'VALIDATION_ERROR',
  'FILE_NOT_FOUND',
  'OUTPUT_NOT_WRITABLE',
  'TOO_LARGE',
  'UNSUPPORTED_CONVERSION',
  'UNSUPPORTED_FORMAT',
  'INVALID_INPUT',
  'PASSWORD_REQUIRED',
  'INVALID_PAGE_RANGE',
  'BUSY',
  'TIMEOUT',
]);
const JOB_TIMEOUT_SECONDS = 20;
/**
 * A TIMEOUT answer plus the time to replace the worker or office, with room for a machine whose
 * other cores are busy (the WebAssembly office's tests start a 1.5 GB office beside this file:
 * an odt took 39 s to answer then, against 5 s alone): the bound tells a hang from an answer.
 */
const ANSWER_BOUND_MS = (JOB_TIMEOUT_SECONDS + 60) * 1000;
/** A budget refusal reads the file once (about a second for the PDF bombs), never the job's time limit. */
const BUDGET_BOUND_MS = 10_000;

const REQUESTS: Record<Kind, ((f: string, out: string) => { route: string; body: Record<string, unknown> })[]> = {
  pdf: [
    (f, out) => ({ route: '/api/pdf/merge', body: { files: [f], output: `out/${out}.pdf` } }),
    (f, out) => ({ route: '/api/pdf/split', body: { input: f, pages: '1', outputDir: `out/${out}` } }),
    (f, out) => ({ route: '/api/pdf/encrypt', body: { input: f, password: 'pw', output: `out/${out}.pdf` } }),
    (f) => ({ route: '/api/pdf/info', body: { input: f } }),
    (f, out) => ({ route: '/api/pdf/metadata', body: { input: f, output: `out/${out}.pdf`, title: 'Hostile' } }),
    (f, out) => ({ route: '/api/pdf/decrypt', body: { input: f, password: 'pw', output: `out/${out}.pdf` } }),
    (f, out) => ({ route: '/api/pdf/rotate', body: { input: f, degrees: 90, output: `out/${out}.pdf` } }),
    (f, out) => ({ route: '/api/pdf/rearrange', body: { input: f, pages: '1,1', output: `out/${out}.pdf` } }),
    (f, out) => ({ route: '/api/pdf/watermark', body: { input: f, text: 'DRAFT', output: `out/${out}.pdf` } }),
    (f, out) => ({ route: '/api/pdf/compress', body: { input: f, output: `out/${out}.pdf` } }),
    (f, out) => ({ route: '/api/pdf/to-pdfa', body: { input: f, output: `out/${out}.pdf` } }),
    (f, out) => ({ route: '/api/pdf/to-images', body: { input: f, dpi: 36, outputDir: `out/${out}` } }),
    (f, out) => ({ route: '/api/pdf/redact', body: { input: f, patterns: ['email', 'iban'], output: `out/${out}.pdf` } }),
    (f, out) => ({ route: '/api/pdf/stamp', body: { input: f, text: 'PAID', output: `out/${out}.pdf` } }),
    (f) => ({ route: '/api/pdf/form-fields', body: { input: f } }),
    (f, out) => ({ route: '/api/pdf/fill', body: { input: f, values: { name: 'x' }, output: `out/${out}.pdf` } }),
    (f, out) => ({ route: '/api/pdf/flatten', body: { input: f, output: `out/${out}.pdf` } }),
    (f, out) => ({ route: '/api/pdf/sign', body: { input: f, certificate: FIXTURES.p12, certificatePassword: P12_PASSWORD, output: `out/${out}.pdf` } }),
    (f) => ({ route: '/api/pdf/signatures', body: { input: f } }),
    (f, out) => ({
      route: '/api/pipeline',
      body: { input: f, steps: [{ operation: 'pdf/rotate', degrees: 90 }, { operation: 'pdf/compress' }], output: `out/${out}.pdf` },
    }),
  ],
  image: [
    (f, out) => ({ route: '/api/image/convert', body: { input: f, output: `out/${out}.png` } }),
    (f, out) => ({ route: '/api/image/compress', body: { input: f, output: `out/${out}.jpg` } }),
    (f, out) => ({ route: '/api/image/resize', body: { input: f, output: `out/${out}.webp`, width: 40 } }),
    (f) => ({ route: '/api/ocr', body: { input: f, language: 'eng', dpi: 72 } }),
    (f, out) => ({ route: '/api/pdf/from-images', body: { files: [f], output: `out/${out}.pdf` } }),
  ],
  document: [
    (f, out) => ({ route: '/api/convert', body: { input: f, output: `out/${out}.pdf`, format: 'pdf' } }),
    (f, out) => ({ route: '/api/convert/batch', body: { files: [f], format: 'pdf', outputDir: `out/${out}` } }),
    (f) => ({ route: '/api/read', body: { input: f, language: 'eng' } }),
  ],
};

interface Answer {
  file: string;
  mutation: string;
  route: string;
  status: number;
  codes: string[];
  ms: number;
}

/** Top-level code, or the item codes of a batch (HTTP 200 with failed items). */
function codesOf(body: Record<string, unknown> & { code?: string; success?: boolean; data?: Record<string, unknown> }): string[] {
  if (body.code) return [body.code];
  const results = body.data?.results as { success: boolean; code?: string }[] | undefined;
  if (results) return results.filter((r) => !r.success).map((r) => r.code ?? 'missing code');
  return body.success === true ? [] : ['no code'];
}

export function describeHostile(count: number, concurrency: number, section: string): void {
  describe(`hostile input: ${count} mutated files through every endpoint`, () => {
    let service: RunningService;
    let corpus: HostileFile[];
    beforeAll(async () => {
      service = await startService(['--timeout', String(JOB_TIMEOUT_SECONDS)]);
      await writeFixtures(service.dir);
      corpus = await hostileCorpus(count);
      fs.mkdirSync(path.join(service.dir, 'hostile'));
      for (const f of corpus) fs.writeFileSync(path.join(service.dir, 'hostile', f.name), f.data);
    }, 300_000);
    afterAll(async () => {
      await service.stop();
      // The service's own account of what went wrong, for diagnosing a failure of this suite.
      fs.writeFileSync(
        path.join(FIGURES_DIR, `${section}-service.log`),
        service
          .stderr()
          .split('\n')
          .filter((l) => !/^\S+ POST /.test(l))
          .join('\n'),
      );
    });

    it('answers every request with success or a contract error, in time, never a 500', async () => {
      const rand = random(42);
      const kinds = Object.keys(REQUESTS) as Kind[];
      const jobs = corpus.flatMap((f, i) => {
        const own = REQUESTS[f.kind];
        const otherKind = kinds.filter((k) => k !== f.kind)[Math.floor(rand() * (kinds.length - 1))] as Kind;
        const other = REQUESTS[otherKind];
        const input = `hostile/${f.name}`;
        return [
          { f, ...(own[i % own.length] as (typeof own)[number])(input, `${f.name}-own`) },
          { f, ...(other[Math.floor(rand() * other.length)] as (typeof other)[number])(input, `${f.name}-cross`) },
        ];
      });
      const answers: Answer[] = [];
      let next = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < jobs.length) {
            const job = jobs[next++] as (typeof jobs)[number];
            const t = performance.now();
            const r = await service.post(job.route, job.body).catch((err: unknown) => ({
              status: 0,
              body: { code: `connection: ${String((err as Error).cause ?? err)}` } as Record<string, unknown> & { code?: string },
            }));
            answers.push({ file: job.f.name, mutation: job.f.mutation, route: job.route, status: r.status, codes: codesOf(r.body), ms: performance.now() - t });
          }
        }),
      );
      const wallMs = performance.now() - started;
      const bad = answers.filter(
        (a) => a.status === 0 || (a.status >= 500 && !a.codes.every((c) => c === 'BUSY' || c === 'TIMEOUT')) || a.codes.some((c) => !ALLOWED_CODES.has(c)),
      );
      const late = answers.filter((a) => a.ms > ANSWER_BOUND_MS);
      const codes: Record<string, number> = {};
      for (const a of answers) for (const c of a.codes.length ? a.codes : ['success']) codes[c] = (codes[c] ?? 0) + 1;
      const mutations: Record<string, number> = {};
      for (const f of corpus) mutations[f.mutation] = (mutations[f.mutation] ?? 0) + 1;
      recordFigures(section, {
        files: corpus.length,
        requests: answers.length,
        endpoints: new Set(answers.map((a) => a.route)).size,
        mutations,
        codes,
        internalErrors: answers.filter((a) => a.status === 500).length,
        late: late.length,
        latencyMs: latencySummary(answers.map((a) => a.ms)),
        wallSeconds: Math.round(wallMs) / 1000,
      });
      expect(bad.map((a) => `${a.route} ${a.file} → ${a.status} ${a.codes.join(',')}`)).toEqual([]);
      expect(late.map((a) => `${a.route} ${a.file} took ${Math.round(a.ms)} ms`)).toEqual([]);
      expect(answers).toHaveLength(jobs.length);
      expect(new Set(answers.map((a) => a.route)).size).toBe(OPERATIONS.length);
    }, 600_000);

    it('answers TOO_LARGE within seconds for each budget bomb, on every route that decodes it', async () => {
      const decoding: Record<Kind, string[]> = {
        image: ['/api/image/convert', '/api/image/compress', '/api/image/resize', '/api/ocr', '/api/pdf/from-images'],
        pdf: ['/api/pdf/compress', '/api/pdf/to-pdfa', '/api/pdf/to-images', '/api/ocr'],
        document: [],
      };
      const wrong: string[] = [];
      for (const f of corpus.filter((c) => c.mutation === 'budget-bomb')) {
        const ocr = REQUESTS.image.filter((make) => make('x', 'x').route === '/api/ocr');
        for (const make of f.kind === 'pdf' ? [...REQUESTS.pdf, ...ocr] : REQUESTS[f.kind]) {
          const { route, body } = make(`hostile/${f.name}`, `${f.name}-budget`);
          if (!decoding[f.kind].includes(route)) continue;
          const t = performance.now();
          const r = await service.post(route, body);
          const ms = performance.now() - t;
          if (r.body.code !== 'TOO_LARGE' || ms > BUDGET_BOUND_MS) wrong.push(`${route} ${f.name} → ${r.status} ${r.body.code} in ${Math.round(ms)} ms`);
        }
      }
      expect(wrong).toEqual([]);
    }, 300_000);

    it('is still the same healthy process, serving every endpoint, with no temp file left', async () => {
      expect(service.child.exitCode).toBeNull();
      expect((await service.get('/api/health')).status).toBe(200);
      for (const op of OPERATIONS) {
        const r = await service.post(op.route, op.body(`after-${op.name}`));
        expect(r.status, `${op.name}: ${JSON.stringify(r.body)}`).toBe(200);
      }
      expect(leftoverTempFiles(service.dir)).toEqual([]);
    });
  });
}
