// The WebAssembly document backend: LibreOffice compiled to WebAssembly (wasm-office.ts), one
// warm office converting the waiting files one at a time. Its lifecycle is the native offices'
// (libreoffice-backend.ts, office-slot.ts) with the same parts: the job policy's queue in front
// (src/engines/documents.ts), the same queue of waiting files (WaitingFiles), idle retirement
// (IdleRetirement), replacement after a number of files (RecycleMeter), the shutdown gate, the
// same supervision of each file (ConversionWatch: deadline, memory ceiling on resident size here,
// cancel) and the same words for each end (officeOutcomes). What differs is the office: it is started in the
// background when the service starts (warm()), a start is bounded and retried (wasm-office-start.ts), and a file
// whose office must be stopped (its deadline, its memory ceiling, a cancel) costs a new start.

import { ApiError } from '../../core/errors.js';
import { readChecked } from '../files/paths.js';
import { IdleRetirement } from '../jobs/idle-retirement.js';
import type { MemoryBudget } from '../jobs/memory-budget.js';
import type { JobControl } from '../jobs/policy.js';
import { ShutdownGate } from '../jobs/shutdown-gate.js';
import { logEvent } from '../../core/log.js';
import { logEngineRetired, logEngineStarted } from '../jobs/engine-events.js';
import { RecycleMeter } from '../../core/recycle.js';
import { failedOutcome, type BackendInfo, type BackendState, type ConversionJob, type ConversionOutcome, type DocumentBackend } from '../documents/backend.js';
import { exportFilterOptions, importFilterOptions } from '../documents/formats.js';
import { ConversionWatch, deliverProduct, officeOutcomes, type StopReason } from '../documents/conversion-watch.js';
import { largestResidentSize } from '../installed-office/office-memory.js';
import { stagedStem } from '../installed-office/office-staging.js';
import { writeStaged } from '../files/staging.js';
import { fontFamilies } from '../documents/fonts.js';
import { bundledCjkFonts, wasmOfficeProfile } from '../documents/profile.js';
import type { OfficeReply, WasmOffice } from './wasm-office.js';
import { START_ATTEMPTS, startOffice } from './wasm-office-start.js';
import { officeV8Flags } from './wasm-office-engine.js';
import { findWasmOffice, type WasmOfficeFiles } from '../../core/wasm-office-package.js';
import { officeVersion } from './wasm-office-version.js';
import { CANCELLED, WaitingFiles, type WaitingFile } from '../documents/waiting-files.js';

export const WASM_BACKEND_NAME = 'libreoffice-wasm';

export interface WasmBackendOptions {
  /** Per file, from the moment the office takes it. */
  timeoutMs: number;
  /** Longest an office may take to start before it is killed (and tried again). */
  startTimeoutMs: number;
  /** Files an office converts before it is replaced. */
  recycleAfter: number;
  idleTimeoutMs: number | undefined;
  /** Resident-memory ceiling of the office process (--office-memory-mb); undefined: none. */
  memoryBytes: number | undefined;
  /** Font files put into the office (the shipped CJK face, --font-dir). */
  fonts: readonly string[];
  /** The service's memory budget: an office starts only within it (src/jobs/memory-budget.ts). */
  budget?: MemoryBudget | undefined;
  /** The office's locale (paper.ts wasmOfficeLocale, a BCP 47 tag), which sets the paper of documents that set none. */
  locale: string;
}

/**
 * What one office may hold in the memory budget: measured 751–762 MB alone once ready on an idle
 * machine, 972–999 MB with two CPU hogs beside it (docs/performance.md).
 */
const OFFICE_COST_MB = 1000;

/** After a failed start (every attempt), files wait this long before another start is tried. */
const FAILED_START_RETRY_MS = 30_000;

export class WasmOfficeBackend implements DocumentBackend {
  readonly name = WASM_BACKEND_NAME;
  private info: BackendInfo | undefined;
  private files: WasmOfficeFiles | undefined;
  private office: WasmOffice | undefined;
  private starting: Promise<WasmOffice | undefined> | undefined;
  /** The office being started: a shutdown kills it rather than wait out its start. */
  private launching: WasmOffice | undefined;
  private busy = false;
  private readonly waiting = new WaitingFiles(() => this.pump());
  private failedAt = 0;
  private profileFiles: Record<string, string> | undefined;
  private lastError = '';
  private recycle: RecycleMeter;
  private readonly gate = new ShutdownGate('document conversion');
  private readonly idle: IdleRetirement;
  /** The office being started was admitted by the memory budget: it counts there from then on. */
  private admitted = false;
  private readonly budgeted: { used(): void; changed(): void } | undefined;

