// /api/pipeline through every door, with real files and real processes: chains checked with
// qpdf/poppler/identify, the chain validated before any work (nothing written, the step named),
// a failing middle step and a cancelled job leaving no output and no intermediate file, progress
// over steps × items, `docwasm pipeline --steps steps.json`, and the MCP tool.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENT_FIXTURES, TEXT_LINE } from '../helpers/documents.js';
import { makePdf } from '../helpers/make-pdf.js';
import { pollJob, submitHeld, type JobState } from '../helpers/jobs.js';
import { ENGLISH_TEXT, renderText } from '../helpers/ocr-images.js';
import { makeScannedPdf } from '../helpers/scanned-pdf.js';
import { CLI, leftoverTempFiles, startService, tempDir, type RunningService } from '../helpers/service.js';
import { pageCount, pdfPageTexts, qpdfCheck } from '../helpers/tools.js';

const LONG = 240_000;

let service: RunningService;
let dir: string;
const file = (name: string) => path.join(dir, name);

function put(name: string, content: Buffer | string): string {
  fs.mkdirSync(path.dirname(file(name)), { recursive: true });
  fs.writeFileSync(file(name), content);
  return name;
}

/** The pipeline work dirs of docwasm processes (the tests' TMPDIR is private to the run). */
const workDirs = () => fs.readdirSync(os.tmpdir()).filter((name) => /^docwasm-pipeline-\d+-/.test(name));

function identify(target: string): string {
  return spawnSync('identify', ['-format', '%m %w %h\n', target], { encoding: 'utf8' }).stdout.trim();
}

async function waitFor(condition: () => Promise<boolean> | boolean, timeoutMs = LONG - 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  dir = tempDir('docwasm-chains-');
  service = await startService(['--base-dir', dir, '--allow-dir', dir, '--workers', '1']);
  put('report.pdf', makePdf({ pages: ['Page one', 'Page two', 'Page three'] }));
  put('letter.docx', fs.readFileSync(path.join(DOCUMENT_FIXTURES, 'text-docx.docx')));
  put('scan1.png', await renderText('Invoice number twelve', { width: 1200 }));
  put('scan2.png', await renderText('Payment received today', { width: 1200 }));
  put('broken.pdf', '%PDF-1.7\nthis is not a PDF body at all\n');
  // Long by construction: 40 pages rendered at 300 dpi, one worker.
  put('long.pdf', makePdf({ pages: Array.from({ length: 40 }, (_, i) => `Long page ${i + 1}`) }));
}, LONG);

afterAll(async () => {
  await service?.stop();
});

