// `npm run test:reliability`: the fast reliability tests (also part of `npm test`) and the slow
// ones (load at full size, 1,000+ hostile inputs, the 2,000-job soak), one file at a time so
// that their timings and memory figures are not disturbed by each other.

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/reliability/**/*.test.ts'],
    globalSetup: ['test/setup/global.ts'],
    setupFiles: ['test/setup/per-file.ts'],
    testTimeout: 600_000,
    hookTimeout: 180_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
