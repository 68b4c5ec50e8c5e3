// Fast backpressure check inside `npm test` (other test files run beside it, so the flood is
// smaller); backpressure.slow.test.ts floods with 400 requests for the README figure.
import { describeBackpressure } from './backpressure-suite.js';

describeBackpressure(40, 'backpressure-fast');
