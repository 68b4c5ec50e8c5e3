// The LibreOffice backend: a few seats (one private profile and one warm office each, started
// and kept by the supervisor, src/jobs/supervisor.ts) and the files waiting for them in its line
// (how many requests may wait is the job policy's, see src/engines). Each file is converted
// alone: files are never coalesced into one invocation, within a request or across requests,
// because an office converting several documents shows each of them the others (issue 20: a
// document read its neighbours' parts through vnd.sun.star.zip URLs). A batch's files are spread
// over the free offices instead. Offices idle for the idle timeout are stopped (they hold
// 150–300 MB each) and started again by the next conversion.

import fs from 'node:fs/promises';
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ApiError } from '../../core/errors.js';
import type { JobControl } from '../jobs/policy.js';
import type { MemoryBudget } from '../jobs/memory-budget.js';
import { Supervisor, type Use } from '../jobs/supervisor.js';
import {
  failedOutcome,
  officeSupervision,
  type BackendInfo,
  type BackendState,
  type ConversionJob,
  type ConversionOutcome,
  type DocumentBackend,
} from '../documents/backend.js';
import { convertToArgument, CSV_IMPORT_FILTER } from '../documents/formats.js';
import type { MemoryCeiling } from './office-memory.js';
import { convertInOffice } from './office-invocation.js';
import { startInstalledOffice, type InstalledOffice, type OfficeSettings } from './office-slot.js';
import { CANCELLED, convertFiles } from '../documents/waiting-files.js';
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

/** An office killed while starting (OOM killer, someone's kill) is tried again before the start counts as failed. */
const START_ATTEMPTS = 3;

export class LibreOfficeBackend implements DocumentBackend {
  readonly name = 'libreoffice';
  private info: BackendInfo | undefined;
  private root: string | undefined;
  private settings: Promise<OfficeSettings> | undefined;
  private readonly supervisor: Supervisor<InstalledOffice>;

  constructor(private readonly options: LibreOfficeOptions) {
    this.supervisor = new Supervisor(
      {
        start: async (context) => startInstalledOffice(await (this.settings as Promise<OfficeSettings>), context),
        stop: (office) => office.stop(),
        healthy: (office) => office.alive,
        memory: (office) => ({ pid: office.child.pid }),
      },
      officeSupervision(options, {
        engine: this.name,
        label: 'libreoffice office',
        size: options.slots,
        costMb: OFFICE_COST_MB,
        startAttempts: START_ATTEMPTS,
        startFailed: (reason) =>
          new ApiError('BACKEND_UNAVAILABLE', `LibreOffice (${this.info?.available ? this.info.path : 'soffice'}) could not be started: ${reason}`),
      }),
    );
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
    const state = this.supervisor.state();
    return state === 'busy' ? 'ready' : state;
  }

  async convert(jobs: readonly ConversionJob[], control: JobControl = {}): Promise<ConversionOutcome[]> {
    const info = await this.detect();
    if (!info.available) throw new ApiError('BACKEND_UNAVAILABLE', info.reason);
    this.supervisor.gate.admit();
    this.settings ??= this.prepare(info.path);
    await this.settings;
    // Cancelled while the offices' room was being made: convertFiles answers CancelledError at once.
    return convertFiles(jobs, control, (job, signal) => this.convertOne(job, signal));
  }

  async close(): Promise<void> {
    await this.supervisor.close();
    if (this.root) rmSync(this.root, { recursive: true, force: true });
  }

  /** The offices' room is made with the first conversion, so a service that never converts never starts LibreOffice. */
  private async prepare(soffice: string): Promise<OfficeSettings> {
    const reaped = await reapOrphanedOffices();
    if (reaped > 0) logEvent(`docwasm libreoffice: killed ${reaped} process(es) left by a docwasm that did not shut down`);
    // Named after our PID so a process table shows whose office it is.
    this.root = await fs.mkdtemp(path.join(os.tmpdir(), `docwasm-soffice-${process.pid}-`));
    const { startTimeoutMs = 60_000, fonts = bundledCjkFonts(), env = {}, memory } = this.options;
    return { soffice, root: this.root, startTimeoutMs, fonts, env, memory, gate: this.supervisor.gate };
  }

  /** One file: it waits for a free office in the supervisor's line, then runs; every end is an outcome. */
  private async convertOne(job: ConversionJob, signal: AbortSignal | undefined): Promise<ConversionOutcome> {
    for (;;) {
      try {
        const outcome = await this.supervisor.run(signal, (office, use) => this.runIn(office, job, signal, use));
        if (outcome !== 'retry') return outcome;
        if (signal?.aborted) return CANCELLED;
      } catch (err) {
        if (signal?.aborted) return CANCELLED;
        if (this.supervisor.gate.isClosed) return failedOutcome(this.supervisor.gate.error(`converting ${job.shownName}`));
        if (err instanceof ApiError) return failedOutcome(err);
        throw err;
      }
    }
  }

  /** `retry`: the office went away under the file for a reason not the file's; it waits again. */
  private async runIn(office: InstalledOffice, job: ConversionJob, signal: AbortSignal | undefined, use: Use): Promise<ConversionOutcome | 'retry'> {
    if (signal?.aborted) return 'retry';
    try {
      const convertTo = convertToArgument(job.family, job.format, job.pdfa);
      const infilter = job.extension === 'csv' ? CSV_IMPORT_FILTER : undefined;
      const { outcome, replace } = await convertInOffice(office.warm(), { convertTo, infilter, job, signal }, this.options.timeoutMs);
      if (replace) use.replace();
      return 'retry' in outcome ? 'retry' : outcome;
    } catch (err) {
      logEvent(`docwasm libreoffice: ${err instanceof Error ? err.message : String(err)}`);
      use.replace();
      return { ok: false, code: 'INTERNAL_ERROR', message: 'The LibreOffice backend failed unexpectedly' };
    }
  }
}
