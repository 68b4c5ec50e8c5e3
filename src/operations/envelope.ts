// The API envelope as plain data, for every door: HTTP sends it as the body, the CLI prints it
// with --json, MCP returns it as a tool result. `{success: true, message, ...}` or
// `{success: false, error, code}`.

import { toApiError, type ErrorCode } from '../../core/errors.js';
import type { JobView } from '../jobs/registry.js';
import type { OperationResult } from './operation.js';

export interface SuccessEnvelope {
  /** false for a batch in which an item failed. */
  success: boolean;
  message: string;
  outputPath?: string;
  text?: string;
  data?: Record<string, unknown>;
  /** One per unknown field of the request, when there is any. */
  warnings?: string[];
}

export interface ErrorEnvelope {
  success: false;
  error: string;
  code: ErrorCode;
}

export type Envelope = SuccessEnvelope | ErrorEnvelope;

export function successEnvelope({ success = true, message, outputPath, text, data, warnings }: OperationResult): SuccessEnvelope {
  return {
    success,
    message,
    ...(outputPath !== undefined && { outputPath }),
    ...(text !== undefined && { text }),
    ...(data !== undefined && { data }),
    ...(warnings !== undefined && warnings.length > 0 && { warnings }),
  };
}

export function errorEnvelope(err: unknown): ErrorEnvelope {
  const { message, code } = toApiError(err);
  return { success: false, error: message, code };
}

export function isErrorEnvelope(envelope: Envelope): envelope is ErrorEnvelope {
  return 'code' in envelope;
}

/** An async job as GET /api/jobs/{id} answers it, and as its callback is POSTed: its state, and its outcome as the synchronous answer's body. */
export function jobEnvelope(job: JobView<OperationResult>): SuccessEnvelope {
  return successEnvelope({ message: `Job ${job.status}`, data: jobBody(job) });
}

export function jobBody(job: JobView<OperationResult>): Record<string, unknown> {
  const { result, error, ...state } = job;
  if (result !== undefined) return { ...state, result: successEnvelope(result) };
  if (error !== undefined) return { ...state, result: errorEnvelope(error) };
  return state;
}
