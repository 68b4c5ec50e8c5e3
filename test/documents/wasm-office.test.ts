// LibreOffice in WebAssembly never deadlocks at start (docs/documents-backend.md): the published
// glue starts 4 pthread workers for LibreOffice's 5 threads and hung in 5 of 6 starts here; docwasm
// adapts that one expression in memory and refuses a glue where it is not exactly once. The office
// is started and stopped several times in a row, each start bounded; with the published pool each
// start hangs with probability ~5/6, so three starts pass by chance with probability ~0.5 %.

import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bundledCjkFonts, registryModifications } from '../../src/documents/profile.js';
import { WasmOffice } from '../../src/documents/wasm-office.js';
import { adaptGlue, findWasmOffice, PTHREAD_POOL_SIZE } from '../../src/documents/wasm-office-package.js';
import { DOCUMENT_FIXTURES, isAlive, pdfText, TEXT_LINE } from '../helpers/documents.js';
import { tempDir } from '../helpers/service.js';
import { WASM_TEST_TIMEOUT_MS } from '../helpers/wasm-office.js';

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

describe('starting and stopping the WebAssembly office many times', () => {
  const started: WasmOffice[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((office) => office.stop()));
  });

  /** Generous: 10–60 s here on 2 cores; the bound only tells a hang from a slow start. */
  const START_BOUND_MS = 240_000;

  it(
    'starts within its bound every time, converts, and leaves no process behind',
    async () => {
      const dir = tempDir('docwasm-wasm-office-');
      const docx = fs.readFileSync(path.join(DOCUMENT_FIXTURES, 'text-docx.docx'));
      for (let run = 1; run <= 3; run++) {
        const office = new WasmOffice({ wasmDir: files.wasmDir, glue: files.glue, fonts: bundledCjkFonts(), profile: { '/instdir/user/registrymodifications.xcu': registryModifications() } });
        started.push(office);
        const bound = new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`start ${run} did not finish within ${START_BOUND_MS / 1000} s (deadlock?)`)), START_BOUND_MS).unref());
        await Promise.race([office.ready, bound]);
        const reply = await office.convert({ bytes: docx, extension: 'docx', name: 'report', format: 'pdf' });
        expect(reply.kind, JSON.stringify(reply.kind === 'converted' ? '' : reply)).toBe('converted');
        if (reply.kind !== 'converted') return;
        const pdf = path.join(dir, `run-${run}.pdf`);
        fs.writeFileSync(pdf, reply.bytes);
        expect(pdfText(pdf)).toContain(TEXT_LINE);
        const pid = office.pid as number;
        await office.stop();
        expect(isAlive(pid)).toBe(false);
      }
    },
    WASM_TEST_TIMEOUT_MS,
  );
});
