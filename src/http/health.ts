// GET /api/health: version, uptime and each engine's availability.

import type { Engines } from '../engines/engines.js';
import { VERSION } from '../version.js';
import { SERVICE_TAG, type GetRoute } from './route.js';

export function healthRoute(engines: Engines, startedAt: number): GetRoute {
  return {
    method: 'GET',
    path: '/api/health',
    summary: 'Service version, uptime and engine availability',
    tag: SERVICE_TAG,
    handle: async () => {
      const uptime = Math.round((Date.now() - startedAt) / 1000);
      return { message: 'docwasm is running', data: { version: VERSION, uptime, ...(await engines.health()), memory: engines.memory() } };
    },
  };
}
