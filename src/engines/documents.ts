// The document engine: the first available DocumentBackend, detected on first use — an installed
// LibreOffice, LibreOffice in WebAssembly, or (--document-backend auto, the default) the first of
// them that is there. Without one every conversion answers BACKEND_UNAVAILABLE saying why and how
// to get either.

import { installedOfficePaper, wasmOfficeLocale } from '../documents/paper.js';
import type { Config } from '../config.js';
import { ApiError } from '../../core/errors.js';
import type { DocumentBackend } from '../documents/backend.js';
import { officeFonts } from '../documents/fonts.js';
import { LibreOfficeBackend } from '../installed-office/libreoffice-backend.js';
import { WasmOfficeBackend } from '../wasm-office/wasm-backend.js';
import { officeMemoryCeiling } from '../installed-office/office-memory.js';
import { chooseOfficeSandbox, officeSandboxKind } from '../sandbox/sandbox.js';
import { INSTALL_HINT, selectDocumentBackend, type BackendCandidate, type BackendSelection } from '../documents/registry.js';
import type { MemoryBudget } from '../jobs/memory-budget.js';
import { JobQueue, type JobControl } from '../jobs/policy.js';
import type { EngineHealth } from './health.js';

/** Offices run one conversion at a time each and take 150–300 MB; more than four rarely pays. */
const MAX_OFFICES = 4;

export class DocumentEngine {
  private selection: Promise<BackendSelection> | undefined;
  private readonly queue: JobQueue;

  constructor(
    private readonly config: Config,
    private readonly budget?: MemoryBudget,
  ) {
    chooseOfficeSandbox(config.documentSandbox);
    this.queue = new JobQueue('document conversion', this.offices() + config.queueLimit);
  }

  /** Runs `work` on the backend holding a place in the document queue (BUSY when it is full). */
  async job<T>(control: JobControl, work: (backend: DocumentBackend) => Promise<T>): Promise<T> {
    const backend = await this.backend();
    return this.queue.hold(control, () => work(backend));
  }

  /** The backend, or BACKEND_UNAVAILABLE saying why and how to fix it. */
  async backend(): Promise<DocumentBackend> {
    const { backend, reasons } = await this.select();
    if (!backend) throw new ApiError('BACKEND_UNAVAILABLE', `No document conversion backend: ${reasons.join('; ')}. ${INSTALL_HINT}`);
    return backend;
  }

  async health(): Promise<EngineHealth> {
    const { backend, info, reasons } = await this.select();
    if (!backend || !info?.available) return { available: false, engine: 'libreoffice', version: 'none', backend: 'none', reason: reasons.join('; ') };
    const sandbox = backend.name === 'libreoffice-wasm' ? 'wasm' : officeSandboxKind();
    // Why an earlier choice was passed over (auto: a --soffice that names no runnable program).
    const passedOver = reasons.length > 0 ? { passedOver: reasons.join('; ') } : {};
    return { available: true, engine: info.name, version: info.version, backend: info.name, path: info.path, sandbox, state: backend.state(), ...passedOver };
  }

  /** Starts the backend's office in the background where it keeps one warm (the service's start). */
  async warm(): Promise<void> {
    (await this.select()).backend?.warm?.();
  }

  async close(): Promise<void> {
    this.queue.close();
    if (this.selection) await (await this.selection).backend?.close();
  }

  private select(): Promise<BackendSelection> {
    const { documentBackend } = this.config;
    const candidates: BackendCandidate[] = [];
    if (documentBackend !== 'wasm') candidates.push(() => this.installedOffice());
    if (documentBackend !== 'libreoffice') candidates.push(() => this.wasmOffice());
    this.selection ??= selectDocumentBackend(candidates);
    return this.selection;
  }

  private installedOffice(): DocumentBackend {
    const { soffice, timeoutMs, sofficeRecycleAfter, idleTimeoutMs, officeMemoryMb, fontDirs, paper } = this.config;
    return new LibreOfficeBackend({
      detect: { explicit: soffice },
      slots: this.offices(),
      timeoutMs,
      recycleAfter: sofficeRecycleAfter,
      idleTimeoutMs,
      memory: officeMemoryCeiling(officeMemoryMb),
      fonts: officeFonts(fontDirs),
      budget: this.budget,
      env: installedOfficePaper(paper),
    });
  }

  private wasmOffice(): DocumentBackend {
    const { timeoutMs, sofficeRecycleAfter, idleTimeoutMs, officeMemoryMb, fontDirs, officeStartTimeoutMs, paper } = this.config;
    return new WasmOfficeBackend({
      timeoutMs,
      startTimeoutMs: officeStartTimeoutMs,
      recycleAfter: sofficeRecycleAfter,
      idleTimeoutMs,
      memoryBytes: officeMemoryMb * 1024 ** 2,
      fonts: officeFonts(fontDirs),
      budget: this.budget,
      locale: wasmOfficeLocale(paper),
    });
  }

  private offices(): number {
    return Math.max(1, Math.min(this.config.workers, MAX_OFFICES));
  }
}
