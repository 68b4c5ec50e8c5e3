// GET /openapi.json: an OpenAPI 3.1 document built from the same zod schemas that validate.
// Operations are grouped by their routes' tags (/docs shows a section per tag), and carry a
// security requirement (the lock icon in /docs) only when the service runs with a token.

import { z } from 'zod';
import { ERROR_CODES, STATUS_BY_CODE } from '../../core/errors.js';
import { acceptedData, asyncFlag, callbackUrlField } from './jobs.js';
import { SERVICE_TAG, type GetRoute, type Route } from './route.js';
import { VERSION } from '../version.js';

const successSchema = {
  type: 'object',
  required: ['success', 'message'],
  properties: {
    success: { type: 'boolean' },
    message: { type: 'string' },
    outputPath: { type: 'string' },
    text: { type: 'string', description: 'OCR only: the recognised text' },
    data: { type: 'object', additionalProperties: true },
    warnings: {
      type: 'array',
      items: { type: 'string' },
      description:
        'present when the request named fields the operation does not know (they were ignored): one per field, with the known field it may mean, e.g. unknown field "qualty" ignored; did you mean "quality"?',
    },
  },
};

const errorSchema = {
  type: 'object',
  required: ['success', 'error', 'code'],
  properties: { success: { const: false }, error: { type: 'string' }, code: { enum: ERROR_CODES } },
};

/** `tokenRequired`: the service runs with --token, so every /api/ call needs the bearer token. */
export function openApiRoute(routes: readonly Route[], { tokenRequired }: { tokenRequired: boolean }): GetRoute {
  const route: GetRoute = { method: 'GET', path: '/openapi.json', summary: 'This OpenAPI document', tag: SERVICE_TAG, raw: true, handle: () => document };
  const document = buildDocument([...routes, route], tokenRequired);
  return route;
}

function buildDocument(routes: readonly Route[], tokenRequired: boolean): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = openApiPath(route.path);
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operation(route, tokenRequired && route.path.startsWith('/api/')) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'docwasm',
      version: VERSION,
      description: 'Local document, PDF, image and OCR service. Errors list their codes in components.schemas.Error.',
    },
    // Relative: the document describes whichever address it was fetched from (/docs's "Try it out").
    servers: [{ url: '/' }],
    // In the order the routes come: the operations' groups, then Jobs and Service.
    tags: [...new Set(routes.map((r) => r.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: { Success: successSchema, Error: errorSchema },
      ...(tokenRequired && {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'The token the service was started with (--token or DOCWASM_TOKEN)' } },
      }),
    },
  };
}

function operation(route: Route, needsToken: boolean): Record<string, unknown> {
  const errorStatuses = [...new Set(Object.values(STATUS_BY_CODE))].sort();
  const responses: Record<string, unknown> = { '200': successContent('Success', route.method === 'POST' ? undefined : route.data) };
  if (route.method === 'POST') responses['202'] = successContent('"async": true: the job was accepted', acceptedData);
  for (const status of errorStatuses) responses[String(status)] = jsonContent(codesFor(status), '#/components/schemas/Error');
  return {
    tags: [route.tag],
    summary: route.summary,
    ...(needsToken && { security: [{ bearer: [] }] }),
    ...(route.method === 'POST' && {
      requestBody: { required: true, content: { 'application/json': { schema: withAsyncFlag(jsonSchema(route.body, 'input')) } } },
    }),
    ...(pathParameters(route.path).length > 0 && {
      parameters: pathParameters(route.path).map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
    }),
    responses,
  };
}

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  // OpenAPI 3.1 schemas are draft 2020-12 already; a `$schema` inside them is noise.
  const converted = { ...(z.toJSONSchema(schema, { io, target: 'draft-2020-12' }) as Record<string, unknown>) };
  delete converted.$schema;
  return converted;
}

/** Every POST operation also takes `async` and, with it, `callbackUrl`. */
function withAsyncFlag(body: Record<string, unknown>): Record<string, unknown> {
  const properties = (body.properties ?? {}) as Record<string, unknown>;
  return { ...body, properties: { ...properties, async: jsonSchema(asyncFlag, 'input'), callbackUrl: jsonSchema(callbackUrlField, 'input') } };
}

/** The Success envelope, with its `data` described when the route says what it holds. */
function successContent(description: string, data: z.ZodType | undefined): Record<string, unknown> {
  if (!data) return jsonContent(description, '#/components/schemas/Success');
  const schema = { allOf: [{ $ref: '#/components/schemas/Success' }, { type: 'object', properties: { data: jsonSchema(data, 'output') } }] };
  return { description, content: { 'application/json': { schema } } };
}

/** Hono's `/api/jobs/:id` is OpenAPI's `/api/jobs/{id}`. */
function openApiPath(routePath: string): string {
  return routePath.replace(/:(\w+)/g, '{$1}');
}

function pathParameters(routePath: string): string[] {
  return [...routePath.matchAll(/:(\w+)/g)].map((m) => m[1] as string);
}

function codesFor(status: number): string {
  return ERROR_CODES.filter((code) => STATUS_BY_CODE[code] === status).join(', ');
}

function jsonContent(description: string, ref: string): Record<string, unknown> {
  return { description, content: { 'application/json': { schema: { $ref: ref } } } };
}
