// An operation is docwasm's unit of work, defined once: an id, a zod schema for its input and a
// `run` that knows nothing of HTTP. Every door — HTTP routes, the OpenAPI document, CLI
// commands, MCP tools, async jobs — is generated from the list in ./index.ts.

import type { z } from 'zod';
import type { Config } from '../config.js';
import type { Engines } from '../engines/engines.js';
import type { PathPolicy } from '../files/paths.js';
import type { JobControl } from '../jobs/policy.js';

/** The answer of an operation; HTTP wraps it in the envelope `{success: true, ...}`. */
export interface OperationResult {
  message: string;
  outputPath?: string;
  data?: Record<string, unknown>;
  /** OCR puts its text at the top level. */
  text?: string;
  /** A batch answers with success=false when an item failed. */
  success?: boolean;
}

/** What an operation runs with: the engines, the path policy, and its caller's job control. */
export interface OperationContext extends JobControl {
  engines: Engines;
  paths: PathPolicy;
  config: Config;
}

export interface Operation<S extends z.ZodType = z.ZodType> {
  /** Words joined by `/`: the HTTP path after `/api/`, the CLI words, the MCP tool name. */
  id: string;
  summary: string;
  input: S;
  run(input: z.output<S>, context: OperationContext): Promise<OperationResult>;
}

/** Keeps the schema's type flowing into `run`, then forgets it so operations fit in one list. */
export function defineOperation<S extends z.ZodType>(operation: Operation<S>): Operation {
  return operation as unknown as Operation;
}

export const httpPath = (operation: Operation): string => `/api/${operation.id}`;
export const commandWords = (operation: Operation): string[] => operation.id.split('/');
export const toolName = (operation: Operation): string => operation.id.replace(/[/-]/g, '_');
