// `npm run bench` group read-quality: scores the reading corpus (test/bench/read-quality.ts) on
// the bench's service and rewrites docs/reading-quality.md; it adds no timing rows of its own.

import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../helpers/service.js';
import type { BenchSuite } from './harness.js';
import { renderQualityReport } from './read-quality-report.js';
import { scoreCorpus } from './read-quality.js';

const suite: BenchSuite = async ({ service, work }) => {
  const scored = await scoreCorpus(service, work);
  fs.writeFileSync(path.join(ROOT, 'docs/reading-quality.md'), renderQualityReport(scored, new Date().toISOString().slice(0, 10)));
  return [];
};

export default suite;
