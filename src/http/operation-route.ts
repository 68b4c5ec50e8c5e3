// The POST route of an operation: the body is validated by the operation's schema, then run at
// once, or (`"async": true`) submitted as a job answered 202.

import type { JobRegistry } from '../jobs/registry.js';
import { httpPath, tagOf, type Operation, type OperationContext, type OperationResult } from '../operations/operation.js';
import { validateRequest } from '../operations/validate.js';
import { isAsyncRequest, submitJob, withoutAsyncFlag } from './jobs.js';
import type { PostRoute } from './route.js';

export function operationRoute(operation: Operation, context: OperationContext, jobs?: JobRegistry<OperationResult>): PostRoute {
  return {
    method: 'POST',
    path: httpPath(operation),
    summary: operation.summary,
    tag: tagOf(operation),
    body: operation.input,
    handle: async (body) => {
      const runAsync = jobs !== undefined && isAsyncRequest(body);
      const { input, warnings } = validateRequest(operation, withoutAsyncFlag(body));
      // The warnings go with the answer, and with the job's result when it runs as a job.
      const run = async (control = {}) => ({ ...(await operation.run(input, { ...context, ...control })), warnings });
      if (!runAsync) return run();
      return { ...(await submitJob(jobs, operation.id, input, run)), warnings };
    },
  };
}
