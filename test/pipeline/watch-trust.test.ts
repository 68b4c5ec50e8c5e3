// `docwasm watch` never deletes or overwrites an input (real processes of the built CLI, over
// real folders, killed for real): folders that nest or collide are refused at start, an input
// moved where its name is taken gets a numbered name, a result folder is replaced only when
// this watcher made it, a second watcher of the same folders refuses to start (a stale lock
// after kill -9 is taken over), file names reach the log on one line, 255-byte names get an
// error record that fits, and a damaged state file is kept aside, not fatal.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stopAtEnd } from '../helpers/cleanup.js';
import { makePdf } from '../helpers/make-pdf.js';
import { CLI, freePort } from '../helpers/service.js';
import { pdfPageTexts, sha256 } from '../helpers/tools.js';
import { layout, LONG, refusedWatch, settled, startWatch, stateOf, stopWatch, waitFor } from '../helpers/watch.js';

const pdf = (text: string, pages = 1) => makePdf({ pages: Array.from({ length: pages }, (_, i) => `${text} ${i + 1}`) });
const BROKEN = '%PDF-1.7\nnot a PDF body\n';
/** A step that writes a folder per input (`out/<stem>/<stem>_1.png`). */
const TO_IMAGES = [{ operation: 'pdf/to-images', format: 'png', dpi: 36 }];
const LOCK = '.docwasm-watch.lock';

