// One log line per request: method, path, status, code, milliseconds. Never bodies.

import { createMiddleware } from 'hono/factory';
import type { AppEnv } from './env.js';
import { logEvent } from '../shared/log.js';

export const requestLog = createMiddleware<AppEnv>(async (c, next) => {
  const started = performance.now();
  await next();
  const ms = Math.round(performance.now() - started);
  logEvent(`${c.req.method} ${c.req.path} ${c.res.status} ${c.get('errorCode') ?? '-'} ${ms}ms`);
});
