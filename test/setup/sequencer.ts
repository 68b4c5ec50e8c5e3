// Orders the test files of `npm test`: the known-long ones (long-files.ts) first, longest first,
// then the rest as vitest orders them (failed first, then longest by its cache of the last run,
// else largest). Two workers take files in this order, so the long poles overlap the many
// short files instead of one of them finishing the run alone.

import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { LONG_FILES } from './long-files.js';

export class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    const rank = (spec: TestSpecification): number => {
      const index = LONG_FILES.indexOf(path.relative(spec.project.config.root, spec.moduleId).split(path.sep).join('/'));
      return index === -1 ? LONG_FILES.length : index;
    };
    // Array.prototype.sort is stable: files outside the list keep vitest's order.
    return ordered.sort((a, b) => rank(a) - rank(b));
  }
}
