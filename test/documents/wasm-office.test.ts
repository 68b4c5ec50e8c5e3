// LibreOffice in WebAssembly never deadlocks at start (docs/documents-backend.md): the published
// glue starts 4 pthread workers for LibreOffice's 5 threads and hung in 5 of 6 starts here; docwasm
// adapts that one expression in memory and refuses a glue where it is not exactly once. Here a bare
// office is started, used and stopped once, its start bounded: with the published pool it hangs
// with probability ~5/6, and so would each of the other offices `npm test` starts (wasm-doors,
// containment, convert, wasm-lifecycle: nine more at least, all passing by chance ~(1/6)^10). Repeated
// rounds in a row are the reliability suite's soak, test/reliability/wasm-office-starts.slow.test.ts
// (10 starts, `npm run test:reliability`).

import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import path from 'node:path';
import { WasmOffice } from '../../src/wasm-office/wasm-office.js';
import { OFFICE_V8_FLAGS, officeV8Flags } from '../../src/wasm-office/wasm-office-engine.js';
import { adaptGlue, findWasmOffice, PTHREAD_POOL_SIZE } from '../../core/wasm-office-package.js';
import { isAlive } from '../helpers/documents.js';
import { ROOT, tempDir } from '../helpers/service.js';
import { startConvertStop, WASM_TEST_TIMEOUT_MS } from '../helpers/wasm-office.js';

const found = findWasmOffice();
if (!found.found) throw new Error(`the WebAssembly office must be installed for these tests: ${found.reason}`);
const files = found.files;

describe('the glue adaptation', () => {
  const glue = fs.readFileSync(files.glue, 'utf8');

  it('finds the pool expression exactly once in the installed glue and sets it to the adapted size', () => {
    const adapted = adaptGlue(glue, files.glue);
    expect(adapted).toContain(`initMainThread(){var pthreadPoolSize=${PTHREAD_POOL_SIZE};`);
    expect(adapted.length).toBe(glue.length);
    // The file on disk is untouched (installs may be read-only).
    expect(fs.readFileSync(files.glue, 'utf8')).toBe(glue);
  });

  it('fails loudly, naming the file, when the expression is missing', () => {
    const without = glue.replace(/var pthreadPoolSize=\d+;/, 'var pthreadPoolSize=Module.pool;');
    expect(() => adaptGlue(without, '/x/soffice.cjs')).toThrow(/\/x\/soffice\.cjs has no pthread pool expression/);
  });

  it('fails loudly when the expression appears twice', () => {
    expect(() => adaptGlue('initMainThread(){var pthreadPoolSize=4;initMainThread(){var pthreadPoolSize=4;', 'g.cjs')).toThrow(/has 2 pthread pool expression/);
  });

  it('leaves a pool that is already large enough as it is', () => {
    const source = 'initMainThread(){var pthreadPoolSize=16;';
    expect(adaptGlue(source, 'g.cjs')).toBe(source);
  });
});

describe("the office's engine flags", () => {
  it('are all known to this Node, so the office runs with every one of them', async () => {
    expect(await officeV8Flags()).toEqual([...OFFICE_V8_FLAGS]);
  });
});

describe('starting and stopping the WebAssembly office', () => {
  const started: WasmOffice[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((office) => office.stop()));
  });

  // Glue stand-ins that deadlock the office's main thread in the two ways real starts were seen to.
  it.each([
    ['blocks for good (no CPU used)', 'deadlocked-glue.cjs', /\(under 0\.15 s of CPU: 0\.\d\d s of CPU in 15 s: deadlocked\)/],
    [
      'polls a thread that never answers (~1,000 waits a second)',
      'polling-glue.cjs',
      /\(its main thread polling: \d\.\d\d s of CPU, \d+ waits in 15 s: deadlocked\)/,
    ],
  ])(
    'fails a start whose main thread %s within seconds, not at the start deadline, and leaves no process',
    async (_, standIn, message) => {
      const glue = path.join(ROOT, 'fixtures/wasm-office', standIn);
      const office = new WasmOffice({ entry: files.entry, wasmDir: files.wasmDir, glue, fonts: [], cjkFaces: [], profile: {} }, await officeV8Flags());
      started.push(office);
      const begun = Date.now();
      await expect(office.ready).rejects.toThrow(/stopped making progress while starting, before its module loaded/);
      await expect(office.ready).rejects.toThrow(message);
      // 15 s of a deadlock's form, sampled each second; far below the 240 s start deadline.
      expect(Date.now() - begun).toBeLessThan(120_000);
      const pid = office.pid as number;
      await office.stop();
      expect(isAlive(pid)).toBe(false);
    },
    180_000,
  );

  it(
    'starts within its bound, converts, and leaves no process behind',
    async () => {
      const dir = tempDir('docwasm-wasm-office-');
      await startConvertStop(1, dir, started);
    },
    WASM_TEST_TIMEOUT_MS,
  );
});
