// Composes the HTTP service: guards in order (log → Host → Origin → token), then the routes
// declared by the API modules; POST routes add the JSON-body guards and schema validation.

import { Hono, type Context } from 'hono';
import { ApiError } from '../../core/errors.js';
import type { AppEnv } from './env.js';
import { DOCS_PATH, mountDocs, isPublicPath } from './docs.js';
import { errorResponse, successResponse } from './envelope.js';
import { hostGuard } from './guards/host.js';
import { originGuard } from './guards/origin.js';
import { tokenGuard } from './guards/token.js';
import { jsonBodyLimit, jsonContentType, readJsonObject } from './guards/json-body.js';
import { requestLog } from './request-log.js';
import type { Route } from './route.js';

export interface AppSecurity {
  hosts: ReadonlySet<string>;
  origins: ReadonlySet<string>;
  token: string | undefined;
}

export function createApp(routes: readonly Route[], security: AppSecurity): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use('*', requestLog, hostGuard(security.hosts), originGuard(security.origins));
  if (security.token) {
    const guard = tokenGuard(security.token);
    app.use('*', (c, next) => (c.req.path === '/' || isPublicPath(c.req.path) ? next() : guard(c, next)));
  }

  // A browser pointed at the service lands on its documentation.
  app.get('/', (c) => c.redirect(DOCS_PATH, 302));
  mountDocs(app);
  for (const route of routes) mountRoute(app, route);
  for (const [path, methods] of methodsByPath(routes)) {
    app.all(path, () => {
      throw new ApiError('METHOD_NOT_ALLOWED', `Use ${methods.join(', ')} for ${path}`, { Allow: methods.join(', ') });
    });
  }
  app.notFound(() => {
    throw new ApiError('NOT_FOUND', 'No such endpoint');
  });
  app.onError((err, c) => errorResponse(c, err));
  return app;
}

function mountRoute(app: Hono<AppEnv>, route: Route): void {
  if (route.method !== 'POST') {
    app.on(route.method, route.path, async (c: Context) => {
      const result = await route.handle(c.req.param());
      return route.method === 'GET' && route.raw ? c.json(result) : successResponse(c, result as Parameters<typeof successResponse>[1]);
    });
    return;
  }
  app.post(route.path, jsonContentType, jsonBodyLimit, async (c: Context) => {
    const answer = await route.handle(await readJsonObject(c.req.raw));
    return successResponse(c, answer, answer.status);
  });
}

function methodsByPath(routes: readonly Route[]): Map<string, string[]> {
  const byPath = new Map<string, string[]>();
  for (const route of routes) byPath.set(route.path, [...(byPath.get(route.path) ?? []), route.method]);
  return byPath;
}
