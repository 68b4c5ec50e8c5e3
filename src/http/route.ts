// What an API module declares: its routes, each with the zod schema that validates the body
// and documents it in /openapi.json.

import type { z } from 'zod';

export interface SuccessBody {
  message: string;
  outputPath?: string;
  data?: Record<string, unknown>;
  /** OCR puts its text at the top level. */
  text?: string;
  /** Batch answers HTTP 200 with success=false when an item failed. */
  success?: boolean;
}

export interface PostRoute<S extends z.ZodType = z.ZodType> {
  method: 'POST';
  path: string;
  summary: string;
  body: S;
  handle: (body: z.infer<S>) => Promise<SuccessBody>;
}

export interface GetRoute {
  method: 'GET';
  path: string;
  summary: string;
  handle: () => Promise<SuccessBody | Record<string, unknown>> | SuccessBody | Record<string, unknown>;
  /** Send the handler's result as-is instead of wrapping it in the success envelope. */
  raw?: boolean;
}

export type Route = PostRoute | GetRoute;

/** Keeps the schema's type flowing into the handler. */
export function postRoute<S extends z.ZodType>(route: Omit<PostRoute<S>, 'method'>): PostRoute {
  return { method: 'POST', ...route } as unknown as PostRoute;
}
