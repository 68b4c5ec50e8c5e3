// A pipeline step's fields the step's operation does not know (docs/automation.md): ignored
// like a request's, and warned about the same way, naming the step — over HTTP (also inside a
// step's objects), from `docwasm pipeline` (stderr), and from `docwasm watch` (its log, once, at
// start). A convert step takes its format from the pipeline's output, as /api/convert does.

import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopAtEnd } from '../helpers/cleanup.js';
import { DOCUMENT_FIXTURES, TEXT_LINE } from '../helpers/documents.js';
import { makePdf } from '../helpers/make-pdf.js';
import { CLI, startService, tempDir, type RunningService } from '../helpers/service.js';
import { pageCount, pdfPageTexts } from '../helpers/tools.js';

const LONG = 180_000;

let service: RunningService;
const file = (name: string) => path.join(service.dir, name);

beforeAll(async () => {
  service = await startService(['--workers', '1']);
  fs.writeFileSync(file('report.pdf'), makePdf({ pages: ['Page one', 'Page two', 'Page three'] }));
  fs.copyFileSync(path.join(DOCUMENT_FIXTURES, 'text-docx.docx'), file('letter.docx'));
});
afterAll(() => service.stop());

describe('unknown step fields', () => {
  it(
    'are warned about over HTTP, each naming its step, nested objects included',
    async () => {
      const steps = [
        { operation: 'pdf/redact', areas: [{ page: 1, x: 0, y: 0, width: 50, height: 20, colour: 'red' }], fil: 'black' },
        { operation: 'pdf/compress', qualty: 10 },
      ];
      const response = await service.post('/api/pipeline', { input: 'report.pdf', steps, output: 'chain.pdf' });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body.warnings).toEqual([
        'step 1 (pdf/redact): unknown field "areas[0].colour" ignored',
        'step 1 (pdf/redact): unknown field "fil" ignored; did you mean "fill"?',
        'step 2 (pdf/compress): unknown field "qualty" ignored; did you mean "quality"?',
      ]);
      expect(pageCount(file('chain.pdf'))).toBe(3);
    },
    LONG,
  );

  it(
    'are printed on stderr by docwasm pipeline, the result still on stdout',
    () => {
      fs.writeFileSync(file('steps.json'), JSON.stringify([{ operation: 'pdf/rotate', degrees: 90, page: '1' }]));
      const run = spawnSync(process.execPath, [CLI, 'pipeline', 'report.pdf', '--steps', 'steps.json', '-o', 'turned.pdf'], {
        cwd: service.dir,
        encoding: 'utf8',
        timeout: LONG,
      });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stderr).toBe('docwasm: warning: step 1 (pdf/rotate): unknown field "page" ignored; did you mean "pages"?\n');
      expect(run.stdout).toContain(file('turned.pdf'));
      expect(pageCount(file('turned.pdf'))).toBe(3);
    },
    LONG,
  );

  it(
    'are logged once by docwasm watch when it starts',
    async () => {
      const root = tempDir('docwasm-step-fields-watch-');
      fs.mkdirSync(path.join(root, 'in'));
      fs.writeFileSync(path.join(root, 'steps.json'), JSON.stringify([{ operation: 'pdf/compress', qualty: 10 }]));
      const child = stopAtEnd(
        spawn(process.execPath, [CLI, 'watch', 'in', '--steps', 'steps.json', '--out', 'out', '--settle', '0.2', '--workers', '1'], {
          cwd: root,
          stdio: ['ignore', 'ignore', 'pipe'],
        }),
      );
      let stderr = '';
      child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      for (const deadline = Date.now() + LONG - 30_000; !stderr.includes('docwasm watch: watching') && child.exitCode === null && Date.now() < deadline;)
        await new Promise((resolve) => setTimeout(resolve, 50));
      child.kill('SIGTERM');
      await exited;
      expect(stderr).toContain('docwasm watch: step 1 (pdf/compress): unknown field "qualty" ignored; did you mean "quality"?\n');
    },
    LONG,
  );
});

describe('a convert step without format', () => {
  it(
    "takes it from the pipeline's output extension",
    async () => {
      const response = await service.post('/api/pipeline', { input: 'letter.docx', steps: [{ operation: 'convert' }], output: 'letter.pdf' });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(pdfPageTexts(file('letter.pdf')).join('\n')).toContain(TEXT_LINE);
    },
    LONG,
  );

  it('says where the format is missing when neither the step nor the output names one', async () => {
    const response = await service.post('/api/pipeline', {
      input: 'letter.docx',
      steps: [{ operation: 'convert' }, { operation: 'pdf/compress' }],
      output: 'small.pdf',
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toContain('step 1 (convert): name its output with format');
  });
});
