// `docwasm watch` as real processes over real folders: dropped files processed, a failure
// recorded and not retried until the file changes, a file of another kind skipped and left,
// --done/--failed moves, a file still being written left alone until it settles, `serve --watch`,
// and kill -9 in the middle of a batch then restart: every file published exactly once (checked
// by the outputs' inodes), nothing lost, no input touched, no temp file left.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stopAtEnd } from '../helpers/cleanup.js';
import { makePdf } from '../helpers/make-pdf.js';
import { renderText } from '../helpers/ocr-images.js';
import { CLI, freePort } from '../helpers/service.js';
import { pdfPageTexts, qpdfCheck, sha256 } from '../helpers/tools.js';
import { layout, LONG, startWatch, stateOf, stopWatch, waitFor } from '../helpers/watch.js';

const ours = (dir: string) => fs.readdirSync(dir).filter((name) => name.endsWith('.docwasm.tmp') || name.startsWith('.docwasm-partial-'));
const workDirs = () => fs.readdirSync(os.tmpdir()).filter((name) => /^docwasm-pipeline-\d+-/.test(name));
const pdf = (text: string, pages = 1) => makePdf({ pages: Array.from({ length: pages }, (_, i) => `${text} ${i + 1}`) });

describe('docwasm watch', () => {
  it(
    'processes dropped files, records a failure, skips another kind, leaving every input as it was',
    async () => {
      const { inDir, outDir, steps } = layout();
      const watch = await startWatch([inDir, '--steps', steps, '--out', outDir]);
      fs.writeFileSync(path.join(inDir, 'report.pdf'), pdf('Report'));
      fs.writeFileSync(path.join(inDir, 'broken.pdf'), '%PDF-1.7\nthis is not a PDF body at all\n');
      fs.writeFileSync(path.join(inDir, 'notes.txt'), 'plain text, not for pdf/compress\n');
      const before = Object.fromEntries(
        fs
          .readdirSync(inDir)
          .filter((name) => !name.startsWith('.'))
          .map((name) => [name, sha256(path.join(inDir, name))]),
      );
      await waitFor(
        () => Object.keys(stateOf(outDir)).length === 3 && Object.values(stateOf(outDir)).every((e) => e.status !== 'running'),
        'three files handled',
      );
      await stopWatch(watch);

      expect(qpdfCheck(path.join(outDir, 'report.pdf'))).toBe(true);
      expect(pdfPageTexts(path.join(outDir, 'report.pdf'))[0]).toMatch(/Report 1[\s\S]*SEEN/);
      const error = JSON.parse(fs.readFileSync(path.join(outDir, 'broken.pdf.error.json'), 'utf8')) as { code: string; error: string; at: string };
      expect(error.code).toBe('INVALID_INPUT');
      expect(error.error).toMatch(/^Step 1 \(pdf\/compress\)/);
      expect(Number.isNaN(Date.parse(error.at))).toBe(false);
      expect(stateOf(outDir)).toMatchObject({
        'report.pdf': { status: 'done' },
        'broken.pdf': { status: 'failed', code: 'INVALID_INPUT' },
        'notes.txt': { status: 'skipped' },
      });
      expect(watch.lines('done')).toHaveLength(1);
      expect(watch.lines('failed')).toEqual([expect.stringContaining('broken.pdf: INVALID_INPUT')]);
      expect(watch.lines('skipped')).toEqual([expect.stringContaining('notes.txt')]);
      // Not a terminal: no progress line drawn.
      expect(watch.stderr()).not.toContain('\r');
      // Inputs untouched, nothing else in out.
      // (Hidden files are not inputs: the watcher's lock `.docwasm-watch.lock` is there while it runs.)
      expect(
        Object.fromEntries(
          fs
            .readdirSync(inDir)
            .filter((name) => !name.startsWith('.'))
            .map((name) => [name, sha256(path.join(inDir, name))]),
        ),
      ).toEqual(before);
      expect(fs.readdirSync(outDir).sort()).toEqual(['.docwasm-watch.json', 'broken.pdf.error.json', 'report.pdf']);
    },
    LONG,
  );

  it(
    'does not try a failed file again until it changes; a restart does not either',
    async () => {
      const { inDir, outDir, steps } = layout();
      fs.writeFileSync(path.join(inDir, 'broken.pdf'), '%PDF-1.7\nnot yet a PDF\n');
      const first = await startWatch([inDir, '--steps', steps, '--out', outDir, '--concurrency', '1']);
      await waitFor(() => stateOf(outDir)['broken.pdf']?.status === 'failed', 'the failure');
      await stopWatch(first);
      const recorded = fs.readFileSync(path.join(outDir, 'broken.pdf.error.json'), 'utf8');

      // A restart sees the failed file unchanged: no new attempt; a sentinel dropped after it is done.
      const second = await startWatch([inDir, '--steps', steps, '--out', outDir, '--concurrency', '1']);
      fs.writeFileSync(path.join(inDir, 'sentinel.pdf'), pdf('Sentinel'));
      await waitFor(() => stateOf(outDir)['sentinel.pdf']?.status === 'done', 'the sentinel');
      expect(second.lines('failed')).toEqual([]);
      expect(fs.readFileSync(path.join(outDir, 'broken.pdf.error.json'), 'utf8')).toBe(recorded);

      // Changed: tried again, and its stale error record goes once it succeeds.
      fs.writeFileSync(path.join(inDir, 'broken.pdf'), pdf('Fixed now'));
      await waitFor(() => stateOf(outDir)['broken.pdf']?.status === 'done', 'the fixed file');
      await stopWatch(second);
      expect(pdfPageTexts(path.join(outDir, 'broken.pdf'))[0]).toMatch(/Fixed now/);
      expect(fs.existsSync(path.join(outDir, 'broken.pdf.error.json'))).toBe(false);
    },
    LONG,
  );

  it(
    'moves inputs to --done after success and to --failed (beside the error record) after failure',
    async () => {
      const { root, inDir, outDir, steps } = layout();
      const done = path.join(root, 'done');
      const failed = path.join(root, 'failed');
      const good = pdf('Good');
      fs.writeFileSync(path.join(inDir, 'good.pdf'), good);
      fs.writeFileSync(path.join(inDir, 'bad.pdf'), '%PDF-1.7\nbroken\n');
      const watch = await startWatch([inDir, '--steps', steps, '--out', outDir, '--done', done, '--failed', failed]);
      await waitFor(() => fs.existsSync(path.join(done, 'good.pdf')) && fs.existsSync(path.join(failed, 'bad.pdf')), 'both moves');
      await waitFor(() => stateOf(outDir)['bad.pdf']?.status === 'failed', 'the failure recorded');
      await stopWatch(watch);

      expect(fs.readdirSync(inDir)).toEqual([]);
      expect(fs.readFileSync(path.join(done, 'good.pdf')).equals(good)).toBe(true);
      expect(qpdfCheck(path.join(outDir, 'good.pdf'))).toBe(true);
      expect(fs.readdirSync(failed).sort()).toEqual(['bad.pdf', 'bad.pdf.error.json']);
      expect(fs.existsSync(path.join(outDir, 'bad.pdf.error.json'))).toBe(false);
    },
    LONG,
  );

  it(
    "refuses a second input whose result would replace the first one's",
    async () => {
      const { inDir, outDir, steps } = layout();
      const watch = await startWatch([inDir, '--steps', steps, '--out', outDir]);
      fs.writeFileSync(path.join(inDir, 'scan.pdf'), pdf('First'));
      await waitFor(() => stateOf(outDir)['scan.pdf']?.status === 'done', 'the first file');
      const inode = fs.statSync(path.join(outDir, 'scan.pdf')).ino;
      fs.writeFileSync(path.join(inDir, 'scan.PDF'), pdf('Second'));
      await waitFor(() => stateOf(outDir)['scan.PDF']?.status === 'failed', 'the second file refused');
      await stopWatch(watch);

      expect(fs.statSync(path.join(outDir, 'scan.pdf')).ino).toBe(inode);
      expect(pdfPageTexts(path.join(outDir, 'scan.pdf'))[0]).toMatch(/First/);
      const error = JSON.parse(fs.readFileSync(path.join(outDir, 'scan.PDF.error.json'), 'utf8')) as { code: string; error: string };
      expect(error).toMatchObject({ code: 'VALIDATION_ERROR', error: expect.stringContaining('would replace that of scan.pdf') });
    },
    LONG,
  );

  it(
    'leaves a file alone while it is still being written (settle time)',
    async () => {
      const { inDir, outDir, steps } = layout();
      const watch = await startWatch([inDir, '--steps', steps, '--out', outDir, '--settle', '3']);
      // Written in pieces 20 ms apart, far inside the 3 s settle time: read early, it would be a broken PDF.
      const bytes = pdf('Slow writer', 4);
      const handle = fs.openSync(path.join(inDir, 'slow.pdf'), 'w');
      for (let at = 0; at < bytes.length; at += 64) {
        fs.writeSync(handle, bytes.subarray(at, at + 64));
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      fs.closeSync(handle);
      await waitFor(() => ['done', 'failed'].includes(stateOf(outDir)['slow.pdf']?.status ?? ''), 'the slow file');
      await stopWatch(watch);

      expect(stateOf(outDir)['slow.pdf']?.status).toBe('done');
      expect(pdfPageTexts(path.join(outDir, 'slow.pdf'))).toHaveLength(4);
    },
    LONG,
  );

  it(
    'survives kill -9 in the middle of a batch, twice: each file published exactly once, nothing lost',
    async () => {
      const { inDir, outDir, steps } = layout();
      const names = Array.from({ length: 24 }, (_, i) => `doc${String(i + 1).padStart(2, '0')}.pdf`);
      for (const name of names) fs.writeFileSync(path.join(inDir, name), pdf(name, 30));
      const inputs = Object.fromEntries(names.map((name) => [name, sha256(path.join(inDir, name))]));
      const args = [inDir, '--steps', steps, '--out', outDir, '--concurrency', '2'];
      const outputs = () => names.filter((name) => fs.existsSync(path.join(outDir, name)));
      /** Inode of each output published so far: a file published again would get a new one. */
      const published = new Map<string, number>();
      const processedLines: string[] = [];

      for (let round = 1; round <= 2; round++) {
        const already = outputs().length;
        const watch = await startWatch(args);
        // Killed as soon as this run has published a few files more, with others still to go.
        await waitFor(() => outputs().length >= already + 3, `round ${round} publishing`);
        watch.child.kill('SIGKILL');
        await new Promise((resolve) => watch.child.once('exit', resolve));
        processedLines.push(...watch.lines('done').filter((line) => !line.includes('recovered')));
        for (const name of outputs()) {
          const inode = fs.statSync(path.join(outDir, name)).ino;
          expect(published.get(name) ?? inode, `${name} was published again`).toBe(inode);
          published.set(name, inode);
        }
        expect(outputs().length, 'the kill came in the middle of the batch').toBeLessThan(names.length);
      }

      const last = await startWatch(args);
      await waitFor(() => names.every((name) => stateOf(outDir)[name]?.status === 'done'), 'every file done');
      await stopWatch(last);
      processedLines.push(...last.lines('done').filter((line) => !line.includes('recovered')));

      // Exactly once: outputs published before a kill kept their inode; each file has one output.
      for (const [name, inode] of published) expect(fs.statSync(path.join(outDir, name)).ino, `${name} was published again`).toBe(inode);
      expect(outputs()).toEqual(names);
      // No file ran to its end twice: at most one "done … ms" line per file over the three runs.
      const runsPerFile = names.map((name) => processedLines.filter((line) => line.startsWith(`docwasm watch: done ${name} `)).length);
      expect(Math.max(...runsPerFile)).toBe(1);
      // The last run logged each of the files it found unfinished exactly once.
      const lastLines = [...last.lines('done'), ...last.lines('failed')];
      expect(new Set(lastLines).size).toBe(lastLines.length);
      expect(lastLines.length).toBe(names.length - published.size + last.lines('done').filter((l) => l.includes('recovered')).length);
      for (const name of names) expect(pdfPageTexts(path.join(outDir, name))).toHaveLength(30);
      expect(Object.fromEntries(names.map((name) => [name, sha256(path.join(inDir, name))]))).toEqual(inputs);
      expect(ours(outDir)).toEqual([]);
      expect(workDirs()).toEqual([]);
    },
    LONG,
  );

  it(
    'after a kill between publishing and recording, records the output instead of making it again',
    async () => {
      // The state a kill leaves in that window, made by construction: `running` entries for two
      // files; a.pdf's output was published (a new inode), b.pdf's output is the one from before.
      const { inDir, outDir, steps } = layout();
      fs.mkdirSync(outDir);
      for (const name of ['a.pdf', 'b.pdf']) {
        fs.writeFileSync(path.join(inDir, name), pdf(`Input ${name}`));
        fs.writeFileSync(path.join(outDir, name), pdf(`Older result ${name}`));
      }
      const entry = (name: string, previousOutput: number | null) => {
        const { size, mtimeMs } = fs.statSync(path.join(inDir, name));
        return { size, mtimeMs, status: 'running', at: new Date().toISOString(), output: path.join(outDir, name), previousOutput };
      };
      const inodeOf = (name: string) => fs.statSync(path.join(outDir, name)).ino;
      const files = { 'a.pdf': entry('a.pdf', null), 'b.pdf': entry('b.pdf', inodeOf('b.pdf')) };
      fs.writeFileSync(path.join(outDir, '.docwasm-watch.json'), JSON.stringify({ version: 1, files }));
      const publishedA = inodeOf('a.pdf');
      const oldB = inodeOf('b.pdf');

      const watch = await startWatch([inDir, '--steps', steps, '--out', outDir]);
      await waitFor(() => ['a.pdf', 'b.pdf'].every((name) => stateOf(outDir)[name]?.status === 'done'), 'both recorded');
      await stopWatch(watch);

      expect(inodeOf('a.pdf')).toBe(publishedA);
      expect(watch.lines('done')).toHaveLength(2);
      expect(watch.lines('done')).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^docwasm watch: done a\.pdf .*recovered/),
          expect.stringMatching(/^docwasm watch: done b\.pdf .* ms\)$/),
        ]),
      );
      expect(inodeOf('b.pdf')).not.toBe(oldB);
      expect(pdfPageTexts(path.join(outDir, 'b.pdf'))[0]).toMatch(/Input b\.pdf 1/);
    },
    LONG,
  );

  it(
    'draws a progress line on a terminal',
    async () => {
      const { inDir, outDir, steps } = layout();
      for (let i = 1; i <= 3; i++) fs.writeFileSync(path.join(inDir, `t${i}.pdf`), pdf(`Terminal ${i}`));
      const command = [process.execPath, CLI, 'watch', inDir, '--steps', steps, '--out', outDir, '--settle', '0.2', '--workers', '1']
        .map((arg) => `'${arg}'`)
        .join(' ');
      const child = stopAtEnd(spawn('script', ['-qec', command, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'] }));
      let output = '';
      child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      await waitFor(() => output.includes('] 3/3'), 'the progress line to reach 3/3');
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;

      expect(output).toMatch(/\rdocwasm watch \[#+-*\] [12]\/3/);
      expect(output.match(/docwasm watch: done t\d\.pdf/g)).toHaveLength(3);
    },
    LONG,
  );

  it(
    'with convert to md reads every kind read reads: a PDF, an HTML page and an image, not only office files',
    async () => {
      const { root, inDir, outDir } = layout();
      const steps = path.join(root, 'md-steps.json');
      fs.writeFileSync(steps, JSON.stringify([{ operation: 'convert', format: 'md', language: 'eng' }]));
      const watch = await startWatch([inDir, '--steps', steps, '--out', outDir]);
      fs.writeFileSync(path.join(inDir, 'report.pdf'), pdf('Quarterly report'));
      fs.writeFileSync(path.join(inDir, 'page.html'), '<html><body><h1>Release notes</h1><p>Watch folders read HTML.</p></body></html>');
      fs.writeFileSync(path.join(inDir, 'line.png'), await renderText('Scanned receipt', { width: 1200 }));
      await waitFor(() => Object.values(stateOf(outDir)).filter((entry) => entry.status !== 'running').length === 3, `three files handled:\n${watch.stderr()}`);
      await stopWatch(watch);

      expect(watch.lines('skipped')).toEqual([]);
      expect(Object.values(stateOf(outDir)).map((entry) => entry.status)).toEqual(['done', 'done', 'done']);
      expect(fs.readFileSync(path.join(outDir, 'report.md'), 'utf8')).toContain('Quarterly report 1');
      expect(fs.readFileSync(path.join(outDir, 'page.md'), 'utf8')).toMatch(/^# Release notes[\s\S]*Watch folders read HTML\./m);
      expect(fs.readFileSync(path.join(outDir, 'line.md'), 'utf8')).toContain('Scanned receipt');
    },
    LONG,
  );

  it(
    'runs beside the HTTP service with serve --watch',
    async () => {
      const { inDir, outDir, steps } = layout();
      const port = await freePort();
      const watch = await startWatch(['--port', String(port), '--watch', inDir, '--steps', steps, '--out', outDir], ['serve'], 'listening on');
      fs.writeFileSync(path.join(inDir, 'served.pdf'), pdf('Served'));
      await waitFor(() => stateOf(outDir)['served.pdf']?.status === 'done', 'the served file');
      const health = await fetch(`http://127.0.0.1:${port}/api/health`);
      await stopWatch(watch);

      expect(health.status).toBe(200);
      expect(pdfPageTexts(path.join(outDir, 'served.pdf'))[0]).toMatch(/Served 1/);
    },
    LONG,
  );
});
