// The full load figure for the README: 500 mixed requests at concurrency 16.
import { describeLoad } from './load-suite.js';

describeLoad(500, 16, 'load');
