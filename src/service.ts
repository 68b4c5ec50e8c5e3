// Assembles docwasm: the capabilities (each owning its engine and routes), the HTTP app with
// its guards, and the listening server. Also the orderly shutdown.

import type { AddressInfo } from 'node:net';
import type { Capability, CapabilityFactory } from './capability.js';
import type { Config } from './config.js';
import { removeAllTempFiles } from './files/atomic.js';
import { createPathPolicy } from './files/paths.js';
import { createApp } from './http/app.js';
import { createHttpServer, listen } from './http/server.js';
import { acceptedHosts } from './http/guards/host.js';
import { allowedOrigins } from './http/guards/origin.js';
import { healthRoute } from './api/health.js';
import { openApiRoute } from './api/openapi.js';
import { createDocumentCapability } from './api/convert.js';
import { createImageCapability } from './api/image.js';
import { createOcrCapability } from './api/ocr.js';
import { createPdfCapability } from './api/pdf.js';

const CAPABILITIES: readonly CapabilityFactory[] = [createPdfCapability, createImageCapability, createOcrCapability, createDocumentCapability];

export interface Service {
  /** Resolves with the bound address once listening. */
  listen(): Promise<AddressInfo>;
  /** Stops accepting, lets in-flight requests finish (up to `graceMs`), stops the engines. */
  close(graceMs?: number): Promise<void>;
}

export async function createService(config: Config): Promise<Service> {
  const startedAt = Date.now();
  const paths = await createPathPolicy(config.baseDir, config.allowDirs, config.maxInputBytes);
  const capabilities: Capability[] = await Promise.all(CAPABILITIES.map((create) => create({ config, paths })));
  const apiRoutes = [healthRoute(capabilities, startedAt), ...capabilities.flatMap((c) => c.routes)];
  const hosts = acceptedHosts(config.host, config.port);
  const app = createApp([...apiRoutes, openApiRoute(apiRoutes)], {
    hosts,
    origins: allowedOrigins(hosts, config.allowOrigins),
    token: config.token,
  });
  let server: ReturnType<typeof createHttpServer> | undefined;

  return {
    listen: () => {
      server = createHttpServer(app.fetch, config);
      return listen(server, config.host, config.port);
    },
    close: async (graceMs = 10_000) => {
      const stopped = new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      const grace = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref());
      await Promise.race([stopped, grace]);
      await Promise.allSettled(capabilities.map((c) => c.close()));
      removeAllTempFiles();
    },
  };
}
