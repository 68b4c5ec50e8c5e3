// DNS-rebinding defence: only Host values naming the address the service was bound as.

import { createMiddleware } from 'hono/factory';
import { ApiError } from '../../errors.js';
import type { AppEnv } from '../env.js';

export function acceptedHosts(boundHost: string, port: number): Set<string> {
  const hosts = [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
  const bound = boundHost.includes(':') && !boundHost.startsWith('[') ? `[${boundHost}]` : boundHost;
  if (!['0.0.0.0', '[::]'].includes(bound)) hosts.push(`${bound}:${port}`);
  return new Set(hosts.map((h) => h.toLowerCase()));
}

export function hostGuard(hosts: ReadonlySet<string>) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const host = c.req.header('host')?.toLowerCase();
    if (!host || !hosts.has(host)) throw new ApiError('FORBIDDEN_HOST', `Host "${host ?? ''}" is not accepted`);
    await next();
  });
}
