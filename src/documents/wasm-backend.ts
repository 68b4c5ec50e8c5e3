// The WebAssembly document backend: LibreOffice compiled to WebAssembly (wasm-office.ts), one
// warm office converting the waiting files one at a time. Its lifecycle is the native offices'
// (libreoffice-backend.ts, office-slot.ts) with the same parts: the job policy's queue in front
// (src/engines/documents.ts), idle retirement (IdleRetirement), replacement after a number of
// files (RecycleMeter), the shutdown gate, the memory watch (MemoryWatch, on resident size here)
// and the contract's words for a timeout. What differs is the office: it is started in the
// background when the service starts (warm()), a start is bounded and retried once, and a file
// whose office must be stopped (its deadline, its memory ceiling, a cancel) costs a new start.

import fs from 'node:fs/promises';
import { ApiError } from '../errors.js';
import { readChecked } from '../files/paths.js';
import { IdleRetirement } from '../jobs/idle-retirement.js';
import { CancelledError, type JobControl } from '../jobs/policy.js';
import { ShutdownGate } from '../jobs/shutdown-gate.js';
import { fileError } from '../shared/file-errors.js';
import { timeoutError } from '../shared/job-errors.js';
import { logEvent } from '../shared/log.js';
import { RecycleMeter } from '../shared/recycle.js';
import { failedOutcome, type BackendInfo, type BackendState, type ConversionJob, type ConversionOutcome, type DocumentBackend } from './backend.js';
import { exportFilterOptions, importFilterOptions } from './formats.js';
import { largestResidentSize, MemoryWatch } from './office-memory.js';
import { stagedStem } from './office-staging.js';
import { registryModifications } from './profile.js';
import { WasmOffice, type OfficeReply } from './wasm-office.js';
import { findWasmOffice, type WasmOfficeFiles } from './wasm-office-package.js';

export const WASM_BACKEND_NAME = 'libreoffice-wasm';

export interface WasmBackendOptions {
  /** Per file, from the moment the office takes it. */
  timeoutMs: number;
  /** Longest an office may take to start before it is killed (and retried once). */
  startTimeoutMs: number;
  /** Files an office converts before it is replaced. */
  recycleAfter: number;
  idleTimeoutMs: number | undefined;
  /** Resident-memory ceiling of the office process (--office-memory-mb); undefined: none. */
  memoryBytes: number | undefined;
  /** Font files put into the office (the shipped CJK face, --font-dir). */
  fonts: readonly string[];
}

interface Pending {
  request: number;
  job: ConversionJob;
  signal: AbortSignal | undefined;
  settle: (outcome: ConversionOutcome) => void;
}

/** Why the office under a file was stopped by docwasm (undefined: it was not). */
type StopReason = 'timeout' | 'too-large' | 'cancelled' | undefined;

const CANCELLED: ConversionOutcome = { ok: false, code: 'INTERNAL_ERROR', message: 'cancelled' };
const START_ATTEMPTS = 2;
/** After a failed start (both attempts), files wait this long before another start is tried. */
const FAILED_START_RETRY_MS = 30_000;
/** Where the hardened profile goes in the office's file system (LibreOfficeKit's user installation). */
const PROFILE_FILE = '/instdir/user/registrymodifications.xcu';

export class WasmOfficeBackend implements DocumentBackend {
  readonly name = WASM_BACKEND_NAME;
  private info: BackendInfo | undefined;
  private files: WasmOfficeFiles | undefined;
  private office: WasmOffice | undefined;
  private starting: Promise<WasmOffice | undefined> | undefined;
  /** The office being started: a shutdown kills it rather than wait out its start. */
  private launching: WasmOffice | undefined;
  private busy = false;
  private pending: Pending[] = [];
  private requests = 0;
  private failedAt = 0;
  private lastError = '';
  private recycle: RecycleMeter;
  private readonly gate = new ShutdownGate('document conversion');
  private readonly idle: IdleRetirement;

  constructor(private readonly options: WasmBackendOptions) {
    this.recycle = new RecycleMeter({ jobs: options.recycleAfter });
    this.idle = new IdleRetirement(
      options.idleTimeoutMs,
      () => this.retire(),
      () => this.pending.length > 0 || this.busy || this.starting !== undefined,
    );
  }

  async detect(): Promise<BackendInfo> {
    if (this.info) return this.info;
    const found = findWasmOffice();
    if (found.found) this.files = found.files;
    this.info = found.found
      ? { available: true, name: this.name, version: `LibreOffice in WebAssembly (${found.files.version})`, path: found.files.dir }
      : { available: false, name: this.name, reason: found.reason };
    return this.info;
  }

  state(): BackendState {
    if (this.starting) return 'starting';
    return this.office?.alive ? 'ready' : 'idle';
  }

  /** Starts the office in the background (the service's start): requests find it warm. */
  warm(): void {
    if (this.gate.isClosed || this.office || this.starting) return;
    void this.start();
  }

