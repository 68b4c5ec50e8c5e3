// Fast hostile-input pass inside `npm test`: every fixed case (empty, cyclic PDFs, bombs, huge
// dimensions) plus random mutations; hostile.slow.test.ts runs 1,100 files.
import { describeHostile } from './hostile-suite.js';

describeHostile(160, 4, 'hostile-fast');
