// Runs an operation on a raw request (a parsed JSON body, command-line values, MCP arguments)
// and answers the API envelope, for the doors that carry the envelope as data (CLI, MCP).

import { reportFailure } from '../../core/errors.js';
import { CancelledError } from '../../core/job-errors.js';
import { errorEnvelope, successEnvelope, type Envelope } from './envelope.js';
import type { Operation, OperationContext } from './operation.js';
import { validateRequest } from './validate.js';

/** The envelope of the operation's answer or failure; a cancelled job rethrows CancelledError. */
export async function invokeOperation(operation: Operation, raw: unknown, context: OperationContext): Promise<Envelope> {
  try {
    const { input, warnings } = validateRequest(operation, raw);
    return successEnvelope({ ...(await operation.run(input, context)), warnings });
  } catch (err) {
    if (err instanceof CancelledError) throw err;
    return errorEnvelope(reportFailure(err));
  }
}
