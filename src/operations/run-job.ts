// How a job's request becomes its operation's answer, wherever the job runs (this service, or a
// queue worker on another machine): the operation named by its id, the body checked by its
// schema as at the door, then run under the job's control. One runner for both job stores.

import { ApiError } from '../../core/errors.js';
import type { JobRunner } from '../jobs/registry.js';
import { OPERATIONS } from './index.js';
import type { OperationContext, OperationResult } from './operation.js';
import { validateRequest } from './validate.js';

export function jobRunner(context: OperationContext): JobRunner<OperationResult> {
  const byId = new Map(OPERATIONS.map((operation) => [operation.id, operation]));
  return async (request, control) => {
    const operation = byId.get(request.operation);
    // A worker of another version may not know an operation its service accepted.
    if (!operation) throw new ApiError('VALIDATION_ERROR', `This docwasm has no operation ${request.operation}`);
    const { input, warnings } = validateRequest(operation, request.body);
    return { ...(await operation.run(input, { ...context, ...control })), warnings };
  };
}
