// Runs an operation on a raw request (a parsed JSON body, command-line values, MCP arguments)
// and answers the API envelope, for the doors that carry the envelope as data (CLI, MCP).

import { reportFailure } from '../errors.js';
import { CancelledError } from '../jobs/policy.js';
import { errorEnvelope, successEnvelope, type Envelope } from './envelope.js';
import type { Operation, OperationContext } from './operation.js';
import { validateInput } from './validate.js';

/** The envelope of the operation's answer or failure; a cancelled job rethrows CancelledError. */
export async function invokeOperation(operation: Operation, raw: unknown, context: OperationContext): Promise<Envelope> {
  try {
    return successEnvelope(await operation.run(validateInput(operation.input, raw), context));
  } catch (err) {
    if (err instanceof CancelledError) throw err;
    return errorEnvelope(reportFailure(err));
  }
}