describe('pipelines over HTTP', () => {
  it(
    'converts a docx to PDF, compresses and watermarks it (one output, steps reported)',
    async () => {
      const steps = [{ operation: 'convert', format: 'pdf' }, { operation: 'pdf/compress' }, { operation: 'pdf/watermark', text: 'CONFIDENTIAL', rotation: 0 }];
      const { status, body } = await service.post('/api/pipeline', { input: 'letter.docx', steps, output: 'out/letter.pdf' });

      expect(status, JSON.stringify(body)).toBe(200);
      expect(body.outputPath).toBe(file('out/letter.pdf'));
      expect(qpdfCheck(file('out/letter.pdf'))).toBe(true);
      const text = pdfPageTexts(file('out/letter.pdf')).join('\n');
      expect(text).toContain(TEXT_LINE);
      expect(text.replace(/\s/g, '')).toContain('CONFIDENTIAL');
      const reported = body.data?.steps as { operation: string; durationMs: number }[];
      expect(reported.map((s) => s.operation)).toEqual(['convert', 'pdf/compress', 'pdf/watermark']);
      for (const step of reported) expect(step.durationMs).toBeGreaterThanOrEqual(0);
      expect(reported[1]).toHaveProperty('inputBytes');
      // Only the final output was written beside the user's files.
      expect(fs.readdirSync(file('out'))).toEqual(['letter.pdf']);
      expect(workDirs()).toEqual([]);
    },
    LONG,
  );

  it(
    'splits a PDF and renders each part (many outputs feed each on), named after the parts',
    async () => {
      const steps = [
        { operation: 'pdf/split', pages: '1,2-3' },
        { operation: 'pdf/to-images', dpi: 36 },
      ];
      const { status, body } = await service.post('/api/pipeline', { input: 'report.pdf', steps, outputDir: 'images' });

      expect(status, JSON.stringify(body)).toBe(200);
      expect(fs.readdirSync(file('images')).sort()).toEqual(['report_1_1.png', 'report_2-3_1.png', 'report_2-3_2.png']);
      expect(body.data?.files).toEqual(['report_1_1.png', 'report_2-3_1.png', 'report_2-3_2.png'].map((n) => file(`images/${n}`)));
      // 612×792 pt at 36 dpi.
      expect(identify(file('images/report_2-3_2.png'))).toBe('PNG 306 396');
      // The to-images step ran once per part; its data names the parts' files by their final paths.
      const toImages = (body.data?.steps as Record<string, unknown>[])[1] as { items: { files: string[] }[] };
      expect(toImages.items.map((item) => item.files)).toEqual([
        [file('images/report_1_1.png')],
        [file('images/report_2-3_1.png'), file('images/report_2-3_2.png')],
      ]);
      expect(workDirs()).toEqual([]);
    },
    LONG,
  );

  it(
    'reads scans into searchable PDFs and merges them (a many-input step collects)',
    async () => {
      const steps = [{ operation: 'ocr', format: 'pdf', language: 'eng' }, { operation: 'pdf/merge' }];
      const { status, body } = await service.post('/api/pipeline', { files: ['scan1.png', 'scan2.png'], steps, output: 'scans.pdf' });

      expect(status, JSON.stringify(body)).toBe(200);
      expect(pageCount(file('scans.pdf'))).toBe(2);
      const [first, second] = pdfPageTexts(file('scans.pdf'));
      expect(first).toMatch(/Invoice number twelve/i);
      expect(second).toMatch(/Payment received today/i);
    },
    LONG,
  );

  it(
    "takes the last step's kind from the output's extension",
    async () => {
      const { status, body } = await service.post('/api/pipeline', {
        input: 'scan1.png',
        steps: [{ operation: 'image/resize', width: 300 }, { operation: 'image/convert' }],
        output: 'small.webp',
      });

      expect(status, JSON.stringify(body)).toBe(200);
      expect(identify(file('small.webp'))).toMatch(/^WEBP 300 /);
    },
    LONG,
  );

  it(
    'counts progress over steps × items in an async job',
    async () => {
      const accepted = await service.post('/api/pipeline', {
        input: 'report.pdf',
        steps: [
          { operation: 'pdf/split', pages: '1,2,3' },
          { operation: 'pdf/rotate', degrees: 90 },
        ],
        outputDir: 'rotated',
        async: true,
      });
      expect(accepted.status, JSON.stringify(accepted.body)).toBe(202);
      const jobId = (accepted.body.data as { jobId: string }).jobId;
      let job: { status: string; progress: { done: number; total: number } } | undefined;
      await waitFor(async () => {
        job = (await service.get(`/api/jobs/${jobId}`)).body.data as typeof job;
        return job?.status === 'succeeded' || job?.status === 'failed';
      });

      expect(job?.status).toBe('succeeded');
      // One split, then one rotation per part.
      expect(job?.progress).toEqual({ done: 4, total: 4 });
      expect(fs.readdirSync(file('rotated')).sort()).toEqual(['report_1.pdf', 'report_2.pdf', 'report_3.pdf']);
    },
    LONG,
  );

  it(
    'moves an async ocr → compress job as its pages are read, not only when a step ends',
    async () => {
      // Six scanned pages, each read by OCR for far longer than the poller's longest wait (500 ms).
      const pages = await Promise.all(
        Array.from({ length: 6 }, async (_, i) => ({ image: await renderText(`${ENGLISH_TEXT} Page ${i + 1}.`, { width: 2000 }), dpi: 300 })),
      );
      put('six-scans.pdf', await makeScannedPdf(pages));
      const jobId = await submitHeld(service, '/api/pipeline', {
        input: 'six-scans.pdf',
        steps: [{ operation: 'ocr', format: 'pdf', language: 'eng' }, { operation: 'pdf/compress' }],
        output: 'six-searchable.pdf',
      });

      const states = await pollJob(service, jobId, { timeoutMs: LONG - 30_000 });

      const last = states.at(-1) as JobState;
      expect(last.status, JSON.stringify(last.result)).toBe('succeeded');
      // Six pages of OCR and one compression.
      expect(last.progress).toEqual({ done: 7, total: 7 });
      for (const [i, state] of states.entries()) {
        const before = states[i - 1]?.progress ?? { done: 0, total: 0 };
        expect(state.progress.done).toBeGreaterThanOrEqual(before.done);
        expect(state.progress.total).toBeGreaterThanOrEqual(before.total);
        expect(state.progress.done).toBeLessThanOrEqual(state.progress.total);
      }
      const between = new Set(states.filter((s) => s.progress.done > 0 && s.progress.done < s.progress.total).map((s) => s.progress.done));
      expect([...between].length, JSON.stringify(states.map((s) => s.progress))).toBeGreaterThanOrEqual(3);
      expect(pageCount(file('six-searchable.pdf'))).toBe(6);
    },
    LONG,
  );
});

