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
import { ApiError } from '../errors.js';
import { CancelledError, type JobControl } from '../jobs/policy.js';
import { IdleRetirement } from '../jobs/idle-retirement.js';
import { ShutdownGate } from '../jobs/shutdown-gate.js';
import { failedOutcome, type BackendInfo, type BackendState, type ConversionJob, type ConversionOutcome, type DocumentBackend } from './backend.js';
import { convertToArgument, CSV_IMPORT_FILTER } from './formats.js';
import type { SlotJob } from './office-invocation.js';
import type { MemoryCeiling } from './office-memory.js';
import { OfficeSlot } from './office-slot.js';
import { reapOrphanedOffices } from './orphans.js';
import { bundledCjkFonts } from './profile.js';
import { detectSoffice, type DetectOptions } from './soffice-detect.js';
import { logEvent } from '../shared/log.js';

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
}

interface Pending {
  request: number;
  convertTo: string;
  infilter: string | undefined;
  job: SlotJob;
  /** The request's cancel signal. */
  signal: AbortSignal | undefined;
  settle: (outcome: ConversionOutcome) => void;
}

const CANCELLED: ConversionOutcome = { ok: false, code: 'INTERNAL_ERROR', message: 'cancelled' };

const FAILED_SLOT_RETRY_MS = 5_000;

export class LibreOfficeBackend implements DocumentBackend {
  readonly name = 'libreoffice';
  private info: BackendInfo | undefined;
  private slots: OfficeSlot[] = [];
  private pending: Pending[] = [];
  private root: string | undefined;
  private slotsCreated: Promise<void> | undefined;
  private requests = 0;
  private readonly gate = new ShutdownGate('document conversion');
  private readonly idle: IdleRetirement;

  constructor(private readonly options: LibreOfficeOptions) {
    // Retirement waits while files are queued or an office is starting or converting.
    this.idle = new IdleRetirement(
      options.idleTimeoutMs,
      () => this.slots.forEach((slot) => slot.retire()),
      () => this.pending.length > 0 || this.slots.some((s) => s.state === 'busy' || s.state === 'starting'),
    );
  }

  async detect(): Promise<BackendInfo> {
    if (this.info) return this.info;
    const found = await detectSoffice(this.options.detect);
    this.info = found.found ? { available: true, name: this.name, version: found.version, path: found.path } : { available: false, name: this.name, reason: found.reason };
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
    // Cancelled while the slots were being created: the abort listener below would never fire.
    if (control.signal?.aborted) throw new CancelledError();
    const request = ++this.requests;
    let settledFiles = 0;
    const outcomes = jobs.map(
      (job) =>
        new Promise<ConversionOutcome>((resolve) => {
          const convertTo = convertToArgument(job.family, job.format, job.pdfa);
          const infilter = job.extension === 'csv' ? CSV_IMPORT_FILTER : undefined;
          let settled = false;
          const settle = (outcome: ConversionOutcome) => {
            if (settled) return;
            settled = true;
            resolve(outcome);
            if (!control.signal?.aborted) control.progress?.(++settledFiles, jobs.length);
          };
          this.pending.push({ request, convertTo, infilter, job, signal: control.signal, settle });
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

  /** A cancelled request's files that no office has taken yet leave the queue. */
  private withdraw(request: number): void {
    const withdrawn = this.pending.filter((p) => p.request === request);
    this.pending = this.pending.filter((p) => p.request !== request);
    for (const p of withdrawn) p.settle(CANCELLED);
  }

  async close(): Promise<void> {
    this.gate.close();
    this.idle.close();
    for (const p of this.pending.splice(0)) p.settle(failedOutcome(this.gate.error(`converting ${p.job.shownName}`)));
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
      void slot.start();
    }
  }

  /** Hands the oldest waiting files to ready slots, one file per slot. */
  private pump(): void {
    if (this.gate.isClosed) return;
    for (const slot of this.slots) {
      if (slot.state === 'failed' && Date.now() - slot.failedAt > FAILED_SLOT_RETRY_MS) void slot.start();
      if (slot.state === 'stopped' && this.pending.length > 0) void slot.start();
    }
    if (this.pending.length > 0 && this.slots.every((s) => s.state === 'failed')) {
      const reason = this.slots[0]?.lastError ?? 'unknown error';
      for (const p of this.pending.splice(0)) {
        p.settle({ ok: false, code: 'BACKEND_UNAVAILABLE', message: `LibreOffice (${this.info?.available ? this.info.path : 'soffice'}) could not be started: ${reason}` });
      }
      return;
    }
    for (const slot of this.slots) {
      if (slot.state !== 'ready') continue;
      const next = this.pending.shift();
      if (!next) break;
      void this.dispatch(slot, next);
    }
  }

  private async dispatch(slot: OfficeSlot, pending: Pending): Promise<void> {
    const end = this.idle.begin();
    try {
      const { convertTo, infilter, job, signal } = pending;
      const outcome = await slot.run({ convertTo, infilter, job, signal });
      if (!('retry' in outcome)) pending.settle(outcome);
      else if (signal?.aborted) pending.settle(CANCELLED);
      else this.pending.unshift(pending);
    } catch (err) {
      logEvent(`docwasm libreoffice: ${err instanceof Error ? err.message : String(err)}`);
      pending.settle({ ok: false, code: 'INTERNAL_ERROR', message: 'The LibreOffice backend failed unexpectedly' });
      void slot.start();
    } finally {
      end();
    }
    this.pump();
  }
}
