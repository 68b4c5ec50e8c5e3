// Idle memory and retirement inside `npm test`, started as the portable launcher starts the
// service (its assertions are a superset of the plain start's: the same ceiling after start, and
// memory given back after retirement). The plain `node main.js serve` start, whose retired
// memory glibc keeps (recorded, not asserted), is in idle-memory.slow.test.ts.
import { describeIdleMemory } from './idle-memory-suite.js';
import { STARTS } from './launch.js';

describeIdleMemory(STARTS.filter((start) => start.name === 'launcher'));
