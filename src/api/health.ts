// GET /api/health: version, uptime and each engine's availability.

import type { Capability, CapabilityName, EngineHealth } from '../capability.js';
import type { GetRoute } from '../http/route.js';
import { VERSION } from '../version.js';

const REPORTED: readonly CapabilityName[] = ['pdf', 'image', 'ocr', 'document'];

export function healthRoute(capabilities: readonly Capability[], startedAt: number): GetRoute {
  return {
    method: 'GET',
    path: '/api/health',
    summary: 'Service version, uptime and engine availability',
    handle: async () => {
      const engines: Record<string, EngineHealth> = {};
      for (const name of REPORTED) {
        const capability = capabilities.find((c) => c.name === name);
        engines[name] = capability ? await capability.health() : { available: false, engine: 'none', version: 'none' };
      }
      const uptime = Math.round((Date.now() - startedAt) / 1000);
      return { message: 'docwasm is running', data: { version: VERSION, uptime, ...engines } };
    },
  };
}
