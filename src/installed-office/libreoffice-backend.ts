// The LibreOffice backend: a few slots (one private profile and one warm office each) and the
// files waiting for them (how many requests may wait is the job policy's, see src/engines). Each
// file is converted alone: files are never coalesced into one invocation, within a request or
// across requests, because an office converting several documents shows each of them the others
// (issue 20: a document read its neighbours' parts through vnd.sun.star.zip URLs). A batch's
// files are spread over the free slots instead. Offices idle for the idle timeout are stopped
// (they hold 150–300 MB each) and started again by the next conversion.

import fs from 'node:fs/promises';
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ApiError } from '../../core/errors.js';
import type { JobControl } from '../jobs/policy.js';
import { IdleRetirement } from '../jobs/idle-retirement.js';
import type { MemoryBudget } from '../jobs/memory-budget.js';
import { ShutdownGate } from '../jobs/shutdown-gate.js';
import { failedOutcome, type BackendInfo, type BackendState, type ConversionJob, type ConversionOutcome, type DocumentBackend } from '../documents/backend.js';
import { convertToArgument, CSV_IMPORT_FILTER } from '../documents/formats.js';
import type { MemoryCeiling } from './office-memory.js';
import { OfficeSlot } from './office-slot.js';
import { CANCELLED, WaitingFiles, type WaitingFile } from '../documents/waiting-files.js';
import { reapOrphanedOffices } from './orphans.js';
import { bundledCjkFonts } from '../documents/profile.js';
import { detectSoffice, type DetectOptions } from './soffice-detect.js';
import { logEvent } from '../../core/log.js';

export interface LibreOfficeOptions {
  detect: DetectOptions;
  slots: number;
  timeoutMs: number;
  /** Files an office converts before it is replaced by a fresh one (--soffice-recycle-after). */
  recycleAfter: number;
  /** Font files linked into each office's profile (the shipped CJK face, --font-dir). */
  fonts?: readonly string[] | undefined;
  startTimeoutMs?: number;
  /** Offices idle this long are stopped; the next conversion starts them again. */
  idleTimeoutMs?: number;
  /** Address-space ceiling of each office process; undefined: none. */
  memory?: MemoryCeiling | undefined;
  env?: NodeJS.ProcessEnv;
  /** The service's memory budget: each office starts only within it (src/jobs/memory-budget.ts). */
  budget?: MemoryBudget | undefined;
}

/** What one office may hold in the memory budget: 150–300 MB measured (docs/documents-backend.md). */
const OFFICE_COST_MB = 300;

const FAILED_SLOT_RETRY_MS = 5_000;

export class LibreOfficeBackend implements DocumentBackend {
  readonly name = 'libreoffice';
  private info: BackendInfo | undefined;
  private slots: OfficeSlot[] = [];
  private readonly waiting = new WaitingFiles(() => this.pump());
  private root: string | undefined;
  private slotsCreated: Promise<void> | undefined;
  private readonly gate = new ShutdownGate('document conversion');
  private readonly idle: IdleRetirement;
  private readonly budgeted: { used(): void; changed(): void } | undefined;
  /** Offices are admitted by the memory budget one after another, so two cannot take the same room. */
  private admissions: Promise<void> = Promise.resolve();

  constructor(private readonly options: LibreOfficeOptions) {
    // Retirement waits while files are queued or an office is starting or converting.
    const busy = () => this.waiting.size > 0 || this.slots.some((s) => s.state === 'busy' || s.state === 'starting');
    this.idle = new IdleRetirement(options.idleTimeoutMs, (idleMs) => this.slots.forEach((slot) => slot.retire(idleMs)), busy);
    this.budgeted = options.budget?.register({
      engine: this.name,
      costMb: OFFICE_COST_MB,
      instances: () => this.slots.filter((s) => s.state === 'starting' || s.state === 'ready' || s.state === 'busy').length,
      busy,
      retire: () => this.slots.forEach((slot) => slot.retire(undefined)),
      state: () => this.state(),
    });
  }

  async detect(): Promise<BackendInfo> {
    if (this.info) return this.info;
    const found = await detectSoffice(this.options.detect);
    this.info = found.found
      ? { available: true, name: this.name, version: found.version, path: found.path }
      : { available: false, name: this.name, reason: found.reason };
    return this.info;
  }

  state(): BackendState {
    if (this.slots.some((slot) => slot.state === 'starting')) return 'starting';
    return this.slots.some((slot) => slot.state === 'ready' || slot.state === 'busy') ? 'ready' : 'idle';
  }

