// The configuration flags a one-shot command takes: those of the engines its operation runs
// on (src/config.ts), less any that one of the operation's own fields of the same name takes over.

import { flagsFor, type FlagSpec } from '../config.js';
import type { Operation } from '../operations/operation.js';
import type { CommandShape } from './options-from-schema.js';

export function engineFlags(operation: Operation, shape: CommandShape): FlagSpec[] {
  return flagsFor({ door: 'one-shot', engines: operation.engines }).filter((f) => !shape.options.some((o) => o.flag === f.flag));
}
