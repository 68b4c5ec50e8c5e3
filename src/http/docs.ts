// GET /docs: Swagger UI (the swagger-ui-dist package, served from the install: no CDN, works
// offline) showing /openapi.json. The page, its assets and /openapi.json describe the API and
// hold no user data, so they are served without the bearer token (a browser cannot send one
// when it opens a page); Host and Origin guards still apply, and "Try it out" calls to /api/
// need the token, entered with the page's Authorize button.

import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Hono } from 'hono';
import { ApiError } from '../../core/errors.js';
import type { AppEnv } from './env.js';

export const DOCS_PATH = '/docs';

const ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>docwasm API</title>
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <link rel="icon" type="image/png" href="${DOCS_PATH}/favicon-32x32.png">
  <link rel="stylesheet" href="${DOCS_PATH}/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${DOCS_PATH}/swagger-ui-bundle.js"></script>
  <script src="${DOCS_PATH}/init.js"></script>
</body>
</html>
`;

// A file of its own rather than an inline script, so a strict Content-Security-Policy can allow it.
// validatorUrl null: Swagger UI would otherwise ask an online validator about the document.
const INIT = `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
});
`;

/** Served without the bearer token (see above). */
export function isPublicPath(requestPath: string): boolean {
  return requestPath === '/openapi.json' || requestPath === DOCS_PATH || requestPath.startsWith(`${DOCS_PATH}/`);
}

export function mountDocs(app: Hono<AppEnv>): void {
  app.get(DOCS_PATH, (c) => c.html(PAGE));
  app.get(`${DOCS_PATH}/init.js`, (c) => c.body(INIT, 200, { 'Content-Type': 'text/javascript; charset=utf-8' }));
  app.get(`${DOCS_PATH}/:file`, async (c) => {
    const file = c.req.param('file');
    const type = Object.hasOwn(ASSETS, file) ? ASSETS[file] : undefined;
    if (!type) throw new ApiError('NOT_FOUND', 'No such endpoint');
    return c.body(new Uint8Array(await readAsset(file)), 200, { 'Content-Type': type, 'Cache-Control': 'public, max-age=3600' });
  });
}

const cache = new Map<string, Promise<Buffer>>();

function readAsset(file: string): Promise<Buffer> {
  let content = cache.get(file);
  if (!content) {
    content = fs.readFile(path.join(swaggerUiDir(), file));
    // A failed read is not cached: the next request tries again.
    content.catch(() => cache.delete(file));
    cache.set(file, content);
  }
  return content;
}

function swaggerUiDir(): string {
  return path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
}