  async convert(jobs: readonly ConversionJob[], control: JobControl = {}): Promise<ConversionOutcome[]> {
    await this.detect();
    this.gate.admit();
    if (control.signal?.aborted) throw new CancelledError();
    const request = ++this.requests;
    let settledFiles = 0;
    const outcomes = jobs.map(
      (job) =>
        new Promise<ConversionOutcome>((resolve) => {
          let settled = false;
          const settle = (outcome: ConversionOutcome) => {
            if (settled) return;
            settled = true;
            resolve(outcome);
            if (!control.signal?.aborted) control.progress?.(++settledFiles, jobs.length);
          };
          this.pending.push({ request, job, signal: control.signal, settle });
        }),
    );
    const cancel = () => this.withdraw(request);
    control.signal?.addEventListener('abort', cancel, { once: true });
    this.pump();
    try {
      const settled = await Promise.all(outcomes);
      if (control.signal?.aborted) throw new CancelledError();
      return settled;
    } finally {
      control.signal?.removeEventListener('abort', cancel);
    }
  }

  async close(): Promise<void> {
    this.gate.close();
    this.idle.close();
    for (const p of this.pending.splice(0)) p.settle(failedOutcome(this.gate.error(`converting ${p.job.shownName}`)));
    await Promise.all([this.office?.stop(), this.launching?.stop()]);
    await this.starting;
  }

  /** A cancelled request's files that the office has not taken yet leave the queue. */
  private withdraw(request: number): void {
    const withdrawn = this.pending.filter((p) => p.request === request);
    this.pending = this.pending.filter((p) => p.request !== request);
    for (const p of withdrawn) p.settle(CANCELLED);
  }

  /** Gives the oldest waiting file to the office, starting one when there is none. */
  private pump(): void {
    if (this.gate.isClosed || this.busy || this.pending.length === 0) return;
    if (this.starting) return;
    if (!this.office?.alive) {
      if (this.failedAt > 0 && Date.now() - this.failedAt < FAILED_START_RETRY_MS) return this.refuseAll();
      void this.start();
      return;
    }
    const next = this.pending.shift();
    if (next) void this.dispatch(this.office, next);
  }

  /** Starts an office, bounded and retried once; the files waiting are answered if both attempts fail. */
  private start(): Promise<WasmOffice | undefined> {
    this.starting ??= this.startAttempts().finally(() => {
      this.starting = undefined;
      // A fresh office counts as a job just ended: unused, it is retired after the idle timeout.
      this.idle.begin()();
      this.pump();
    });
    return this.starting;
  }

  private async startAttempts(): Promise<WasmOffice | undefined> {
    try {
      return await this.attemptStarts();
    } finally {
      this.launching = undefined;
    }
  }

  private async attemptStarts(): Promise<WasmOffice | undefined> {
    const files = this.files;
    if (!files) return undefined;
    for (let attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
      const started = performance.now();
      if (this.gate.isClosed) return undefined;
      const office = new WasmOffice({ wasmDir: files.wasmDir, glue: files.glue, fonts: [...this.options.fonts], profile: { [PROFILE_FILE]: registryModifications() } });
      this.launching = office;
      try {
        await withinBound(office.ready, this.options.startTimeoutMs);
        if (this.gate.isClosed) {
          await office.stop();
          return undefined;
        }
        logEvent(`docwasm libreoffice-wasm: office ready in ${((performance.now() - started) / 1000).toFixed(1)} s (pid ${office.pid})`);
        this.office = office;
        this.failedAt = 0;
        this.recycle = new RecycleMeter({ jobs: this.options.recycleAfter });
        return office;
      } catch (err) {
        await office.stop();
        if (this.gate.isClosed) return undefined;
        this.lastError = err instanceof Error ? err.message : String(err);
        logEvent(`docwasm libreoffice-wasm: start ${attempt} of ${START_ATTEMPTS} failed: ${this.lastError}`);
      }
    }
    this.failedAt = Date.now();
    this.refuseAll();
    return undefined;
  }

  private refuseAll(): void {
    for (const p of this.pending.splice(0)) {
      p.settle({ ok: false, code: 'BACKEND_UNAVAILABLE', message: `LibreOffice in WebAssembly could not be started: ${this.lastError}` });
    }
  }

  /** Stops an idle office; the next file starts a new one. */
  private retire(): void {
    if (this.busy || !this.office) return;
    const office = this.office;
    this.office = undefined;
    void office.stop();
  }

  private async dispatch(office: WasmOffice, pending: Pending): Promise<void> {
    this.busy = true;
    const end = this.idle.begin();
    let replace = false;
    try {
      const { outcome, stopped } = await this.runOne(office, pending);
      replace = stopped !== undefined || !office.alive;
      pending.settle(outcome);
    } catch (err) {
      logEvent(`docwasm libreoffice-wasm: ${err instanceof Error ? err.message : String(err)}`);
      pending.settle({ ok: false, code: 'INTERNAL_ERROR', message: 'The LibreOffice (WebAssembly) backend failed unexpectedly' });
      replace = true;
    } finally {
      this.busy = false;
      end();
    }
    if (this.recycle.record({ failed: replace }) || !office.alive) await this.replace(office);
    this.pump();
  }

