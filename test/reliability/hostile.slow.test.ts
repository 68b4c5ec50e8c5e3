// The full hostile-input figure for the README: 1,100 mutated files, two endpoints each.
import { describeHostile } from './hostile-suite.js';

describeHostile(1100, 4, 'hostile');