/** Every file under `dir` with its SHA-256, relative paths as keys. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) out[path.relative(dir, path.join(entry.parentPath, entry.name))] = sha256(path.join(entry.parentPath, entry.name));
  }
  return out;
}

describe('watch folders that nest or collide', () => {
  it(
    'refuses --done inside --out: dropping "done.pdf" (a folder per input) cannot wipe the inputs moved there',
    async () => {
      const { root, inDir, steps } = layout(TO_IMAGES);
      const outDir = path.join(root, 'out');
      fs.mkdirSync(path.join(outDir, 'done'), { recursive: true });
      fs.writeFileSync(path.join(outDir, 'done', 'earlier.pdf'), pdf('Moved there before'));
      fs.writeFileSync(path.join(inDir, 'done.pdf'), pdf('Named like the folder'));
      const before = tree(root);

      const result = await refusedWatch([inDir, '--steps', steps, '--out', outDir, '--done', path.join(outDir, 'done')]);

      expect(result.status, result.stderr).toBe(2);
      expect(result.stderr).toMatch(/--done \S+ is inside --out \S+: a result folder named like it .*would replace it/);
      expect(result.stderr).not.toMatch(/^\s+at /m);
      expect(tree(root)).toEqual(before);
    },
    LONG,
  );

  interface Dirs {
    root: string;
    out: string;
    done: string;
    link: string;
  }
  // Each layout: the folders given, relative to the test's root, and what the refusal says.
  const LAYOUTS: { name: string; args: (dirs: Dirs) => string[]; setup?: (root: string) => void; says: RegExp }[] = [
    { name: '--failed inside --out', args: (d) => ['--out', d.out, '--failed', path.join(d.out, 'failed')], says: /--failed \S+ is inside --out/ },
    {
      name: '--out equal to --done',
      args: (d) => ['--out', d.out, '--done', d.out],
      says: /--out \S+ and --done \S+ are the same folder: a result could replace an input moved there/,
    },
    { name: '--out equal to --failed', args: (d) => ['--out', d.out, '--failed', d.out], says: /--out \S+ and --failed \S+ are the same folder/ },
    {
      name: '--done equal to --failed',
      args: (d) => ['--out', d.out, '--done', d.done, '--failed', d.done],
      says: /--done \S+ and --failed \S+ are the same folder: an input's error record could replace an input/,
    },
    { name: '--out inside --done', args: (d) => ['--out', path.join(d.done, 'results'), '--done', d.done], says: /--out \S+ is inside --done/ },
    {
      name: '--failed inside --done',
      args: (d) => ['--out', d.out, '--done', d.done, '--failed', path.join(d.done, 'failed')],
      says: /--failed \S+ is inside --done/,
    },
    {
      name: '--done a symlink to --out',
      setup: (root) => fs.symlinkSync(path.join(root, 'out'), path.join(root, 'link')),
      args: (d) => ['--out', d.out, '--done', d.link],
      says: /--out \S+ and --done \S+ are the same folder \(through a symlink/,
    },
    {
      name: '--done a symlink to a folder inside --out',
      setup: (root) => {
        fs.mkdirSync(path.join(root, 'out', 'kept'), { recursive: true });
        fs.symlinkSync(path.join(root, 'out', 'kept'), path.join(root, 'link'));
      },
      args: (d) => ['--out', d.out, '--done', d.link],
      says: /--done \S+ is inside --out \S+ \(through a symlink/,
    },
    {
      name: 'the watched folder inside --out',
      args: (d) => ['--out', d.root],
      says: /The watched folder \S+ is inside --out \S+: a result folder named like the watched folder would replace it/,
    },
    {
      name: '--out a symlink to the watched folder',
      setup: (root) => fs.symlinkSync(path.join(root, 'in'), path.join(root, 'link')),
      args: (d) => ['--out', d.link],
      says: /--out must not be the watched folder itself/,
    },
  ];

  it.each(LAYOUTS)(
    'refuses $name at start (exit 2, saying why), touching nothing',
    async ({ args, setup, says }) => {
      const { root, inDir, steps } = layout(TO_IMAGES);
      setup?.(root);
      for (const name of ['done.pdf', 'failed.pdf', 'out.pdf', 'in.pdf']) fs.writeFileSync(path.join(inDir, name), pdf(name));
      const before = tree(root);
      const dirs = { root, out: path.join(root, 'out'), done: path.join(root, 'done'), link: path.join(root, 'link') };

      const result = await refusedWatch([inDir, '--steps', steps, ...args(dirs)]);

      expect(result.status, result.stderr).toBe(2);
      expect(result.stderr).toMatch(says);
      expect(tree(root)).toEqual(before);
      expect(fs.existsSync(path.join(inDir, LOCK))).toBe(false);
    },
    LONG,
  );

  it(
    'refuses the same with serve --watch',
    async () => {
      const { root, inDir, steps } = layout(TO_IMAGES);
      const result = await refusedWatch(
        ['--port', String(await freePort()), '--watch', inDir, '--steps', steps, '--out', path.join(root, 'out'), '--failed', path.join(root, 'out', 'failed')],
        ['serve'],
      );
      expect(result.status, result.stderr).toBe(2);
      expect(result.stderr).toMatch(/--failed \S+ is inside --out/);
    },
    LONG,
  );
});

describe('inputs moved where their name is taken', () => {
  it(
    'get a numbered name in --done and --failed (beside a record of that name); nothing there is replaced',
    async () => {
      const { root, inDir, outDir, steps } = layout();
      const done = path.join(root, 'done');
      const failed = path.join(root, 'failed');
      fs.mkdirSync(done);
      fs.mkdirSync(failed);
      fs.writeFileSync(path.join(done, 'report.pdf'), pdf('An earlier report'));
      fs.writeFileSync(path.join(failed, 'bad.pdf'), 'an earlier failed input\n');
      // A stray record: "bad (2).pdf" would have no room for its own.
      fs.writeFileSync(path.join(failed, 'bad (2).pdf.error.json'), 'not ours\n');
      const kept = tree(root);
      const watch = await startWatch([inDir, '--steps', steps, '--out', outDir, '--done', done, '--failed', failed]);

      const second = pdf('The second report');
      fs.writeFileSync(path.join(inDir, 'report.pdf'), second);
      fs.writeFileSync(path.join(inDir, 'bad.pdf'), BROKEN);
      await waitFor(() => fs.existsSync(path.join(done, 'report (2).pdf')) && fs.existsSync(path.join(failed, 'bad (3).pdf.error.json')), 'both moves');
      const third = pdf('The third report');
      fs.writeFileSync(path.join(inDir, 'report.pdf'), third);
      await waitFor(() => fs.existsSync(path.join(done, 'report (3).pdf')), 'the third move');
      await stopWatch(watch);

      // Everything that was there is there as it was.
      expect(tree(root)).toMatchObject(kept);
      expect(fs.readFileSync(path.join(done, 'report (2).pdf')).equals(second)).toBe(true);
      expect(fs.readFileSync(path.join(done, 'report (3).pdf')).equals(third)).toBe(true);
      expect(fs.readFileSync(path.join(failed, 'bad (3).pdf'), 'utf8')).toBe(BROKEN);
      expect(JSON.parse(fs.readFileSync(path.join(failed, 'bad (3).pdf.error.json'), 'utf8'))).toMatchObject({ code: 'INVALID_INPUT' });
      expect(fs.readdirSync(failed).sort()).toEqual(['bad (2).pdf.error.json', 'bad (3).pdf', 'bad (3).pdf.error.json', 'bad.pdf']);
      expect(fs.readdirSync(inDir).filter((name) => !name.startsWith('.'))).toEqual([]);
      expect(watch.lines('done')).toEqual([
        expect.stringContaining('kept in --done as "report (2).pdf"'),
        expect.stringContaining('kept in --done as "report (3).pdf"'),
      ]);
      expect(watch.lines('failed')).toEqual([expect.stringContaining('kept in --failed as "bad (3).pdf"')]);
    },
    LONG,
  );
});

describe('an input killed on its way to --done', () => {
  it(
    'is put in place at the next start, never removed',
    async () => {
      // What a kill leaves, made by construction: one input in its private dir only, one linked at its place already.
      const { root, inDir, outDir, steps } = layout();
      const done = path.join(root, 'done');
      const boxA = path.join(done, '.docwasm-moving-aaaaaa');
      const boxB = path.join(done, '.docwasm-moving-bbbbbb');
      fs.mkdirSync(boxA, { recursive: true });
      fs.mkdirSync(boxB);
      fs.writeFileSync(path.join(done, 'report.pdf'), 'an earlier report\n');
      fs.writeFileSync(path.join(boxA, 'report.pdf'), 'on its way\n');
      fs.writeFileSync(path.join(done, 'placed.pdf'), 'placed already\n');
      fs.linkSync(path.join(done, 'placed.pdf'), path.join(boxB, 'placed.pdf'));

      const watch = await startWatch([inDir, '--steps', steps, '--out', outDir, '--done', done]);
      await stopWatch(watch);

      expect(fs.readdirSync(done).sort()).toEqual(['placed.pdf', 'report (2).pdf', 'report.pdf']);
      expect(fs.readFileSync(path.join(done, 'report (2).pdf'), 'utf8')).toBe('on its way\n');
      expect(fs.readFileSync(path.join(done, 'report.pdf'), 'utf8')).toBe('an earlier report\n');
      expect(fs.statSync(path.join(done, 'placed.pdf')).nlink).toBe(1);
    },
    LONG,
  );
});

describe('result folders', () => {
  it(
    'replaces a result folder it made for that input, and never one it did not make',
    async () => {
      const { root, inDir, outDir, steps } = layout(TO_IMAGES);
      const failed = path.join(root, 'failed');
      fs.mkdirSync(path.join(outDir, 'keep'), { recursive: true });
      fs.writeFileSync(path.join(outDir, 'keep', 'notes.txt'), 'the user’s own folder\n');
      const watch = await startWatch([inDir, '--steps', steps, '--out', outDir, '--failed', failed]);
      fs.writeFileSync(path.join(inDir, 'keep.pdf'), pdf('Named like a folder of the user'));
      fs.writeFileSync(path.join(inDir, 'own.pdf'), pdf('Own', 1));
      await waitFor(settled(outDir, 2), 'both files');
      expect(fs.readdirSync(path.join(outDir, 'own'))).toEqual(['own_1.png']);

      // Changed: its own result folder is replaced by the new one.
      fs.writeFileSync(path.join(inDir, 'own.pdf'), pdf('Own again', 2));
      await waitFor(() => fs.existsSync(path.join(outDir, 'own', 'own_2.png')) && settled(outDir, 2)(), 'the new result');
      await stopWatch(watch);

      expect(fs.readdirSync(path.join(outDir, 'own')).sort()).toEqual(['own_1.png', 'own_2.png']);
      expect(fs.readFileSync(path.join(outDir, 'keep', 'notes.txt'), 'utf8')).toBe('the user’s own folder\n');
      expect(fs.readdirSync(path.join(outDir, 'keep'))).toEqual(['notes.txt']);
      expect(stateOf(outDir)['keep.pdf']).toMatchObject({ status: 'failed', code: 'OUTPUT_NOT_WRITABLE' });
      expect(fs.readdirSync(failed).sort()).toEqual(['keep.pdf', 'keep.pdf.error.json']);
      expect(JSON.parse(fs.readFileSync(path.join(failed, 'keep.pdf.error.json'), 'utf8')).error).toMatch(/was not made by this watcher/);
      expect(fs.readdirSync(outDir).filter((name) => name.startsWith('.docwasm-partial-'))).toEqual([]);
    },
    LONG,
  );
});

describe('one watcher per folder', () => {
  it(
    'refuses a second watcher of the same --out or the same folder; a lock left by kill -9 is taken over',
    async () => {
      const { root, inDir, outDir, steps } = layout();
      const otherIn = path.join(root, 'other-in');
      fs.mkdirSync(otherIn);
      const first = await startWatch([inDir, '--steps', steps, '--out', outDir]);
      const lock = JSON.parse(fs.readFileSync(path.join(outDir, LOCK), 'utf8')) as { pid: number };
      expect(lock.pid).toBe(first.child.pid);

      const sameOut = await refusedWatch([otherIn, '--steps', steps, '--out', outDir]);
      const sameIn = await refusedWatch([inDir, '--steps', steps, '--out', path.join(root, 'other-out')]);
      expect(sameOut.status, sameOut.stderr).toBe(2);
      expect(sameOut.stderr).toContain(`Another docwasm watcher (PID ${first.child.pid}) is using the results folder`);
      expect(sameIn.status, sameIn.stderr).toBe(2);
      expect(sameIn.stderr).toContain(`Another docwasm watcher (PID ${first.child.pid}) is using the watched folder`);
      // The refused one took nothing: the locks are the first one's still, and the other --out holds no lock of its own.
      expect(JSON.parse(fs.readFileSync(path.join(outDir, LOCK), 'utf8'))).toEqual(lock);
      expect(fs.existsSync(path.join(root, 'other-out', LOCK))).toBe(false);

      first.child.kill('SIGKILL');
      await new Promise((resolve) => first.child.once('exit', resolve));
      expect(fs.existsSync(path.join(outDir, LOCK))).toBe(true);
      const second = await startWatch([inDir, '--steps', steps, '--out', outDir]);
      fs.writeFileSync(path.join(inDir, 'after.pdf'), pdf('After the kill'));
      await waitFor(() => stateOf(outDir)['after.pdf']?.status === 'done', 'the file');
      await stopWatch(second);
      expect(fs.existsSync(path.join(outDir, LOCK))).toBe(false);
      expect(fs.existsSync(path.join(inDir, LOCK))).toBe(false);
    },
    LONG,
  );

  it(
    'honours a fresh lock of another host and takes over one left unrefreshed for a minute, or one whose PID now runs something else',
    async () => {
      const { inDir, outDir, steps } = layout();
      fs.mkdirSync(outDir);
      const lockFile = path.join(outDir, LOCK);
      const foreign = `${JSON.stringify({ pid: 4242, host: 'another-host.example', started: '1', token: 'theirs' })}\n`;
      fs.writeFileSync(lockFile, foreign);
      const fresh = await refusedWatch([inDir, '--steps', steps, '--out', outDir]);
      expect(fresh.status, fresh.stderr).toBe(2);
      expect(fresh.stderr).toMatch(/Another docwasm watcher \(PID 4242 on another-host\.example, its lock refreshed \d+ s ago\) is using the results folder/);
      expect(fs.readFileSync(lockFile, 'utf8')).toBe(foreign);

      // Not refreshed for two minutes: its watcher is gone.
      const old = new Date(Date.now() - 120_000);
      fs.utimesSync(lockFile, old, old);
      const takeover = await startWatch([inDir, '--steps', steps, '--out', outDir]);
      expect(JSON.parse(fs.readFileSync(lockFile, 'utf8'))).toMatchObject({ pid: takeover.child.pid });
      await stopWatch(takeover);

      // This host, a live PID (this test's own process), but a process started at another time than the lock says.
      fs.writeFileSync(lockFile, `${JSON.stringify({ pid: process.pid, host: os.hostname(), started: '1', token: 'reused' })}\n`);
      const reused = await startWatch([inDir, '--steps', steps, '--out', outDir]);
      expect(JSON.parse(fs.readFileSync(lockFile, 'utf8'))).toMatchObject({ pid: reused.child.pid });
      await stopWatch(reused);
      expect(
        fs.existsSync(lockFile),
        `exit ${reused.child.exitCode}; lock ${fs.existsSync(lockFile) ? fs.readFileSync(lockFile, 'utf8') : ''}; ${reused.stderr()}`,
      ).toBe(false);
    },
    LONG,
  );

  it(
    'two watchers started at once: one runs, the other refuses; each file is processed once',
    async () => {
      const { inDir, outDir, steps } = layout();
      const names = ['a.pdf', 'b.pdf', 'c.pdf', 'd.pdf'];
      for (const name of names) fs.writeFileSync(path.join(inDir, name), pdf(name));
      const args = [CLI, 'watch', inDir, '--steps', steps, '--out', outDir, '--settle', '0.2', '--workers', '1'];
      const both = [0, 1].map(() => {
        const child = stopAtEnd(spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] }));
        let stderr = '';
        child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        return { child, stderr: () => stderr };
      });
      await waitFor(() => both.some((w) => w.child.exitCode !== null) && settled(outDir, names.length)(), 'one refusal and every file');
      const runner = both.find((w) => w.child.exitCode === null);
      const refused = both.find((w) => w.child.exitCode !== null);
      expect(refused?.child.exitCode, refused?.stderr()).toBe(2);
      expect(refused?.stderr()).toMatch(/Another docwasm watcher \(PID \d+\) is using/);
      expect(runner, 'one watcher runs').toBeDefined();
      const exited = new Promise((resolve) => runner?.child.once('exit', resolve));
      runner?.child.kill('SIGTERM');
      await exited;
      const doneLines = both.flatMap((w) => w.stderr().split('\n')).filter((line) => line.startsWith('docwasm watch: done '));
      expect(doneLines.map((line) => line.split(' ')[3]).sort()).toEqual(names);
    },
    LONG,
  );
});

describe('file names', () => {
  it(
    'reach the log escaped, one line each: a newline or an escape sequence in a name forges nothing',
    async () => {
      const { inDir, outDir, steps } = layout();
      const forged = 'evil\ndocwasm watch: done forged.pdf → nowhere (1 ms)\n.pdf';
      const terminal = '\u001b[2Jcleared\r.pdf';
      const watch = await startWatch([inDir, '--steps', steps, '--out', outDir]);
      fs.writeFileSync(path.join(inDir, forged), pdf('Forger'));
      fs.writeFileSync(path.join(inDir, terminal), BROKEN);
      await waitFor(settled(outDir, 2), 'both files');
      await stopWatch(watch);

      expect(watch.lines('done')).toEqual([expect.stringContaining('done evil\\ndocwasm watch: done forged.pdf → nowhere (1 ms)\\n.pdf → ')]);
      expect(watch.lines('failed')).toEqual([expect.stringContaining('failed \\u001b[2Jcleared\\r.pdf: INVALID_INPUT')]);
      expect(watch.stderr().includes('\u001b') || watch.stderr().includes('\r')).toBe(false);
      expect(stateOf(outDir)[forged]?.status).toBe('done');
    },
    LONG,
  );

  it(
    'a 255-byte name fails with its own error record (shortened to fit) and is still moved to --failed',
    async () => {
      const { root, inDir, outDir, steps } = layout();
      const failed = path.join(root, 'failed');
      const ascii = `${'a'.repeat(251)}.pdf`;
      const accented = `${'é'.repeat(125)}.pdf`;
      expect([Buffer.byteLength(ascii), Buffer.byteLength(accented)]).toEqual([255, 254]);
      const watch = await startWatch([inDir, '--steps', steps, '--out', outDir, '--failed', failed]);
      fs.writeFileSync(path.join(inDir, ascii), BROKEN);
      fs.writeFileSync(path.join(inDir, accented), BROKEN);
      await waitFor(settled(outDir, 2), 'both files');
      await stopWatch(watch);

      expect(stateOf(outDir)).toMatchObject({ [ascii]: { status: 'failed', code: 'INVALID_INPUT' }, [accented]: { status: 'failed', code: 'INVALID_INPUT' } });
      expect(fs.readdirSync(inDir).filter((name) => !name.startsWith('.'))).toEqual([]);
      const names = fs.readdirSync(failed);
      expect(names).toEqual(expect.arrayContaining([ascii, accented]));
      const records = names.filter((name) => name.endsWith('.error.json'));
      expect(records).toHaveLength(2);
      for (const record of records) {
        expect(Buffer.byteLength(record)).toBeLessThanOrEqual(255);
        expect(JSON.parse(fs.readFileSync(path.join(failed, record), 'utf8'))).toMatchObject({ code: 'INVALID_INPUT' });
      }
      // Each record starts with its input's name, cut at a character boundary.
      expect(records.some((name) => name.startsWith('a'.repeat(200)))).toBe(true);
      expect(records.some((name) => name.startsWith('é'.repeat(100)))).toBe(true);
      expect(watch.lines('failed')).toHaveLength(2);
    },
    LONG,
  );
});

describe('the state file', () => {
  it.each([
    { name: 'cut short', text: '{"version":1,"files":{"a.pdf":{"size":12' },
    { name: 'not a state', text: '{"version":1,"files":{"a.pdf":"done"}}\n' },
  ])(
    '$name: kept aside with a one-line message, the watcher starts afresh and recognises the results it made',
    async ({ text }) => {
      const { inDir, outDir, steps } = layout();
      fs.writeFileSync(path.join(inDir, 'old.pdf'), pdf('Already handled'));
      const first = await startWatch([inDir, '--steps', steps, '--out', outDir]);
      await waitFor(() => stateOf(outDir)['old.pdf']?.status === 'done', 'the first file');
      await stopWatch(first);
      const inode = fs.statSync(path.join(outDir, 'old.pdf')).ino;
      fs.writeFileSync(path.join(outDir, '.docwasm-watch.json'), text);

      const watch = await startWatch([inDir, '--steps', steps, '--out', outDir]);
      fs.writeFileSync(path.join(inDir, 'new.pdf'), pdf('New'));
      await waitFor(() => stateOf(outDir)['new.pdf']?.status === 'done' && stateOf(outDir)['old.pdf']?.status === 'done', 'both files');
      await stopWatch(watch);

      const said = watch
        .stderr()
        .split('\n')
        .filter((line) => line.includes('state file'));
      expect(said).toEqual([
        expect.stringMatching(/^docwasm watch: the state file \S+ is damaged \(.+\); kept as \.docwasm-watch\.json\.bad-\S+, starting afresh/),
      ]);
      expect(watch.stderr()).not.toMatch(/^\s+at /m);
      const aside = fs.readdirSync(outDir).filter((name) => name.startsWith('.docwasm-watch.json.bad-'));
      expect(aside).toHaveLength(1);
      expect(fs.readFileSync(path.join(outDir, aside[0] as string), 'utf8')).toBe(text);
      // The result made before was recognised, not made again.
      expect(fs.statSync(path.join(outDir, 'old.pdf')).ino).toBe(inode);
      expect(pdfPageTexts(path.join(outDir, 'new.pdf'))[0]).toMatch(/New 1/);
    },
    LONG,
  );
});