  /** One file through the office, under its deadline, memory ceiling and cancel signal. */
  private async runOne(office: WasmOffice, { job, signal }: Pending): Promise<{ outcome: ConversionOutcome; stopped: StopReason }> {
    if (signal?.aborted) return { outcome: CANCELLED, stopped: undefined };
    // Read through the descriptor that was checked: a FIFO or a swapped file is this file's error.
    const bytes = await readChecked(job.input, job.shownName).catch((err: unknown) => (err instanceof ApiError ? failedOutcome(err) : Promise.reject(err)));
    if (!Buffer.isBuffer(bytes)) return { outcome: bytes, stopped: undefined };
    let stopped: StopReason;
    const stop = (reason: StopReason) => {
      stopped ??= reason;
      void office.stop();
    };
    const timer = setTimeout(() => stop('timeout'), this.options.timeoutMs);
    const { memoryBytes } = this.options;
    const watch = memoryBytes !== undefined && office.pid !== undefined ? new MemoryWatch(office.pid, memoryBytes, () => stop('too-large'), 250, largestResidentSize).start() : undefined;
    const onAbort = () => stop('cancelled');
    signal?.addEventListener('abort', onAbort, { once: true });
    let reply: OfficeReply;
    try {
      const request = { bytes, extension: job.extension, name: stagedStem(job.input.path), format: job.format, importFilterOptions: importFilterOptions(job.extension), filterOptions: exportFilterOptions(job.family, job.format), pdfa: job.format === 'pdf' ? job.pdfa : undefined };
      reply = await office.convert(request);
    } finally {
      clearTimeout(timer);
      watch?.stop();
      signal?.removeEventListener('abort', onAbort);
    }
    return { outcome: await this.judge(reply, job, stopped, watch?.exhausted() ?? false), stopped };
  }

  private async judge(reply: OfficeReply, job: ConversionJob, stopped: StopReason, memoryExhausted: boolean): Promise<ConversionOutcome> {
    if (reply.kind === 'converted') return deliver(job.format === 'txt' ? asPlainText(reply.bytes) : reply.bytes, job.output);
    if (reply.kind === 'rejected') return { ok: false, code: 'INVALID_INPUT', message: `LibreOffice could not convert ${job.shownName} (damaged or unsupported content)` };
    if (this.gate.isClosed) return failedOutcome(this.gate.error(`converting ${job.shownName}`));
    if (stopped === 'cancelled') return CANCELLED;
    if (stopped === 'timeout') return failedOutcome(timeoutError('document conversion', this.options.timeoutMs, `converting ${job.shownName}; LibreOffice was stopped and replaced`));
    if (stopped === 'too-large' || memoryExhausted) return this.tooLarge(job);
    logEvent(`docwasm libreoffice-wasm: the office stopped while converting a document (${reply.detail})`);
    return { ok: false, code: 'INVALID_INPUT', message: `LibreOffice stopped while converting ${job.shownName}; it was restarted` };
  }

  private tooLarge(job: ConversionJob): ConversionOutcome {
    const mb = Math.round((this.options.memoryBytes ?? 0) / 1024 ** 2);
    return { ok: false, code: 'TOO_LARGE', message: `Converting ${job.shownName} needs more memory than the LibreOffice ceiling of ${mb} MB (--office-memory-mb); the process was stopped and replaced` };
  }

  /** Stops `office` (if still the current one) and starts its successor: the backend stays warm. */
  private async replace(office: WasmOffice): Promise<void> {
    if (this.office === office) this.office = undefined;
    await office.stop();
    if (!this.gate.isClosed) void this.start();
  }
}

/** `ready`, or an error once `ms` have passed. */
async function withinBound<T>(ready: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the office did not finish starting within ${ms / 1000} s and was stopped`)), ms);
  });
  try {
    return await Promise.race([ready, bound]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Text output as the installed office writes it (`Text (encoded)`: UTF-8, LF, no BOM):
 * LibreOfficeKit's text export ignores those options and writes a byte-order mark and CR line ends.
 */
function asPlainText(bytes: Uint8Array): Uint8Array {
  const body = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  return Buffer.from(Buffer.from(body).toString('utf8').replace(/\r\n?/g, '\n'), 'utf8');
}

/** Writes the product into the job's staged output. */
async function deliver(bytes: Uint8Array, output: string): Promise<ConversionOutcome> {
  try {
    await fs.writeFile(output, bytes);
    return { ok: true };
  } catch (err) {
    const { code, message } = fileError(err, { role: 'output', shown: output });
    return { ok: false, code, message };
  }
}
