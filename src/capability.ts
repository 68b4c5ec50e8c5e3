// A capability (pdf, image, ocr, document) is a plug-in: it owns its engine, declares its
// routes and reports its health. src/service.ts lists them; nothing else knows them.

import type { Config } from './config.js';
import type { PathPolicy } from './files/paths.js';
import type { Route } from './http/route.js';

export type CapabilityName = 'pdf' | 'image' | 'ocr' | 'document';

export interface EngineHealth {
  available: boolean;
  engine: string;
  version: string;
  [detail: string]: unknown;
}

export interface Capability {
  name: CapabilityName;
  routes: Route[];
  health(): Promise<EngineHealth> | EngineHealth;
  close(): Promise<void>;
}

export interface ServiceDeps {
  config: Config;
  paths: PathPolicy;
}

export type CapabilityFactory = (deps: ServiceDeps) => Promise<Capability> | Capability;
