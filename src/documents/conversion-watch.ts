// One file in an office, supervised the same way by both document backends: the first of its
// deadline (--timeout, counted from the moment an office takes it), its office's memory ceiling
// (--office-memory-mb) and its request's cancel stops the office, once, and is remembered as why.
// What each end means for the file is said once too (the outcomes below), so the installed
// offices and the WebAssembly office answer a timeout, a memory breach or a crash in the same words.

import { startDeadline, type Deadline } from '../../core/deadline.js';
import { fileError } from '../../core/file-errors.js';
import { timeoutError, CancelledError } from '../../core/job-errors.js';
import { failedOutcome, type ConversionOutcome } from './backend.js';
import { MemoryWatch } from '../installed-office/office-memory.js';

/** Why docwasm stopped the office under a file. */
export type StopReason = 'timeout' | 'too-large' | 'cancelled';

export interface WatchedConversion {
  timeoutMs: number;
  /** The request's cancel signal. */
  signal: AbortSignal | undefined;
  /** The office's process group and its ceiling; undefined: none (or no process to measure). */
  memory?: { pgid: number; bytes: number; measure?: (pids: readonly string[]) => Promise<number> } | undefined;
  /** Stops the office (called once, with the first reason). */
  stop: (reason: StopReason) => void;
}

export class ConversionWatch {
  /** Why the office was stopped; undefined while it was not. */
  stopped: StopReason | undefined;
  /** The job policy's one deadline form: its signal fires at the time limit or on cancel. */
  private readonly deadline: Deadline;
  private readonly memory: MemoryWatch | undefined;
  private readonly onDeadline = () => this.stop(this.deadline.reason() instanceof CancelledError ? 'cancelled' : 'timeout');

  constructor(private readonly watched: WatchedConversion) {
    this.deadline = startDeadline('document conversion', watched.timeoutMs, { signal: watched.signal });
    const { memory } = watched;
    this.memory = memory ? new MemoryWatch(memory.pgid, memory.bytes, () => this.stop('too-large'), 250, memory.measure).start() : undefined;
    if (this.deadline.signal.aborted) this.onDeadline();
    else this.deadline.signal.addEventListener('abort', this.onDeadline, { once: true });
  }

  /** The conversion ended (however): no more stops. Whether it had used most of its ceiling. */
  end(): { memoryExhausted: boolean } {
    this.deadline.signal.removeEventListener('abort', this.onDeadline);
    this.memory?.stop();
    return { memoryExhausted: this.memory?.exhausted() ?? false };
  }

  private stop(reason: StopReason): void {
    if (this.stopped) return;
    this.stopped = reason;
    this.watched.stop(reason);
  }
}

/** What a file's office ending means, in the contract's words (`shown`: the input as the user named it). */
export const officeOutcomes = {
  timedOut: (shown: string, timeoutMs: number): ConversionOutcome =>
    failedOutcome(timeoutError('document conversion', timeoutMs, `converting ${shown}; LibreOffice was stopped and replaced`)),
  tooLarge: (shown: string, ceilingBytes: number | undefined): ConversionOutcome => ({
    ok: false,
    code: 'TOO_LARGE',
    message: `Converting ${shown} needs more memory than the LibreOffice ceiling of ${Math.round((ceilingBytes ?? 0) / 1024 ** 2)} MB (--office-memory-mb); the process was stopped and replaced`,
  }),
  crashed: (shown: string): ConversionOutcome => ({
    ok: false,
    code: 'INVALID_INPUT',
    message: `LibreOffice stopped while converting ${shown}; it was restarted`,
  }),
  rejected: (shown: string): ConversionOutcome => ({
    ok: false,
    code: 'INVALID_INPUT',
    message: `LibreOffice could not convert ${shown} (damaged or unsupported content)`,
  }),
};

/** Writes a product into the job's staged output with `write`; a failure is the output's error. */
export async function deliverProduct(output: string, write: () => Promise<void>): Promise<ConversionOutcome> {
  try {
    await write();
    return { ok: true };
  } catch (err) {
    const { code, message } = fileError(err, { role: 'output', shown: output });
    return { ok: false, code, message };
  }
}
