// The document engine: the first available DocumentBackend (LibreOffice), detected on first use.
// Without one every conversion answers BACKEND_UNAVAILABLE with how to install or point to it.

import type { Config } from '../config.js';
import { ApiError } from '../errors.js';
import type { DocumentBackend } from '../documents/backend.js';
import { LibreOfficeBackend } from '../documents/libreoffice-backend.js';
import { officeMemoryCeiling } from '../documents/office-memory.js';
import { chooseOfficeSandbox, officeSandboxKind } from '../documents/sandbox.js';
import { INSTALL_HINT, selectDocumentBackend, type BackendSelection } from '../documents/registry.js';
import { JobQueue, type JobControl } from '../jobs/policy.js';
import type { EngineHealth } from './health.js';

/** Offices run one conversion at a time each and take 150–300 MB; more than four rarely pays. */
const MAX_OFFICES = 4;

export class DocumentEngine {
  private selection: Promise<BackendSelection> | undefined;
  private readonly queue: JobQueue;

  constructor(private readonly config: Config) {
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
    const { info, reasons } = await this.select();
    return info?.available
      ? { available: true, engine: info.name, version: info.version, backend: info.name, path: info.path, sandbox: officeSandboxKind() }
      : { available: false, engine: 'libreoffice', version: 'none', backend: 'none', reason: reasons.join('; ') };
  }

  async close(): Promise<void> {
    this.queue.close();
    if (this.selection) await (await this.selection).backend?.close();
  }

  private select(): Promise<BackendSelection> {
    const { soffice, timeoutMs, sofficeRecycleAfter, idleTimeoutMs, officeMemoryMb } = this.config;
    this.selection ??= selectDocumentBackend([
      () =>
        new LibreOfficeBackend({
          detect: { explicit: soffice },
          slots: this.offices(),
          timeoutMs,
          recycleAfter: sofficeRecycleAfter,
          idleTimeoutMs,
          memory: officeMemoryCeiling(officeMemoryMb),
        }),
    ]);
    return this.selection;
  }

  private offices(): number {
    return Math.max(1, Math.min(this.config.workers, MAX_OFFICES));
  }
}
