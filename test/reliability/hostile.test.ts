// Fast hostile-input pass inside `npm test`: every fixed case (58: empty, cyclic PDFs, bombs, huge
// dimensions, linked content) plus 62 random mutations, enough for every mutation kind and every
// endpoint (the suite checks the latter); the fuzzing at scale, 1,100 files, is hostile.slow.test.ts.
import { describeHostile } from './hostile-suite.js';

describeHostile(120, 4, 'hostile-fast');
