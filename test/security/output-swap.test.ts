// Issue 41, item 1: an output folder renamed, or swapped for a symlink, while a job runs cannot
// redirect the job's output. Every writer (the main thread's writeStaged and copyToStaged, the
// engine workers' writeOutputFile, both offices through the service) writes into the folder
// that was checked, and the commit proves the path still leads there: the job answers
// PATH_NOT_ALLOWED, nothing is written or replaced outside, and no temp file is left anywhere.
// The first block swaps deterministically between staging and commit; the second races real
// jobs over HTTP, swapping the folder the moment the job's temp file appears in it.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PathPolicy } from '../../src/files/paths.js';
import { copyToStaged, stageOutput, withStagedOutputs, writeStaged } from '../../src/files/staging.js';
import type { FileRef } from '../../core/file-ref.js';
import { writeOutputFile } from '../../wasm/shared/io.js';
import { makePdf } from '../helpers/make-pdf.js';
import { leftoverTempFiles, startService, tempDir, type RunningService } from '../helpers/service.js';
import { backendsUnderTest, waitForOfficeReady, WASM_TEST_TIMEOUT_MS } from '../helpers/wasm-office.js';

const PRECIOUS = 'precious: must never be replaced';

interface Layout {
  root: string;
  inside: string;
  outside: string;
  policy: PathPolicy;
}

function layout(): Layout {
  const root = fs.realpathSync(tempDir('docwasm-test-swap-'));
  const inside = path.join(root, 'inside');
  const outside = path.join(root, 'outside');
  fs.mkdirSync(path.join(inside, 'race', 'sub'), { recursive: true });
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, 'owned.csv'), PRECIOUS);
  return { root, inside, outside, policy: { baseDir: inside, allowedDirs: [inside], maxInputBytes: 1 << 30 } };
}

/** `mv sub sub.old; ln -s outside sub`, as the attacker of the issue does. */
function swapForLink({ inside, outside }: Layout, folder = path.join('race', 'sub')): void {
  const dir = path.join(inside, folder);
  fs.renameSync(dir, `${dir}.old`);
  fs.symlinkSync(outside, dir);
}

function expectNothingOutside({ root, outside }: Layout): void {
  expect(fs.readdirSync(outside)).toEqual(['owned.csv']);
  expect(fs.readFileSync(path.join(outside, 'owned.csv'), 'utf8')).toBe(PRECIOUS);
  expect(leftoverTempFiles(root)).toEqual([]);
}

const writers: Record<string, (temp: FileRef, target: string, scratch: string) => Promise<void>> = {
  'the main thread (writeStaged)': (temp, target) => writeStaged(temp, 'a,b\n1,2\n', target),
  'an office product copied in (copyToStaged)': async (temp, target, scratch) => {
    const product = path.join(scratch, 'product.csv');
    fs.writeFileSync(product, 'a,b\n1,2\n');
    await copyToStaged(product, temp, target);
  },
  'an engine worker (writeOutputFile)': async (temp) => writeOutputFile(temp, 'a,b\n1,2\n'),
};

describe('an output folder swapped between staging and commit', () => {
  for (const [writer, write] of Object.entries(writers)) {
    it(`is refused with PATH_NOT_ALLOWED when written by ${writer}: nothing outside, no temp file left`, async () => {
      const l = layout();
      const target = path.join(l.inside, 'race', 'sub', 'owned.csv');
      const job = withStagedOutputs(l.policy, [target], async ([temp]) => {
        swapForLink(l);
        await write(temp as FileRef, target, l.root);
      });
      await expect(job).rejects.toMatchObject({ code: 'PATH_NOT_ALLOWED' });
      expectNothingOutside(l);
      expect(fs.readdirSync(path.join(l.inside, 'race', 'sub.old'))).toEqual([]);
    });
  }

  it('is refused when the folder is only renamed away (no link): the output lands nowhere', async () => {
    const l = layout();
    const target = path.join(l.inside, 'race', 'sub', 'out.csv');
    const dir = path.join(l.inside, 'race', 'sub');
    const job = withStagedOutputs(l.policy, [target], async ([temp]) => {
      fs.renameSync(dir, `${dir}.moved`);
      fs.mkdirSync(dir);
      await writeStaged(temp as FileRef, 'data', target);
    });
    await expect(job).rejects.toMatchObject({ code: 'PATH_NOT_ALLOWED' });
    expect(fs.readdirSync(dir)).toEqual([]);
    expect(fs.readdirSync(`${dir}.moved`)).toEqual([]);
    expectNothingOutside(l);
  });

  it('is refused when an ancestor folder is swapped for a link to a copy of the tree outside', async () => {
    const l = layout();
    const target = path.join(l.inside, 'race', 'sub', 'owned.csv');
    const job = withStagedOutputs(l.policy, [target], async ([temp]) => {
      // outside/sub is what race/sub would now resolve to.
      fs.renameSync(path.join(l.inside, 'race'), path.join(l.inside, 'race.old'));
      fs.mkdirSync(path.join(l.outside, 'sub'));
      fs.symlinkSync(l.outside, path.join(l.inside, 'race'));
      await writeStaged(temp as FileRef, 'data', target);
    });
    await expect(job).rejects.toMatchObject({ code: 'PATH_NOT_ALLOWED' });
    expect(fs.readdirSync(path.join(l.outside, 'sub'))).toEqual([]);
    fs.rmdirSync(path.join(l.outside, 'sub'));
    expectNothingOutside(l);
  });

  it('refuses a later output staged into the swapped folder (a page of a long job) without making anything outside', async () => {
    const l = layout();
    const first = await stageOutput(l.policy, path.join(l.inside, 'race', 'sub', 'page-1.png'));
    swapForLink(l);
    await expect(stageOutput(l.policy, path.join(l.inside, 'race', 'sub', 'new', 'page-2.png'))).rejects.toMatchObject({ code: 'PATH_NOT_ALLOWED' });
    await expect(stageOutput(l.policy, path.join(l.inside, 'race', 'sub', 'page-2.png'))).rejects.toMatchObject({ code: 'PATH_NOT_ALLOWED' });
    await first.discard();
    expectNothingOutside(l);
  });
});

