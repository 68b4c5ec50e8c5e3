// Browser CSRF defence: a request that carries an Origin must name an allowed one.
// No CORS headers are ever sent, so browsers cannot read answers from other origins either.

import { createMiddleware } from 'hono/factory';
import { ApiError } from '../../../core/errors.js';
import type { AppEnv } from '../env.js';

export function allowedOrigins(hosts: ReadonlySet<string>, extra: readonly string[]): Set<string> {
  return new Set([...[...hosts].map((h) => `http://${h}`), ...extra.map((o) => o.toLowerCase().replace(/\/$/, ''))]);
}

export function originGuard(origins: ReadonlySet<string>) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const origin = c.req.header('origin');
    if (origin !== undefined && !origins.has(origin.toLowerCase())) {
      throw new ApiError('FORBIDDEN_ORIGIN', `Origin "${origin}" is not allowed`);
    }
    await next();
  });
}
