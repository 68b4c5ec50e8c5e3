// The WebAssembly document backend: LibreOffice compiled to WebAssembly (wasm-office.ts), one
// warm office converting the waiting files one at a time. The office is the supervisor's
// (src/jobs/supervisor.ts), as the installed offices are: its wait line, budget admission, idle
// retirement, replacement after a number of files (--soffice-recycle-after) or after a file
// whose office had to be stopped, start attempts and backoff, and the shutdown gate. This file
// says how to start one office (bounded: wasm-office-start.ts), how to stop and health-check it,
// and what a file's end means: the same supervision of each file as the installed office's
// (ConversionWatch: deadline, memory ceiling on resident size here, cancel) and the same words
// (officeOutcomes). What differs is that the office is started in the background when the
// service starts (warm()).

import { ApiError } from '../../core/errors.js';
import { readChecked } from '../files/paths.js';
import type { MemoryBudget } from '../jobs/memory-budget.js';
import type { JobControl } from '../jobs/policy.js';
import { Supervisor, type Process, type Use } from '../jobs/supervisor.js';
import { logEvent } from '../../core/log.js';
import {
  failedOutcome,
  officeSupervision,
  type BackendInfo,
  type BackendState,
  type ConversionJob,
  type ConversionOutcome,
  type DocumentBackend,
} from '../documents/backend.js';
import { exportFilterOptions, importFilterOptions } from '../documents/formats.js';
import { ConversionWatch, deliverProduct, officeOutcomes, type StopReason } from '../documents/conversion-watch.js';
import { largestResidentSize } from '../installed-office/office-memory.js';
import { stagedStem } from '../installed-office/office-staging.js';
import { writeStaged } from '../files/staging.js';
import { fontFamilies } from '../documents/fonts.js';
import { bundledCjkFonts, wasmOfficeProfile } from '../documents/profile.js';
import type { OfficeReply, WasmOffice } from './wasm-office.js';
import { START_ATTEMPTS, startOnce } from './wasm-office-start.js';
import { officeV8Flags } from './wasm-office-engine.js';
import { findWasmOffice, type WasmOfficeFiles } from '../../core/wasm-office-package.js';
import { officeVersion } from './wasm-office-version.js';
import { CANCELLED, convertFiles } from '../documents/waiting-files.js';

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
 * machine, 972–999 MB with two CPU hogs beside it; the whole service with it converting two docx
 * 989–1,055 MB (`npm run bench:memory`, docs/performance.md).
 */
const OFFICE_COST_MB = 1000;

export class WasmOfficeBackend implements DocumentBackend {
  readonly name = WASM_BACKEND_NAME;
  private info: BackendInfo | undefined;
  private files: WasmOfficeFiles | undefined;
  private profileFiles: Record<string, string> | undefined;
  private readonly supervisor: Supervisor<WasmOffice>;

  constructor(private readonly options: WasmBackendOptions) {
    this.supervisor = new Supervisor(
      this.officeProcess(),
      officeSupervision(options, {
        engine: this.name,
        label: 'libreoffice-wasm office',
        size: 1,
        costMb: OFFICE_COST_MB,
        startAttempts: START_ATTEMPTS,
        startFailed: (reason) => new ApiError('BACKEND_UNAVAILABLE', `LibreOffice in WebAssembly could not be started: ${reason}`),
      }),
    );
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
    const state = this.supervisor.state();
    return state === 'busy' ? 'ready' : state;
  }

  /** Starts the office in the background (the service's start): requests find it warm. */
  warm(): void {
    this.supervisor.warm();
  }

  async convert(jobs: readonly ConversionJob[], control: JobControl = {}): Promise<ConversionOutcome[]> {
    await this.detect();
    this.supervisor.gate.admit();
    return convertFiles(jobs, control, (job, signal) => this.convertOne(job, signal));
  }

  close(): Promise<void> {
    return this.supervisor.close();
  }

  /** How to start, stop and health-check one office. */
  private officeProcess(): Process<WasmOffice> {
    return {
      start: ({ signal }) => this.startOffice(signal),
      stop: (office) => office.stop(),
      healthy: (office) => office.alive,
      memory: (office) => ({ pid: office.pid }),
    };
  }

  private async startOffice(closing: AbortSignal): Promise<WasmOffice> {
    const files = this.files;
    if (!files) throw new Error('the package is not installed');
    const fonts = [...this.options.fonts];
    const cjkFaces = bundledCjkFonts().filter((font) => fonts.includes(font));
    const settings = { entry: files.entry, wasmDir: files.wasmDir, glue: files.glue, fonts, cjkFaces, profile: this.profile(), locale: this.options.locale };
    // A shutdown kills the office being started rather than wait out its start.
    let launching: WasmOffice | undefined;
    const stop = () => void launching?.stop();
    closing.addEventListener('abort', stop, { once: true });
    try {
      return await startOnce(settings, await officeV8Flags(), this.options.startTimeoutMs, (office) => (launching = office));
    } finally {
      closing.removeEventListener('abort', stop);
    }
  }

  /** One file: it waits for the office in the supervisor's line, then runs; every end is an outcome. */
  private async convertOne(job: ConversionJob, signal: AbortSignal | undefined): Promise<ConversionOutcome> {
    try {
      return await this.supervisor.run(signal, (office, use) => this.runOrReplace(office, job, signal, use));
    } catch (err) {
      if (signal?.aborted) return CANCELLED;
      if (this.supervisor.gate.isClosed) return failedOutcome(this.supervisor.gate.error(`converting ${job.shownName}`));
      if (err instanceof ApiError) return failedOutcome(err);
      throw err;
    }
  }

  /** A file whose office had to be stopped (deadline, ceiling, cancel) or that failed unexpectedly costs the office: it is replaced. */
  private async runOrReplace(office: WasmOffice, job: ConversionJob, signal: AbortSignal | undefined, use: Use): Promise<ConversionOutcome> {
    try {
      const { outcome, stopped } = await this.runOne(office, job, signal);
      if (stopped !== undefined || !office.alive) use.replace();
      return outcome;
    } catch (err) {
      logEvent(`docwasm libreoffice-wasm: ${err instanceof Error ? err.message : String(err)}`);
      use.replace();
      return { ok: false, code: 'INTERNAL_ERROR', message: 'The LibreOffice (WebAssembly) backend failed unexpectedly' };
    }
  }

  /** One file through the office, under its deadline, memory ceiling and cancel signal. */
  private async runOne(
    office: WasmOffice,
    job: ConversionJob,
    signal: AbortSignal | undefined,
  ): Promise<{ outcome: ConversionOutcome; stopped: StopReason | undefined }> {
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
    if (this.supervisor.gate.isClosed) return failedOutcome(this.supervisor.gate.error(`converting ${job.shownName}`));
    if (stopped === 'cancelled') return CANCELLED;
    if (stopped === 'timeout') return officeOutcomes.timedOut(job.shownName, this.options.timeoutMs);
    if (stopped === 'too-large' || memoryExhausted) return officeOutcomes.tooLarge(job.shownName, this.options.memoryBytes);
    logEvent(`docwasm libreoffice-wasm: the office stopped while converting a document (${reply.detail})`);
    return officeOutcomes.crashed(job.shownName);
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