  constructor(private readonly options: WasmBackendOptions) {
    this.recycle = new RecycleMeter({ jobs: options.recycleAfter });
    const busy = () => this.waiting.size > 0 || this.busy || this.starting !== undefined;
    this.idle = new IdleRetirement(options.idleTimeoutMs, (idleMs) => this.retire(idleMs), busy);
    this.budgeted = options.budget?.register({
      engine: this.name,
      costMb: OFFICE_COST_MB,
      instances: () => ((this.starting !== undefined && this.admitted) || this.office?.alive ? 1 : 0),
      busy,
      retire: () => this.retire(undefined),
      state: () => this.state(),
    });
  }

  /** The office's profile files (its font aliases know the fonts it is given). */
  private profile(): Record<string, string> {
    this.profileFiles ??= wasmOfficeProfile(this.options.fonts.flatMap(fontFamilies));
    return this.profileFiles;
  }

  async detect(): Promise<BackendInfo> {
    if (this.info) return this.info;
    const found = findWasmOffice();
    if (found.found) this.files = found.files;
    this.info = found.found
      ? { available: true, name: this.name, version: officeVersion(found.files), path: found.files.dir }
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
    return this.waiting.submit(jobs, control);
  }

  async close(): Promise<void> {
    this.gate.close();
    this.idle.close();
    this.waiting.settleAll((file) => failedOutcome(this.gate.error(`converting ${file.job.shownName}`)));
    await Promise.all([this.office?.stop(), this.launching?.stop()]);
    await this.starting;
  }

  /** Gives the oldest waiting file to the office, starting one when there is none. */
  private pump(): void {
    if (this.gate.isClosed || this.busy || this.waiting.size === 0) return;
    if (this.starting) return;
    if (!this.office?.alive) {
      if (this.failedAt > 0 && Date.now() - this.failedAt < FAILED_START_RETRY_MS) return this.refuseAll();
      void this.start();
      return;
    }
    const next = this.waiting.take();
    if (next) void this.dispatch(this.office, next);
  }

