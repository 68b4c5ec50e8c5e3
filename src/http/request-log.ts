// One log line per request: method, path, status, code, milliseconds, and how many warnings
// (unknown fields) a success answer carried, when it carried any. Never bodies.

import { createMiddleware } from 'hono/factory';
import type { AppEnv } from './env.js';
import { logEvent } from '../../core/log.js';

export const requestLog = createMiddleware<AppEnv>(async (c, next) => {
  const started = performance.now();
  await next();
  const ms = Math.round(performance.now() - started);
  const warnings = c.get('warningCount') ?? 0;
  const counted = warnings === 0 ? '' : ` ${warnings} warning${warnings === 1 ? '' : 's'}`;
  logEvent(`${c.req.method} ${c.req.path} ${c.res.status} ${c.get('errorCode') ?? '-'} ${ms}ms${counted}`);
});
