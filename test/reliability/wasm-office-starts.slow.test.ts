// The WebAssembly office's many-starts soak (docs/documents-backend.md, "never deadlocks"): the
// published glue hung in 5 of 6 starts here (a thread pool one worker short of what LibreOffice
// starts); ten bounded starts in a row, each converting a docx and stopping with nothing left
// running, would all pass by chance with probability (1/6)^10 ≈ 1.7e-8. `npm test` keeps one
// round (test/documents/wasm-office.test.ts); this one also records each start's duration.

import { afterEach, describe, expect, it } from 'vitest';
import type { WasmOffice } from '../../src/wasm-office/wasm-office.js';
import { tempDir } from '../helpers/service.js';
import { startConvertStop, type OfficeRound } from '../helpers/wasm-office.js';
import { latencySummary, recordFigures } from './figures.js';

const ROUNDS = 10;

describe(`starting and stopping the WebAssembly office ${ROUNDS} times`, () => {
  const started: WasmOffice[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((office) => office.stop()));
  });

  it(
    'starts within its bound every time, converts, and leaves no process behind',
    async () => {
      const dir = tempDir('docwasm-wasm-office-starts-');
      const rounds: OfficeRound[] = [];
      for (let run = 1; run <= ROUNDS; run++) rounds.push(await startConvertStop(run, dir, started));
      expect(rounds).toHaveLength(ROUNDS);
      recordFigures('wasm-office-starts', {
        rounds: ROUNDS,
        stalledStarts: rounds.reduce((n, r) => n + r.stalledStarts, 0),
        startMs: latencySummary(rounds.map((r) => r.startMs)),
        firstConvertMs: latencySummary(rounds.map((r) => r.convertMs)),
      });
    },
    ROUNDS * 300_000,
  );
});
