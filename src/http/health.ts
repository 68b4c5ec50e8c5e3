// GET /api/health: version, uptime, each engine's availability and, with --queue, the queue's state.

import type { Engines } from '../engines/engines.js';
import type { JobStore } from '../jobs/registry.js';
import { VERSION } from '../version.js';
import { SERVICE_TAG, type GetRoute } from './route.js';

export function healthRoute(engines: Engines, startedAt: number, jobs: JobStore<unknown>): GetRoute {
  return {
    method: 'GET',
    path: '/api/health',
    summary: 'Service version, uptime and engine availability',
    tag: SERVICE_TAG,
    handle: async () => {
      const uptime = Math.round((Date.now() - startedAt) / 1000);
      const queue = await jobs.health();
      return {
        message: 'docwasm is running',
        data: { version: VERSION, uptime, ...(await engines.health()), memory: engines.memory(), ...(queue && { queue }) },
      };
    },
  };
}
