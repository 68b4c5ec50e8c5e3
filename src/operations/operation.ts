// An operation is docwasm's unit of work, defined once: an id, a zod schema for its input and a
// `run` that knows nothing of HTTP. Every door — HTTP routes, the OpenAPI document, CLI
// commands, MCP tools, async jobs — is generated from the list in ./index.ts.

import type { z } from 'zod';
import type { Config, EngineName } from '../config.js';
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
  /** Added by the door, not the operation: the request's unknown fields (see ./validate.ts). */
  warnings?: string[];
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
  /** The engines it runs on: its command's --help lists their options. */
  engines: readonly EngineName[];
  /**
   * What it does to files: `nothing` (it only reads) or `files`: it writes outputs, each of
   * which may replace an existing file. MCP tools declare it as readOnlyHint/destructiveHint.
   */
  writes: 'nothing' | 'files';
  /**
   * Calling it again with the same arguments changes nothing more: false where an output may
   * be one of its inputs and a second run would apply the change again (rotate in place).
   */
  idempotent: boolean;
  /**
   * Its answer is the `text` it returns (read's Markdown): an MCP tool call's text content is
   * then that text itself, for the agent to read, and the envelope stays in structuredContent.
   */
  answersWithText?: boolean;
  run(input: z.output<S>, context: OperationContext): Promise<OperationResult>;
  /** Warnings about a valid request beyond its own unknown fields: a pipeline's about its steps' fields. */
  warnings?(input: z.output<S>): string[];
}

/** Keeps the schema's type flowing into `run`, then forgets it so operations fit in one list. */
export function defineOperation<S extends z.ZodType>(operation: Operation<S>): Operation {
  return operation as unknown as Operation;
}

export const httpPath = (operation: Operation): string => `/api/${operation.id}`;
export const commandWords = (operation: Operation): string[] => operation.id.split('/');
export const toolName = (operation: Operation): string => operation.id.replace(/[/-]/g, '_');

/** The group an operation is listed under (OpenAPI tags, /docs sections), named by its id's first word. */
const TAGS: Readonly<Record<string, string>> = { convert: 'Documents', pdf: 'PDF', image: 'Images', ocr: 'OCR', read: 'Reading', pipeline: 'Automation' };

/** A group not in TAGS is listed under its word, capitalised (`read/…` → Read). */
export function tagOf(operation: Operation): string {
  const [group = ''] = commandWords(operation);
  return TAGS[group] ?? group.charAt(0).toUpperCase() + group.slice(1);
}
