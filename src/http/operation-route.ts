// The POST route of an operation: the body is validated by the operation's schema, then run at
// once, or (`"async": true`) submitted as a job answered 202.

import type { JobStore } from '../jobs/registry.js';
import { httpPath, tagOf, type Operation, type OperationContext, type OperationResult } from '../operations/operation.js';
import { validateRequest } from '../operations/validate.js';
import { jobFields, submitJob } from './jobs.js';
import type { PostRoute } from './route.js';

export function operationRoute(operation: Operation, context: OperationContext, jobs?: JobStore<OperationResult>): PostRoute {
  return {
    method: 'POST',
    path: httpPath(operation),
    summary: operation.summary,
    tag: tagOf(operation),
    body: operation.input,
    handle: async (body) => {
      const fields = jobFields(body);
      // Checked here whichever way it runs: a bad request is answered now, not as a failed job.
      const { input, warnings } = validateRequest(operation, fields.body);
      if (jobs === undefined || !fields.runAsync) return { ...(await operation.run(input, context)), warnings };
      // The job's runner checks the body again where it runs (src/operations/run-job.ts), and its result carries the warnings.
      return { ...(await submitJob(jobs, operation.id, fields, input)), warnings };
    },
  };
}
