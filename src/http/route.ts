// What the HTTP door serves: a POST route per operation (its schema validates the body and
// documents it in /openapi.json), and the GET routes of the service itself.

import type { z } from 'zod';
import { httpPath, type Operation, type OperationContext, type OperationResult } from '../operations/operation.js';
import { validateInput } from '../operations/validate.js';

export interface PostRoute {
  method: 'POST';
  path: string;
  summary: string;
  body: z.ZodType;
  handle: (body: unknown) => Promise<OperationResult>;
}

export interface GetRoute {
  method: 'GET';
  path: string;
  summary: string;
  handle: () => Promise<OperationResult | Record<string, unknown>> | OperationResult | Record<string, unknown>;
  /** Send the handler's result as-is instead of wrapping it in the success envelope. */
  raw?: boolean;
}

export type Route = PostRoute | GetRoute;

export function operationRoute(operation: Operation, context: OperationContext): PostRoute {
  return {
    method: 'POST',
    path: httpPath(operation),
    summary: operation.summary,
    body: operation.input,
    handle: (body) => operation.run(validateInput(operation.input, body), context),
  };
}
