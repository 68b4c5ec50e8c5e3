// Optional shared secret: `Authorization: Bearer <token>` on every request.

import { createHash, timingSafeEqual } from 'node:crypto';
import { createMiddleware } from 'hono/factory';
import { ApiError } from '../../../core/errors.js';
import type { AppEnv } from '../env.js';

const digest = (value: string) => createHash('sha256').update(value).digest();

export function tokenGuard(token: string) {
  const expected = digest(token);
  return createMiddleware<AppEnv>(async (c, next) => {
    const match = /^Bearer\s+(.+)$/i.exec(c.req.header('authorization') ?? '');
    if (!match || !timingSafeEqual(digest((match[1] as string).trim()), expected)) {
      throw new ApiError('UNAUTHORIZED', 'Missing or wrong bearer token', { 'WWW-Authenticate': 'Bearer' });
    }
    await next();
  });
}
