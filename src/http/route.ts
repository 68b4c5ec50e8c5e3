// What the HTTP door serves: a POST route per operation (its schema validates the body and
// documents it in /openapi.json; `"async": true` runs it as a job), and the GET/DELETE routes
// of the service itself.

import type { z } from 'zod';
import type { JobRegistry } from '../jobs/registry.js';
import { httpPath, type Operation, type OperationContext, type OperationResult } from '../operations/operation.js';
import { validateInput } from '../operations/validate.js';
import type { SuccessStatus } from './envelope.js';
import { isAsyncRequest, submitJob, withoutAsyncFlag } from './jobs.js';

/** An operation's answer, or (202) the answer that its job was accepted. */
export type RouteAnswer = OperationResult & { status?: SuccessStatus };

export interface PostRoute {
  method: 'POST';
  path: string;
  summary: string;
  body: z.ZodType;
  handle: (body: Record<string, unknown>) => Promise<RouteAnswer>;
}

/** Path parameters (`/api/jobs/:id` → `{id}`). */
export type RouteParams = Readonly<Record<string, string>>;

export interface GetRoute {
  method: 'GET';
  path: string;
  summary: string;
  handle: (params: RouteParams) => Promise<OperationResult | Record<string, unknown>> | OperationResult | Record<string, unknown>;
  /** Send the handler's result as-is instead of wrapping it in the success envelope. */
  raw?: boolean;
  /** Documents the success envelope's `data` in /openapi.json. */
  data?: z.ZodType;
}

export interface DeleteRoute {
  method: 'DELETE';
  path: string;
  summary: string;
  handle: (params: RouteParams) => Promise<OperationResult>;
  data?: z.ZodType;
}

export type Route = PostRoute | GetRoute | DeleteRoute;

export function operationRoute(operation: Operation, context: OperationContext, jobs?: JobRegistry<OperationResult>): PostRoute {
  return {
    method: 'POST',
    path: httpPath(operation),
    summary: operation.summary,
    body: operation.input,
    handle: async (body) => {
      const runAsync = jobs !== undefined && isAsyncRequest(body);
      const input = validateInput(operation.input, withoutAsyncFlag(body));
      if (!runAsync) return operation.run(input, context);
      return submitJob(jobs, operation.id, input, (control) => operation.run(input, { ...context, ...control }));
    },
  };
}