/** Polls `dir` until a docwasm temp file appears there, then swaps the folder; resolves true once swapped. */
async function swapWhenStaged(l: Layout, dir: string, until: Promise<unknown>): Promise<boolean> {
  let answered = false;
  void until.finally(() => (answered = true));
  while (!answered) {
    if (fs.existsSync(dir) && fs.readdirSync(dir).some((name) => name.endsWith('.docwasm.tmp'))) {
      swapForLink(l);
      return true;
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  return false;
}

const CSV_ROWS = 200_000;

describe.each(backendsUnderTest())('a conversion raced over HTTP (%s office)', (backend) => {
  let service: RunningService;
  let l: Layout;

  beforeAll(async () => {
    l = layout();
    // Built once, before any request: a document long enough that the office is still at work when the folder is swapped.
    const rows = Array.from({ length: CSV_ROWS }, (_, i) => `${i},name ${i},${(i * 1.5).toFixed(2)}`);
    fs.writeFileSync(path.join(l.inside, 'race', 'in.csv'), `id,name,amount\n${rows.join('\n')}\n`);
    fs.writeFileSync(path.join(l.inside, 'race', 'pages.pdf'), makePdf({ pages: Array.from({ length: 150 }, (_, i) => `Page ${i + 1}`) }));
    service = await startService(['--allow-dir', l.inside, '--base-dir', l.inside, '--document-backend', backend, '--timeout', '600']);
    await waitForOfficeReady(service);
  }, WASM_TEST_TIMEOUT_MS);
  afterAll(async () => {
    await service?.stop();
  });

  it(
    'convert: the CSV never lands outside, the file there is not replaced, no temp file is left',
    async () => {
      const answer = service.post('/api/convert', { input: 'race/in.csv', output: 'race/sub/owned.csv', format: 'xlsx' });
      const swapped = await swapWhenStaged(l, path.join(l.inside, 'race', 'sub'), answer);
      const r = await answer;
      expect(swapped, `the job ended before its folder could be swapped: ${JSON.stringify(r.body)}`).toBe(true);
      expect(r.status, JSON.stringify(r.body)).not.toBe(200);
      expect(['PATH_NOT_ALLOWED', 'OUTPUT_NOT_WRITABLE']).toContain(r.body.code);
      expectNothingOutside(l);
      expect(fs.readdirSync(path.join(l.inside, 'race', 'sub.old'))).toEqual([]);
      expect((await service.get('/api/health')).status).toBe(200);
    },
    WASM_TEST_TIMEOUT_MS,
  );

  it(
    'pdf/to-images: no page render is left behind or written outside',
    async () => {
      fs.rmSync(path.join(l.inside, 'race', 'sub'), { force: true });
      fs.rmSync(path.join(l.inside, 'race', 'sub.old'), { recursive: true, force: true });
      fs.mkdirSync(path.join(l.inside, 'race', 'sub'));
      const answer = service.post('/api/pdf/to-images', { input: 'race/pages.pdf', outputDir: 'race/sub', format: 'png', dpi: 150 });
      const swapped = await swapWhenStaged(l, path.join(l.inside, 'race', 'sub'), answer);
      const r = await answer;
      expect(swapped, `the job ended before its folder could be swapped: ${JSON.stringify(r.body)}`).toBe(true);
      expect(['PATH_NOT_ALLOWED', 'OUTPUT_NOT_WRITABLE']).toContain(r.body.code);
      expectNothingOutside(l);
      expect(fs.readdirSync(path.join(l.inside, 'race', 'sub.old'))).toEqual([]);
    },
    WASM_TEST_TIMEOUT_MS,
  );
});