describe('the chain is validated before any work', () => {
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['an unknown operation', { steps: [{ operation: 'pdf/compress' }, { operation: 'pdf/squash' }] }, /step 2: unknown operation "pdf\/squash"/],
    [
      'a step reading what the one before cannot write',
      { steps: [{ operation: 'ocr' }, { operation: 'pdf/compress' }] },
      /step 2 \(pdf\/compress\) reads pdf, but step 1 \(ocr\) writes text/,
    ],
    [
      "a bad field of a step, by that operation's schema",
      { steps: [{ operation: 'pdf/compress' }, { operation: 'pdf/watermark', text: 'X', opacity: 7 }] },
      /step 2 \(pdf\/watermark\): opacity/,
    ],
    ['a missing field of a step', { steps: [{ operation: 'pdf/rotate' }] }, /step 1 \(pdf\/rotate\): degrees/],
    [
      'a step naming its own paths',
      { steps: [{ operation: 'pdf/compress', output: 'elsewhere.pdf' }] },
      /step 1 \(pdf\/compress\): "output" is not a step field/,
    ],
    ['an operation that writes no file', { steps: [{ operation: 'pdf/info' }] }, /step 1: "pdf\/info" cannot be a pipeline step/],
    ['several files for one output', { steps: [{ operation: 'pdf/split', pages: '1,2' }] }, /step 1 \(pdf\/split\) writes several files: give outputDir/],
    ['an unknown format', { steps: [{ operation: 'ocr', format: 'docx' }] }, /step 1 \(ocr\): format "docx" is not one of txt, pdf/],
  ];
  for (const [what, body, message] of cases) {
    it(`refuses ${what} (VALIDATION_ERROR naming the step), writing nothing`, async () => {
      const { status, body: answer } = await service.post('/api/pipeline', { input: 'report.pdf', output: 'refused/out.pdf', ...body });

      expect(status, JSON.stringify(answer)).toBe(400);
      expect(answer.code).toBe('VALIDATION_ERROR');
      expect(answer.error).toMatch(message);
      expect(fs.existsSync(file('refused'))).toBe(false);
    });
  }

  it('refuses a bad chain before accepting an async job', async () => {
    const { status, body } = await service.post('/api/pipeline', {
      input: 'report.pdf',
      steps: [{ operation: 'pdf/split', pages: '0' }],
      outputDir: 'refused',
      async: true,
    });

    expect(status, JSON.stringify(body)).not.toBe(202);
    expect(body.error).toMatch(/step 1 \(pdf\/split\)/i);
  });

  it("checks user paths against --allow-dir (intermediate files are the service's own)", async () => {
    const outside = tempDir('docwasm-chains-outside-');
    const { status, body } = await service.post('/api/pipeline', {
      input: 'report.pdf',
      steps: [{ operation: 'pdf/compress' }],
      output: path.join(outside, 'x.pdf'),
    });

    fs.writeFileSync(path.join(outside, 'secret.pdf'), makePdf({ pages: ['Secret'] }));
    const read = await service.post('/api/pipeline', { input: path.join(outside, 'secret.pdf'), steps: [{ operation: 'pdf/compress' }], output: 'stolen.pdf' });

    expect(status).toBe(403);
    expect(body.code).toBe('PATH_NOT_ALLOWED');
    expect(read.status).toBe(403);
    expect(read.body.code).toBe('PATH_NOT_ALLOWED');
    expect(fs.readdirSync(outside)).toEqual(['secret.pdf']);
    expect(fs.existsSync(file('stolen.pdf'))).toBe(false);
  });
});

