// Idle memory of the plain `node main.js serve` start (`npm run test:reliability`): the same
// retirement code as the launcher start of idle-memory.test.ts (in `npm test`), measured for the
// figures of docs/reliability.md — glibc keeps what finished threads freed, so only the ceiling
// after start and the drop after retirement are asserted here.
import { describeIdleMemory } from './idle-memory-suite.js';
import { STARTS } from './launch.js';

describeIdleMemory(STARTS.filter((start) => start.name === 'plain'));
