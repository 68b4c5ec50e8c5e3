// Editable documents of long PDFs (issue 44): a 300-page PDF converts to DOCX as an async job
// with progress, and the service's memory stays bounded — its resident peak (the kernel's VmHWM
// of the service process, whose engines are threads of it) under a fixed ceiling. The fixture is
// made before the request by qpdf (a LibreOffice-made two-page report repeated), not by docwasm;
// the DOCX is checked with unzip (a section per page) and pandoc (the text of the last page).

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runSoffice } from '../helpers/soffice.js';
import { leftoverTempFiles, startService, tempDir, type RunningService } from '../helpers/service.js';
import { PYTHON } from '../helpers/tools.js';

const PAGES = 300;
/** The service's resident peak allowed, MB: measured 296 MB for the 300 pages (one worker, 2 cores), half as much again allowed. */
const CEILING_MB = 450;

const SOURCE = `
import docx
d = docx.Document()
d.add_heading('Plant report, first page', 1)
for k in range(4):
    d.add_paragraph('Each plant reports its output, its staff and the energy it used over the month, and the board reads the figures in the order they come. ' * 3)
t = d.add_table(rows=4, cols=3)
t.style = 'Table Grid'
for r, row in enumerate([['Plant', 'Output', 'Staff'], ['North', '1,234', '40'], ['South', '2,000', '52'], ['East', '300', '17']]):
    for c, text in enumerate(row):
        t.cell(r, c).text = text
d.add_page_break()
d.add_heading('Plant report, second page', 2)
for k in range(5):
    d.add_paragraph('The second page closes the report with the remarks of each plant manager on the month and on the next. ' * 3)
d.save('pair.docx')
`;

let service: RunningService;
let dir: string;

beforeAll(async () => {
  dir = tempDir('docwasm-editable-pages-');
  const work = tempDir('docwasm-editable-pages-src-');
  execFileSync(PYTHON, ['-c', SOURCE], { cwd: work });
  runSoffice(path.join(work, 'profile'), ['--convert-to', 'pdf', '--outdir', work, path.join(work, 'pair.docx')]);
  const pair = path.join(work, 'pair.pdf');
  execFileSync('qpdf', ['--empty', '--pages', ...Array<string>(PAGES / 2).fill(pair), '--', path.join(dir, 'long.pdf')]);
  expect(
    execFileSync('qpdf', ['--show-npages', path.join(dir, 'long.pdf')])
      .toString()
      .trim(),
  ).toBe(String(PAGES));
  service = await startService(['--base-dir', dir, '--allow-dir', dir, '--workers', '1', '--timeout', '1200']);
}, 240_000);
afterAll(() => service.stop());

/** The service process's resident peak, MB (VmHWM: the kernel's high-water mark, no sampling). */
function residentPeakMb(pid: number): number {
  const kb = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) / 1024;
}

it(`converts a ${PAGES}-page PDF to DOCX as a job with progress, the service's memory under ${CEILING_MB} MB`, async () => {
  const submitted = await service.post('/api/convert', { input: 'long.pdf', output: 'long.docx', async: true });
  expect(submitted.status).toBe(202);
  const statusUrl = String((submitted.body.data as { statusUrl: string }).statusUrl);
  const seen: number[] = [];
  let status: { status: string; progress: { done: number; total: number }; result?: { data?: unknown } } | undefined;
  for (;;) {
    status = (await service.get(statusUrl)).body.data as typeof status;
    if (status?.progress) seen.push(status.progress.done);
    if (status?.status !== 'queued' && status?.status !== 'running') break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  expect(status?.status).toBe('succeeded');
  expect(status?.progress).toEqual({ done: PAGES, total: PAGES });
  // Progress only grows.
  expect(seen).toEqual([...seen].sort((a, b) => a - b));
  expect(status?.result?.data).toMatchObject({ format: 'docx', pages: PAGES, headings: PAGES });
  const peak = residentPeakMb(service.child.pid as number);
  process.stderr.write(`editable ${PAGES} pages: service resident peak ${Math.round(peak)} MB\n`);
  expect(peak).toBeLessThan(CEILING_MB);
  const out = path.join(dir, 'long.docx');
  const document = execFileSync('unzip', ['-p', out, 'word/document.xml'], { maxBuffer: 1e9 }).toString();
  expect(document.match(/<w:sectPr>/g)?.length).toBe(PAGES);
  const text = execFileSync('pandoc', ['-f', 'docx', '-t', 'gfm', out], { maxBuffer: 1e9 }).toString();
  expect(text.match(/^## Plant report, second page$/gm)?.length).toBe(PAGES / 2);
  expect(leftoverTempFiles(dir)).toEqual([]);
}, 1_200_000);
