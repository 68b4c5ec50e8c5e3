// What a document-conversion backend is: something that can say whether it is installed, and
// convert several files at once (one file's failure is that file's outcome, not an exception).

import type { ApiError, ErrorCode } from '../../core/errors.js';
import type { JobControl } from '../jobs/policy.js';
import type { MemoryBudget } from '../jobs/memory-budget.js';
import type { SupervisorOptions } from '../jobs/supervisor.js';
import type { OutputFormat } from './formats.js';
import type { DocumentFamily } from '../../core/input-formats.js';
import type { FileRef } from '../../core/file-ref.js';
import type { PdfaLevel } from '../../core/pdfa.js';

export type BackendInfo = { available: true; name: string; version: string; path: string } | { available: false; name: string; reason: string };

export interface ConversionJob {
  /** An input already checked against the matrix and by content (staged as the file that was checked). */
  input: FileRef;
  /** Its lower-case extension (`docx`, `csv`, …). */
  extension: string;
  family: DocumentFamily;
  format: OutputFormat;
  /** PDF/A level of a PDF output (LibreOffice's own PDF/A export). */
  pdfa?: PdfaLevel | undefined;
  /** The staged temp file to write (src/files/staging.ts), opened as the file that was staged, never by name alone. */
  output: FileRef;
  /** The output as the user named it, for messages. */
  outputShown: string;
  /** The input as the user named it, for messages. */
  shownName: string;
}

export type ConversionOutcome = { ok: true } | { ok: false; code: ErrorCode; message: string };

/** One file's failure, in the words of a shared error (TIMEOUT, BUSY). */
export const failedOutcome = (err: ApiError): ConversionOutcome => ({ ok: false, code: err.code, message: err.message });

/** Health's `state`: an office starting, one up and warm, or none running (started by the next file). */
export type BackendState = 'starting' | 'ready' | 'idle';

export interface DocumentBackend {
  readonly name: string;
  detect(): Promise<BackendInfo>;
  state(): BackendState;
  /** Starts an office in the background where the backend keeps one warm from the start (the service's start). */
  warm?(): void;
  /**
   * One outcome per job, in order. Throws only for the request as a whole: a CancelledError
   * when `control.signal` fires before its files are handed to an office.
   */
  convert(jobs: readonly ConversionJob[], control?: JobControl): Promise<ConversionOutcome[]>;
  close(): Promise<void>;
}

/** The limits both offices' supervisors take from the service's options. */
export interface OfficeLimits {
  /** Per file, from the moment an office takes it; also the longest a file waits for room in the budget. */
  timeoutMs: number;
  recycleAfter: number;
  idleTimeoutMs?: number | undefined;
  budget?: MemoryBudget | undefined;
}

/**
 * What is the same for every office backend's supervisor: its limits from the service's options,
 * kept warm, and named as document conversion at shutdown. The backend adds what is its own.
 */
export function officeSupervision(
  limits: OfficeLimits,
  own: Pick<SupervisorOptions, 'engine' | 'label' | 'size' | 'costMb' | 'startAttempts' | 'startFailed'>,
): SupervisorOptions {
  return {
    ...own,
    budget: limits.budget,
    idleMs: limits.idleTimeoutMs,
    waitMs: limits.timeoutMs,
    recycle: { jobs: limits.recycleAfter },
    keepWarm: true,
    gateName: 'document conversion',
  };
}
