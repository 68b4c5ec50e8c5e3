// What the HTTP door serves: a POST route per operation (see operation-route.ts; its schema
// validates the body and documents it in /openapi.json), and the GET/DELETE routes of the
// service itself. Each route names the group /docs lists it under (its OpenAPI tag).

import type { z } from 'zod';
import type { OperationResult } from '../operations/operation.js';
import type { SuccessStatus } from './envelope.js';

/** An operation's answer, or (202) the answer that its job was accepted. */
export type RouteAnswer = OperationResult & { status?: SuccessStatus };

export interface PostRoute {
  method: 'POST';
  path: string;
  summary: string;
  /** The group it is listed under in /docs (OpenAPI tag): an operation's (see tagOf), Jobs, Service. */
  tag: string;
  body: z.ZodType;
  handle: (body: Record<string, unknown>) => Promise<RouteAnswer>;
}

/** Path parameters (`/api/jobs/:id` → `{id}`). */
export type RouteParams = Readonly<Record<string, string>>;

export interface GetRoute {
  method: 'GET';
  path: string;
  summary: string;
  tag: string;
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
  tag: string;
  handle: (params: RouteParams) => Promise<OperationResult>;
  data?: z.ZodType;
}

export type Route = PostRoute | GetRoute | DeleteRoute;

/** The tag of the routes about the service itself (health, this API's description). */
export const SERVICE_TAG = 'Service';