  /** Starts an office, bounded and retried; the files waiting are answered if every attempt fails. */
  private start(): Promise<WasmOffice | undefined> {
    this.starting ??= this.startAttempts().finally(() => {
      this.starting = undefined;
      this.admitted = false;
      this.budgeted?.changed();
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
    if (!files || !(await this.roomInBudget())) return undefined;
    const fonts = [...this.options.fonts];
    const cjkFaces = bundledCjkFonts().filter((font) => fonts.includes(font));
    const settings = { entry: files.entry, wasmDir: files.wasmDir, glue: files.glue, fonts, cjkFaces, profile: this.profile(), locale: this.options.locale };
    const started = await startOffice(settings, await officeV8Flags(), {
      timeoutMs: this.options.startTimeoutMs,
      launched: (office) => (this.launching = office),
      abandoned: () => this.gate.isClosed,
      failed: (attempt, message) => {
        this.lastError = message;
        if (!this.gate.isClosed) logEvent(`docwasm libreoffice-wasm: start ${attempt} of ${START_ATTEMPTS} failed: ${message}`);
      },
    });
    if (this.gate.isClosed) {
      await started?.office.stop();
      return undefined;
    }
    if (!started) {
      this.failedAt = Date.now();
      this.refuseAll();
      return undefined;
    }
    const { office, startMs } = started;
    logEngineStarted('libreoffice-wasm office', startMs, { pid: office.pid });
    this.office = office;
    this.failedAt = 0;
    this.recycle = new RecycleMeter({ jobs: this.options.recycleAfter });
    return office;
  }

  private refuseAll(): void {
    const message = `LibreOffice in WebAssembly could not be started: ${this.lastError}`;
    this.waiting.settleAll(() => ({ ok: false, code: 'BACKEND_UNAVAILABLE', message }));
  }

  /**
   * Waits for room in the memory budget (files waiting: up to --timeout; the service's warm-up:
   * none); without it the files waiting are answered with the budget's error.
   */
  private async roomInBudget(): Promise<boolean> {
    if (!this.options.budget) return true;
    try {
      await this.options.budget.admit(this.name, {}, this.waiting.size > 0 ? this.options.timeoutMs : 0);
      this.admitted = true;
      return true;
    } catch (err) {
      const { code, message } = err instanceof ApiError ? err : new ApiError('INTERNAL_ERROR', String(err));
      this.waiting.settleAll(() => ({ ok: false, code, message }));
      return false;
    }
  }

  /** Stops an idle office (after `idleMs` idle; undefined: for the memory budget, which says so); the next file starts a new one. */
  private retire(idleMs: number | undefined): void {
    if (this.busy || !this.office) return;
    const office = this.office;
    if (idleMs !== undefined) logEngineRetired('libreoffice-wasm office', idleMs, { pid: office.pid });
    this.office = undefined;
    void office.stop();
  }

  private async dispatch(office: WasmOffice, file: WaitingFile): Promise<void> {
    this.busy = true;
    this.budgeted?.used();
    const end = this.idle.begin();
    let replace = false;
    try {
      const { outcome, stopped } = await this.runOne(office, file);
      replace = stopped !== undefined || !office.alive;
      file.settle(outcome);
    } catch (err) {
      logEvent(`docwasm libreoffice-wasm: ${err instanceof Error ? err.message : String(err)}`);
      file.settle({ ok: false, code: 'INTERNAL_ERROR', message: 'The LibreOffice (WebAssembly) backend failed unexpectedly' });
      replace = true;
    } finally {
      this.busy = false;
      end();
    }
    if (this.recycle.record({ failed: replace }) || !office.alive) await this.replace(office);
    this.budgeted?.changed();
    this.pump();
  }

  /** One file through the office, under its deadline, memory ceiling and cancel signal. */
  private async runOne(office: WasmOffice, { job, signal }: WaitingFile): Promise<{ outcome: ConversionOutcome; stopped: StopReason | undefined }> {
    if (signal?.aborted) return { outcome: CANCELLED, stopped: undefined };
    // Read through the descriptor that was checked: a FIFO or a swapped file is this file's error.
    const bytes = await readChecked(job.input, job.shownName).catch((err: unknown) => (err instanceof ApiError ? failedOutcome(err) : Promise.reject(err)));
    if (!Buffer.isBuffer(bytes)) return { outcome: bytes, stopped: undefined };
    const { memoryBytes, timeoutMs } = this.options;
    const memory = memoryBytes !== undefined && office.pid !== undefined ? { pgid: office.pid, bytes: memoryBytes, measure: largestResidentSize } : undefined;
    const watch = new ConversionWatch({ timeoutMs, signal, memory, stop: () => void office.stop() });
    let reply: OfficeReply;
    let memoryExhausted: boolean;
    try {
      const request = {
        bytes,
        extension: job.extension,
        name: stagedStem(job.input.path),
        format: job.format,
        importFilterOptions: importFilterOptions(job.extension),
        filterOptions: exportFilterOptions(job.family, job.format),
        pdfa: job.format === 'pdf' ? job.pdfa : undefined,
      };
      reply = await office.convert(request);
    } finally {
      ({ memoryExhausted } = watch.end());
    }
    return { outcome: await this.judge(reply, job, watch.stopped, memoryExhausted), stopped: watch.stopped };
  }

  private async judge(reply: OfficeReply, job: ConversionJob, stopped: StopReason | undefined, memoryExhausted: boolean): Promise<ConversionOutcome> {
    if (reply.kind === 'converted') {
      const bytes = job.format === 'txt' ? asPlainText(reply.bytes) : reply.bytes;
      return deliverProduct(job.outputShown, () => writeStaged(job.output, bytes, job.outputShown));
    }
    if (reply.kind === 'rejected') return officeOutcomes.rejected(job.shownName);
    if (this.gate.isClosed) return failedOutcome(this.gate.error(`converting ${job.shownName}`));
    if (stopped === 'cancelled') return CANCELLED;
    if (stopped === 'timeout') return officeOutcomes.timedOut(job.shownName, this.options.timeoutMs);
    if (stopped === 'too-large' || memoryExhausted) return officeOutcomes.tooLarge(job.shownName, this.options.memoryBytes);
    logEvent(`docwasm libreoffice-wasm: the office stopped while converting a document (${reply.detail})`);
    return officeOutcomes.crashed(job.shownName);
  }

  /** Stops `office` (if still the current one) and starts its successor: the backend stays warm. */
  private async replace(office: WasmOffice): Promise<void> {
    if (this.office === office) this.office = undefined;
    await office.stop();
    if (!this.gate.isClosed) void this.start();
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
