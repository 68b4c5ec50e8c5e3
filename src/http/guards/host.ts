// DNS-rebinding defence: only Host values naming the address the service was bound as.
// A Host that is missing or not a plain `name[:port]` / `[v6]:port` is malformed HTTP, not a
// foreign host: BAD_REQUEST (`a@b`, two Host headers joined by a comma, an empty value).

import { createMiddleware } from 'hono/factory';
import { ApiError } from '../../../core/errors.js';
import type { AppEnv } from '../env.js';

export function acceptedHosts(boundHost: string, port: number): Set<string> {
  const hosts = [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
  const bound = boundHost.includes(':') && !boundHost.startsWith('[') ? `[${boundHost}]` : boundHost;
  if (!['0.0.0.0', '[::]'].includes(bound)) hosts.push(`${bound}:${port}`);
  return new Set(hosts.map((h) => h.toLowerCase()));
}

const HOST_SYNTAX = /^(?:[a-z0-9._-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/;

export function hostGuard(hosts: ReadonlySet<string>) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const host = c.req.header('host')?.trim().toLowerCase() ?? '';
    if (!HOST_SYNTAX.test(host)) throw new ApiError('BAD_REQUEST', host ? `Host "${host}" is not a valid host[:port]` : 'The Host header is missing');
    if (!hosts.has(host)) throw new ApiError('FORBIDDEN_HOST', `Host "${host}" is not accepted`);
    await next();
  });
}
