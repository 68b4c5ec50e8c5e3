// An input that is not a regular file — a FIFO, a device, a directory — is answered with a 4xx
// within seconds, whether it was given as such or renamed onto an input's name after the check
// (issue 28 item 4: FIFOs renamed over an input while /api/read asked for it left every libuv
// thread waiting on a FIFO; every file-touching request then hung and SIGTERM did not stop the
// service). Real services over loopback; every wait is bounded, so the old code fails here by a
// timeout instead of hanging the test run.

import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopAtEnd } from '../helpers/cleanup.js';
import { ROOT, startService, tempDir, type RunningService } from '../helpers/service.js';

/** An answer takes under 3 s here, even OCR of a small image on a loaded machine; waiting 20× that. */
const ANSWER_LIMIT_MS = 60_000;
/** A 4xx for a bad input comes before any engine runs: milliseconds; 10 s is "within seconds". */
const REFUSAL_LIMIT_MS = 10_000;
/** A service with nothing in flight stops in about a second. */
const STOP_LIMIT_MS = 20_000;
const RACE_ROUNDS = 30;

const FIXTURES = {
  pdf: path.join(ROOT, 'fixtures', 'pdf', 'text.pdf'),
  png: path.join(ROOT, 'fixtures', 'images', 'quadrants.png'),
  docx: path.join(ROOT, 'fixtures', 'documents', 'text-docx.docx'),
  doc: path.join(ROOT, 'fixtures', 'documents', 'text-doc.doc'),
};

interface Call {
  route: string;
  body: Record<string, unknown>;
}

/** Every endpoint family that opens an input, each with `name` as the input (its extension picks the reader). */
function callsFor(name: (ext: keyof typeof FIXTURES) => string, tag: string): Call[] {
  return [
    { route: '/api/read', body: { input: name('pdf') } },
    { route: '/api/read', body: { input: name('png'), language: 'eng' } },
    { route: '/api/read', body: { input: name('docx') } },
    { route: '/api/read', body: { input: name('doc') } },
    { route: '/api/pdf/info', body: { input: name('pdf') } },
    { route: '/api/image/convert', body: { input: name('png'), output: `out-${tag}.webp` } },
    { route: '/api/convert', body: { input: name('docx'), output: `out-${tag}.pdf`, format: 'pdf' } },
    { route: '/api/convert', body: { input: name('pdf'), output: `out-${tag}.md`, format: 'md' } },
    { route: '/api/ocr', body: { input: name('png'), language: 'eng', engine: 'tesseract' } },
    { route: '/api/pdf/from-images', body: { files: [name('png')], output: `out-${tag}-images.pdf` } },
  ];
}

