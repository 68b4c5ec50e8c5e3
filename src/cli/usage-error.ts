// A command line that cannot be run as written (exit status 2), with the help to look at.

import type { Operation } from '../operations/operation.js';
import { commandOf } from './commands.js';

export class UsageError extends Error {
  /** The command whose --help explains it, e.g. `pdf merge`; the top level when absent. */
  readonly command: string | undefined;

  constructor(message: string, operation?: Operation | string) {
    super(message);
    this.name = 'UsageError';
    this.command = typeof operation === 'string' ? operation : operation && commandOf(operation);
  }
}
