// Assembles the HTTP door of docwasm: the engines, a route per operation, health and OpenAPI,
// the HTTP app with its guards, and the listening server. Also the orderly shutdown.

import type { AddressInfo } from 'node:net';
import type { Config } from './config.js';
import { createApp } from './http/app.js';
import { createHttpServer, listen } from './http/server.js';
import { acceptedHosts } from './http/guards/host.js';
import { allowedOrigins } from './http/guards/origin.js';
import { healthRoute } from './http/health.js';
import { jobRoutes } from './http/jobs.js';
import { openApiRoute } from './http/openapi.js';
import { operationRoute } from './http/operation-route.js';
import { JobRegistry, type JobStore } from './jobs/registry.js';
import { createRuntime } from './operations/context.js';
import { jobRunner } from './operations/run-job.js';
import { openQueue } from './queue/open-queue.js';
import { Webhooks } from './webhooks/webhooks.js';
import { OPERATIONS } from './operations/index.js';
import type { OperationContext, OperationResult } from './operations/operation.js';
import { logStart } from '../core/log.js';
import { settledWithin } from '../core/deadline.js';
import { startReportLines } from './start-report.js';

export interface Service {
  /** Resolves with the bound address once listening, after logging the start report. */
  listen(): Promise<AddressInfo>;
  /** Stops accepting, lets in-flight requests finish (up to `graceMs`), cancels async jobs, stops the engines. */
  close(graceMs?: number): Promise<void>;
  /** The runtime the routes run operations in, for doors beside HTTP (`serve --watch`). */
  context: OperationContext;
}

export async function createService(config: Config): Promise<Service> {
  const startedAt = Date.now();
  const runtime = await createRuntime(config);
  const { engines } = runtime;
  const { store: jobs, close: closeJobs } = await openJobStore(config, runtime);
  // In the order /docs lists their groups: the operations', Jobs, Service.
  const apiRoutes = [...OPERATIONS.map((operation) => operationRoute(operation, runtime, jobs)), ...jobRoutes(jobs), healthRoute(engines, startedAt, jobs)];
  const hosts = acceptedHosts(config.host, config.port);
  const app = createApp([...apiRoutes, openApiRoute(apiRoutes, { tokenRequired: config.token !== undefined })], {
    hosts,
    origins: allowedOrigins(hosts, config.allowOrigins),
    token: config.token,
  });
  // Reports a bad --tessdata at start, not at the first OCR request.
  void engines.ocr;
  let server: ReturnType<typeof createHttpServer> | undefined;

  return {
    context: runtime,
    listen: async () => {
      server = createHttpServer(app.fetch, config);
      const address = await listen(server, config.host, config.port);
      for (const line of startReportLines(config, await engines.documents.health())) logStart(line);
      // The WebAssembly office takes tens of seconds to start: it starts now, not with the first request.
      void engines.documents.warm();
      return address;
    },
    close: async (graceMs = 10_000) => {
      const stopped = new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      await settledWithin(stopped, graceMs);
      // Embedded jobs do not survive a restart: cancelled, they leave no output and no temp file.
      // Queued ones running here go back to the queue, for a live worker.
      await closeJobs(graceMs);
      await runtime.close();
    },
  };
}

/** Jobs live in the service (the default) or, with --queue, in the shared queue. */
async function openJobStore(config: Config, runtime: OperationContext): Promise<{ store: JobStore<OperationResult>; close(graceMs: number): Promise<void> }> {
  if (config.queue !== undefined) return openQueue(config.queue, config, runtime, { localWorker: !config.noLocalWorker });
  const webhooks = new Webhooks(config);
  const store = new JobRegistry<OperationResult>({
    retentionMs: config.jobRetentionMs,
    run: jobRunner(runtime),
    check: (url) => webhooks.check(url),
    finished: (job, record) => void webhooks.deliverJob(job, record),
  });
  return { store, close: (graceMs) => store.close(graceMs) };
}
