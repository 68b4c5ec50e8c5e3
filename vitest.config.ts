import { defineConfig } from 'vitest/config';
import { LongFirstSequencer } from './test/setup/sequencer.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/reliability/**/*.slow.test.ts', 'node_modules/**'],
    // A private temp root for the run, checked empty at the end; a temp dir per test file.
    globalSetup: ['test/setup/global.ts'],
    setupFiles: ['test/setup/per-file.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
    // The known-long files first (test/setup/long-files.ts), so that no long file ends the run alone.
    sequence: { sequencer: LongFirstSequencer },
  },
});