/** POSTs with a bound: a request that gets no answer in time is reported, not waited for. */
async function post(service: RunningService, call: Call, limitMs: number): Promise<{ status: number; code?: string; ms: number }> {
  const started = Date.now();
  try {
    const response = await fetch(`${service.baseUrl}${call.route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(call.body),
      signal: AbortSignal.timeout(limitMs),
    });
    const body = (await response.json()) as { code?: string };
    return { status: response.status, ...(body.code !== undefined && { code: body.code }), ms: Date.now() - started };
  } catch (err) {
    if ((err as Error).name === 'TimeoutError') return { status: 0, code: `no answer in ${limitMs} ms`, ms: Date.now() - started };
    throw err;
  }
}

/** SIGTERM, then how long the service took to exit (SIGKILL after `limitMs`, reported as Infinity). */
async function stopTimed(service: RunningService, limitMs: number): Promise<number> {
  const started = Date.now();
  if (service.child.exitCode !== null) return 0;
  const exited = new Promise<void>((resolve) => service.child.once('exit', () => resolve()));
  service.child.kill('SIGTERM');
  const inTime = await Promise.race([exited.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), limitMs))]);
  if (inTime) return Date.now() - started;
  service.child.kill('SIGKILL');
  await exited;
  return Infinity;
}

/**
 * A child process that renames, over and over, the good file and then a FIFO onto each
 * `race.<ext>` in `dir` (hard links of the two, so the good file keeps the identity a check
 * sees), about a millisecond each, for at most `maxMs`.
 */
function startFifoSwapper(dir: string, maxMs: number): ChildProcess {
  const script = `
    const fs = require('fs'); const path = require('path');
    const [dir, maxMs, exts] = [process.argv[1], Number(process.argv[2]), process.argv[3].split(',')];
    const end = Date.now() + maxMs;
    const pause = new Int32Array(new SharedArrayBuffer(4));
    const swapIn = (source, ext) => {
      const race = path.join(dir, 'race.' + ext);
      try { fs.linkSync(source, race + '.next'); fs.renameSync(race + '.next', race); } catch { fs.rmSync(race + '.next', { force: true }); }
    };
    while (Date.now() < end) {
      for (const ext of exts) swapIn(path.join(dir, 'good.' + ext), ext);
      Atomics.wait(pause, 0, 0, 1);
      for (const ext of exts) swapIn(path.join(dir, 'fifo'), ext);
      Atomics.wait(pause, 0, 0, 1);
    }`;
  return stopAtEnd(spawn(process.execPath, ['-e', script, dir, String(maxMs), Object.keys(FIXTURES).join(',')], { stdio: 'ignore' }));
}

function describeService(label: string, confined: boolean): void {
  describe(`inputs that are not regular files (${label})`, () => {
    let service: RunningService;
    let dir: string;

    beforeAll(async () => {
      dir = tempDir('docwasm-test-nonregular-');
      for (const [ext, source] of Object.entries(FIXTURES)) fs.copyFileSync(source, path.join(dir, `good.${ext}`));
      execFileSync('mkfifo', [path.join(dir, 'fifo')]);
      service = await startService(['--base-dir', dir, ...(confined ? ['--allow-dir', dir] : [])]);
      // Engines and LibreOffice started before the race, so the answers it times are steady ones.
      for (const call of callsFor((ext) => `good.${ext}`, 'warm-up')) expect((await post(service, call, 180_000)).status, call.route).toBe(200);
      for (const name of fs.readdirSync(dir)) if (name.startsWith('out-')) fs.rmSync(path.join(dir, name));
    }, 400_000);
    afterAll(async () => {
      if (service) await stopTimed(service, STOP_LIMIT_MS);
    }, STOP_LIMIT_MS * 2);

    it('answers a FIFO, a character device and a directory given as the input with FILE_NOT_FOUND within seconds', async () => {
      for (const ext of Object.keys(FIXTURES)) {
        execFileSync('mkfifo', [path.join(dir, `fifo.${ext}`)]);
        fs.mkdirSync(path.join(dir, `dir.${ext}`));
        // The same device as /dev/zero (an endless read): made here when allowed (root), else reached through a link.
        try {
          execFileSync('mknod', [path.join(dir, `zero.${ext}`), 'c', '1', '5'], { stdio: 'ignore' });
        } catch {
          if (!confined) fs.symlinkSync('/dev/zero', path.join(dir, `zero.${ext}`));
        }
      }
      const kinds = ['fifo', 'dir', ...(fs.existsSync(path.join(dir, 'zero.pdf')) ? ['zero'] : [])];
      const answers: string[] = [];
      for (const kind of kinds) {
        for (const call of callsFor((ext) => `${kind}.${ext}`, kind)) {
          const answer = await post(service, call, REFUSAL_LIMIT_MS);
          answers.push(`${kind} ${call.route} ${JSON.stringify(call.body.input ?? call.body.files)}: ${answer.status} ${answer.code} ${answer.ms} ms`);
        }
      }
      const refused = (line: string) => / 404 FILE_NOT_FOUND /.test(line);
      expect(
        answers.filter((line) => !refused(line)),
        answers.join('\n'),
      ).toEqual([]);
      expect(fs.readdirSync(dir).filter((name) => name.startsWith('out-'))).toEqual([]);
    }, 300_000);

    it(`survives FIFOs renamed over the inputs while they are read (${RACE_ROUNDS} rounds of every endpoint), then answers at once and stops on SIGTERM`, async () => {
      const swapper = startFifoSwapper(dir, 240_000);
      const answers: { call: string; status: number; code?: string; ms: number }[] = [];
      try {
        for (let round = 0; round < RACE_ROUNDS; round++) {
          const calls = callsFor((ext) => `race.${ext}`, `race-${round}`);
          const settled = await Promise.all(
            calls.map(async (call) => ({
              call: `${call.route} ${JSON.stringify(call.body.input ?? call.body.files)}`,
              ...(await post(service, call, ANSWER_LIMIT_MS)),
            })),
          );
          answers.push(...settled);
          // An answer that never came: the service is stuck, and more rounds would only wait longer.
          if (settled.some((a) => a.status === 0)) break;
        }
      } finally {
        swapper.kill('SIGKILL');
      }
      const tally = new Map<string, number>();
      for (const a of answers) tally.set(`${a.status} ${a.code ?? 'OK'}`, (tally.get(`${a.status} ${a.code ?? 'OK'}`) ?? 0) + 1);
      const summary = [...tally].map(([k, n]) => `${k} ×${n}`).join(', ');
      console.log(`${label}: ${answers.length} raced requests: ${summary}; slowest ${Math.max(...answers.map((a) => a.ms))} ms`);
      // A success, or the input refused as not found / not a regular file / not the file checked.
      const acceptable = (a: { status: number; code?: string }) =>
        a.status === 200 || (a.status === 404 && a.code === 'FILE_NOT_FOUND') || (a.status === 403 && a.code === 'PATH_NOT_ALLOWED');
      expect(
        answers.filter((a) => !acceptable(a)).map((a) => `${a.call}: ${a.status} ${a.code}`),
        summary,
      ).toEqual([]);
      expect(answers.length).toBe(RACE_ROUNDS * callsFor(() => '', '').length);

      // Afterwards the service is whole: a normal read answers promptly, and SIGTERM stops it.
      const normal = await post(service, { route: '/api/read', body: { input: 'good.pdf' } }, REFUSAL_LIMIT_MS);
      expect(normal.status, `a normal read after the race: ${normal.code}`).toBe(200);
      const stopMs = await stopTimed(service, STOP_LIMIT_MS);
      console.log(`${label}: normal read after the race in ${normal.ms} ms; stopped ${stopMs} ms after SIGTERM`);
      expect(stopMs).toBeLessThan(STOP_LIMIT_MS);
    }, 600_000);
  });
}

describeService('confined by --allow-dir', true);
describeService('no allowed dirs', false);
