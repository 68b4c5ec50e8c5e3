// Fast load check inside `npm test`; load.slow.test.ts runs the full 500 requests.
import { describeLoad } from './load-suite.js';

describeLoad(120, 16, 'load-fast');