  async convert(jobs: readonly ConversionJob[], control: JobControl = {}): Promise<ConversionOutcome[]> {
    const info = await this.detect();
    if (!info.available) throw new ApiError('BACKEND_UNAVAILABLE', info.reason);
    this.gate.admit();
    this.slotsCreated ??= this.createSlots(info.path);
    await this.slotsCreated;
    // Cancelled while the slots were being created: the queue answers CancelledError at once.
    return this.waiting.submit(jobs, control);
  }

  async close(): Promise<void> {
    this.gate.close();
    this.idle.close();
    this.waiting.settleAll((file) => failedOutcome(this.gate.error(`converting ${file.job.shownName}`)));
    for (const slot of this.slots) slot.close();
    if (this.root) rmSync(this.root, { recursive: true, force: true });
  }

  /** Slots and their offices start with the first conversion, so a service that never converts never starts LibreOffice. */
  private async createSlots(soffice: string): Promise<void> {
    const reaped = await reapOrphanedOffices();
    if (reaped > 0) logEvent(`docwasm libreoffice: killed ${reaped} process(es) left by a docwasm that did not shut down`);
    // Named after our PID so a process table shows whose office it is.
    this.root = await fs.mkdtemp(path.join(os.tmpdir(), `docwasm-soffice-${process.pid}-`));
    const fonts = this.options.fonts ?? bundledCjkFonts();
    for (let i = 0; i < this.options.slots; i++) {
      const slot = new OfficeSlot({
        soffice,
        dir: path.join(this.root, `slot-${i}`),
        timeoutMs: this.options.timeoutMs,
        startTimeoutMs: this.options.startTimeoutMs ?? 60_000,
        recycleAfter: this.options.recycleAfter,
        fonts,
        env: this.options.env ?? {},
        memory: this.options.memory,
        gate: this.gate,
        onStateChange: () => this.pump(),
      });
      this.slots.push(slot);
      void this.startSlot(slot);
    }
  }

  /** Hands the oldest waiting files to ready slots, one file per slot. */
  private pump(): void {
    if (this.gate.isClosed) return;
    for (const slot of this.slots) {
      if (slot.state === 'failed' && Date.now() - slot.failedAt > FAILED_SLOT_RETRY_MS) void this.startSlot(slot);
      if (slot.state === 'stopped' && this.waiting.size > 0) void this.startSlot(slot);
    }
    if (this.waiting.size > 0 && this.slots.every((s) => s.state === 'failed')) {
      const reason = this.slots[0]?.lastError ?? 'unknown error';
      const message = `LibreOffice (${this.info?.available ? this.info.path : 'soffice'}) could not be started: ${reason}`;
      this.waiting.settleAll(() => ({ ok: false, code: 'BACKEND_UNAVAILABLE', message }));
      return;
    }
    for (const slot of this.slots) {
      if (slot.state !== 'ready') continue;
      const next = this.waiting.take();
      if (!next) break;
      void this.dispatch(slot, next);
    }
  }

  /**
   * Starts a slot's office once the memory budget has room for it (files waiting: up to
   * --timeout; the first start, none). With no room and no office running, the files waiting are
   * answered with the budget's error; the next file tries again.
   */
  private startSlot(slot: OfficeSlot): Promise<void> {
    const budget = this.options.budget;
    if (!budget) return slot.start();
    this.admissions = this.admissions.then(async () => {
      if (slot.state !== 'stopped' && slot.state !== 'failed') return;
      try {
        await budget.admit(this.name, {}, this.waiting.size > 0 ? this.options.timeoutMs : 0);
      } catch (err) {
        const running = this.slots.some((s) => s.state === 'starting' || s.state === 'ready' || s.state === 'busy');
        if (!running && err instanceof ApiError) this.waiting.settleAll(() => ({ ok: false, code: err.code, message: err.message }));
        return;
      }
      void slot.start();
    });
    return this.admissions;
  }

  private async dispatch(slot: OfficeSlot, file: WaitingFile): Promise<void> {
    const end = this.idle.begin();
    this.budgeted?.used();
    try {
      const { job, signal } = file;
      const convertTo = convertToArgument(job.family, job.format, job.pdfa);
      const infilter = job.extension === 'csv' ? CSV_IMPORT_FILTER : undefined;
      const outcome = await slot.run({ convertTo, infilter, job, signal });
      if (!('retry' in outcome)) file.settle(outcome);
      else if (signal?.aborted) file.settle(CANCELLED);
      else this.waiting.putBack(file);
    } catch (err) {
      logEvent(`docwasm libreoffice: ${err instanceof Error ? err.message : String(err)}`);
      file.settle({ ok: false, code: 'INTERNAL_ERROR', message: 'The LibreOffice backend failed unexpectedly' });
      void slot.start();
    } finally {
      end();
      this.budgeted?.changed();
    }
    this.pump();
  }
}