describe('failures and cancel leave nothing', () => {
  it(
    'a failing step: its code and number, no output, no temp file, no work dir',
    async () => {
      put('mixed/one.pdf', makePdf({ pages: ['One'] }));
      const { status, body } = await service.post('/api/pipeline', {
        files: ['mixed/one.pdf', 'broken.pdf'],
        steps: [{ operation: 'pdf/compress' }, { operation: 'pdf/merge' }],
        output: 'failed/merged.pdf',
      });

      expect(status, JSON.stringify(body)).toBe(422);
      expect(body.code).toBe('INVALID_INPUT');
      expect(body.error).toMatch(/^Step 1 \(pdf\/compress\)/);
      expect(fs.existsSync(file('failed/merged.pdf'))).toBe(false);
      expect(leftoverTempFiles(dir)).toEqual([]);
      expect(workDirs()).toEqual([]);
    },
    LONG,
  );

  it(
    'a cancelled job ends cancelled with no output, no temp file and no work dir',
    async () => {
      const steps = [{ operation: 'pdf/to-images', dpi: 300 }, { operation: 'pdf/from-images' }];
      const accepted = await service.post('/api/pipeline', { input: 'long.pdf', steps, output: 'cancelled/long.pdf', async: true });
      expect(accepted.status, JSON.stringify(accepted.body)).toBe(202);
      const jobId = (accepted.body.data as { jobId: string }).jobId;
      // Cancel once the work dir holds an intermediate file: the chain is under way.
      await waitFor(() => workDirs().some((name) => fs.readdirSync(path.join(os.tmpdir(), name), { recursive: true }).length > 1));
      const cancel = await fetch(`${service.baseUrl}/api/jobs/${jobId}`, { method: 'DELETE' });
      expect(cancel.status).toBe(200);
      let status = '';
      await waitFor(async () => {
        status = ((await service.get(`/api/jobs/${jobId}`)).body.data as { status: string }).status;
        return status !== 'running' && status !== 'queued';
      });

      expect(status).toBe('cancelled');
      expect(fs.existsSync(file('cancelled/long.pdf'))).toBe(false);
      expect(leftoverTempFiles(dir)).toEqual([]);
      expect(workDirs()).toEqual([]);
    },
    LONG,
  );
});

describe('other doors', () => {
  it(
    'docwasm pipeline --steps steps.json in... -o out',
    () => {
      put(
        'cli/steps.json',
        JSON.stringify([
          { operation: 'pdf/rearrange', pages: '3,1' },
          { operation: 'pdf/encrypt', password: 'pw' },
        ]),
      );
      const result = spawnSync(process.execPath, [CLI, 'pipeline', '--steps', 'steps.json', '../report.pdf', '-o', 'locked.pdf'], {
        cwd: file('cli'),
        encoding: 'utf8',
        timeout: LONG,
      });

      expect(result.status, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/Ran 2 step\(s\): pdf\/rearrange → pdf\/encrypt/);
      expect(qpdfCheck(file('cli/locked.pdf'), 'pw')).toBe(true);
      expect(pdfPageTexts(file('cli/locked.pdf'), 'pw')).toEqual(['Page three', 'Page one']);
    },
    LONG,
  );

  it(
    'docwasm pipeline: a bad chain exits 2 naming the step; an unreadable steps file is a usage error',
    () => {
      put('cli/bad.json', JSON.stringify([{ operation: 'pdf/compress' }, { operation: 'pdf/rotate', degrees: 45 }]));
      const bad = spawnSync(process.execPath, [CLI, 'pipeline', '--steps', 'bad.json', '../report.pdf', '-o', 'never.pdf'], {
        cwd: file('cli'),
        encoding: 'utf8',
        timeout: LONG,
      });
      const missing = spawnSync(process.execPath, [CLI, 'pipeline', '--steps', 'missing.json', '../report.pdf', '-o', 'never.pdf'], {
        cwd: file('cli'),
        encoding: 'utf8',
        timeout: LONG,
      });

      expect(bad.status).toBe(2);
      expect(bad.stderr).toMatch(/VALIDATION_ERROR: .*step 2 \(pdf\/rotate\): degrees/);
      expect(missing.status).toBe(2);
      expect(missing.stderr).toMatch(/--steps: cannot read missing\.json/);
      expect(fs.existsSync(file('cli/never.pdf'))).toBe(false);
    },
    LONG,
  );

  it(
    'MCP lists the pipeline tool and runs it',
    async () => {
      const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--allow-dir', dir, '--base-dir', dir], stderr: 'pipe' });
      const client = new Client({ name: 'docwasm-test', version: '1.0.0' });
      await client.connect(transport);
      try {
        const { tools } = await client.listTools();
        const tool = tools.find((t) => t.name === 'pipeline');
        expect(tool?.inputSchema.required).toEqual(['steps']);
        const result = await client.callTool(
          { name: 'pipeline', arguments: { input: 'report.pdf', steps: [{ operation: 'pdf/rearrange', pages: '2' }], output: 'mcp.pdf' } },
          undefined,
          { timeout: 120_000 },
        );
        expect(result.isError, JSON.stringify(result.content)).toBe(false);
        expect(pdfPageTexts(file('mcp.pdf'))).toEqual(['Page two']);
      } finally {
        await client.close();
      }
    },
    LONG,
  );
});
