import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PathPolicy } from '../../src/files/paths.js';
import { stageOutput, withStagedOutputs, writeStaged } from '../../src/files/staging.js';
import type { FileRef } from '../../core/file-ref.js';
import { leftoverTempFiles, tempDir } from '../helpers/service.js';

/** Unconfined, as without --allow-dir. */
const policy: PathPolicy = { baseDir: '/', allowedDirs: [], maxInputBytes: 1 << 30 };

describe('staging', () => {
  it('writes into a temp file beside the target and renames it over the target on commit', async () => {
    const dir = tempDir();
    const target = path.join(dir, 'out', 'a.txt');
    const staged = await stageOutput(policy, target);
    await writeStaged(staged.temp, 'done', target);
    expect(leftoverTempFiles(path.dirname(target)).map((f) => fs.readFileSync(f, 'utf8'))).toEqual(['done']);
    expect(fs.existsSync(target)).toBe(false);
    await staged.commit();
    expect(fs.readFileSync(target, 'utf8')).toBe('done');
    expect(leftoverTempFiles(dir)).toEqual([]);
  });

  it('discard removes the temp file and leaves the target as it was', async () => {
    const dir = tempDir();
    const target = path.join(dir, 'a.txt');
    fs.writeFileSync(target, 'before');
    const staged = await stageOutput(policy, target);
    await writeStaged(staged.temp, 'never', target);
    await staged.discard();
    expect(fs.readFileSync(target, 'utf8')).toBe('before');
    expect(leftoverTempFiles(dir)).toEqual([]);
  });

  it('keeps the permission bits of a file it replaces', async () => {
    const dir = tempDir();
    const target = path.join(dir, 'script.sh');
    fs.writeFileSync(target, 'old', { mode: 0o750 });
    fs.chmodSync(target, 0o750);
    await withStagedOutputs(policy, [target], async ([temp]) => writeStaged(temp as FileRef, 'new', target));
    expect(fs.statSync(target).mode & 0o777).toBe(0o750);
    expect(fs.readFileSync(target, 'utf8')).toBe('new');
  });

  it('commits every output or none: a failing job leaves neither outputs nor temp files', async () => {
    const dir = tempDir();
    const targets = [path.join(dir, 'a.pdf'), path.join(dir, 'b.pdf')];
    await expect(
      withStagedOutputs(policy, targets, async ([first]) => {
        await writeStaged(first as FileRef, 'half', targets[0] as string);
        throw new Error('engine failed');
      }),
    ).rejects.toThrow('engine failed');
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('refuses a target that is a directory, or under a file, with OUTPUT_NOT_WRITABLE', async () => {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, 'taken'));
    fs.writeFileSync(path.join(dir, 'file'), '');
    await expect(stageOutput(policy, path.join(dir, 'taken'))).rejects.toMatchObject({ code: 'OUTPUT_NOT_WRITABLE' });
    await expect(stageOutput(policy, path.join(dir, 'file', 'x.pdf'))).rejects.toMatchObject({ code: 'OUTPUT_NOT_WRITABLE' });
    expect(leftoverTempFiles(dir)).toEqual([]);
  });

  it('refuses a FIFO, a device and a link to a device with OUTPUT_NOT_WRITABLE, before any write, and leaves them as they were', async () => {
    const dir = tempDir();
    const nodes = [path.join(dir, 'pipe')];
    execFileSync('mkfifo', [nodes[0] as string]);
    // mknod needs root: a copy of /dev/null in the temp dir, so the real one is never at stake.
    if (process.getuid?.() === 0) {
      execFileSync('mknod', [path.join(dir, 'null'), 'c', '1', '3']);
      fs.symlinkSync(path.join(dir, 'null'), path.join(dir, 'link-to-null'));
      nodes.push(path.join(dir, 'null'), path.join(dir, 'link-to-null'));
    }
    for (const node of nodes) {
      await expect(stageOutput(policy, node)).rejects.toMatchObject({ code: 'OUTPUT_NOT_WRITABLE', message: expect.stringContaining('not a regular file') });
    }
    expect(fs.lstatSync(path.join(dir, 'pipe')).isFIFO()).toBe(true);
    expect(leftoverTempFiles(dir)).toEqual([]);
  });

  it('refuses at commit a FIFO put at the target while the job ran, and leaves no temp file', async () => {
    const dir = tempDir();
    const target = path.join(dir, 'late.txt');
    await expect(
      withStagedOutputs(policy, [target], async ([temp]) => {
        await writeStaged(temp as FileRef, 'data', target);
        execFileSync('mkfifo', [target]);
      }),
    ).rejects.toMatchObject({ code: 'OUTPUT_NOT_WRITABLE' });
    expect(fs.lstatSync(target).isFIFO()).toBe(true);
    expect(leftoverTempFiles(dir)).toEqual([]);
  });
});

describe('folders staging creates', () => {
  const failing = (targets: string[]) =>
    withStagedOutputs(policy, targets, async () => {
      throw new Error('engine failed');
    });

  it('are removed, up to the first one created, when the job fails and leaves them empty', async () => {
    const dir = tempDir();
    await expect(failing([path.join(dir, 'new', 'deeper', 'a.pdf'), path.join(dir, 'new', 'deeper', 'b.pdf')])).rejects.toThrow('engine failed');
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('are removed when the last of several outputs staged in them is discarded, not before', async () => {
    const dir = tempDir();
    const target = (name: string) => path.join(dir, 'batch', name);
    const first = await stageOutput(policy, target('a.pdf'));
    const second = await stageOutput(policy, target('b.pdf'));
    await first.discard();
    expect(fs.existsSync(path.join(dir, 'batch'))).toBe(true);
    await second.discard();
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('stay when an output was committed into them, or when they existed before', async () => {
    const dir = tempDir();
    const kept = await stageOutput(policy, path.join(dir, 'mixed', 'ok.pdf'));
    const dropped = await stageOutput(policy, path.join(dir, 'mixed', 'failed.pdf'));
    await writeStaged(kept.temp, 'done', kept.target);
    await kept.commit();
    await dropped.discard();
    expect(fs.readdirSync(path.join(dir, 'mixed'))).toEqual(['ok.pdf']);

    fs.mkdirSync(path.join(dir, 'existing', 'inner'), { recursive: true });
    await expect(failing([path.join(dir, 'existing', 'inner', 'x.pdf')])).rejects.toThrow('engine failed');
    expect(fs.readdirSync(path.join(dir, 'existing'))).toEqual(['inner']);
    // Only the parts staging created go: `existing` stays, and so does what the user put there.
    await expect(failing([path.join(dir, 'existing', 'made', 'x.pdf')])).rejects.toThrow('engine failed');
    expect(fs.readdirSync(path.join(dir, 'existing'))).toEqual(['inner']);
  });

  it('are made again for a job staged while the previous one removes them', async () => {
    const dir = tempDir();
    const target = path.join(dir, 'again', 'a.pdf');
    const [failed, succeeded] = await Promise.allSettled([
      failing([target]),
      withStagedOutputs(policy, [target], ([temp]) => writeStaged(temp as FileRef, 'second', target)),
    ]);
    expect(failed.status).toBe('rejected');
    expect(succeeded.status).toBe('fulfilled');
    expect(fs.readFileSync(target, 'utf8')).toBe('second');
  });
});
