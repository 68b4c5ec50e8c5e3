// GET /openapi.json: an OpenAPI 3.1 document built from the same zod schemas that validate.

import { z } from 'zod';
import { ERROR_CODES, STATUS_BY_CODE } from '../errors.js';
import type { GetRoute, Route } from './route.js';
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
  },
};

const errorSchema = {
  type: 'object',
  required: ['success', 'error', 'code'],
  properties: { success: { const: false }, error: { type: 'string' }, code: { enum: ERROR_CODES } },
};

export function openApiRoute(routes: readonly Route[]): GetRoute {
  const document = buildDocument(routes);
  return { method: 'GET', path: '/openapi.json', summary: 'This OpenAPI document', raw: true, handle: () => document };
}

function buildDocument(routes: readonly Route[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operation(route) };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'docwasm', version: VERSION, description: 'Local document, PDF, image and OCR service. Errors list their codes in components.schemas.Error.' },
    servers: [{ url: 'http://127.0.0.1:19873' }],
    paths,
    components: {
      schemas: { Success: successSchema, Error: errorSchema },
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'Only when the service runs with --token' } },
    },
  };
}

function operation(route: Route): Record<string, unknown> {
  const errorStatuses = [...new Set(Object.values(STATUS_BY_CODE))].sort();
  const responses: Record<string, unknown> = { '200': jsonContent('Success', '#/components/schemas/Success') };
  for (const status of errorStatuses) responses[String(status)] = jsonContent(codesFor(status), '#/components/schemas/Error');
  return {
    summary: route.summary,
    ...(route.method === 'POST' && {
      requestBody: { required: true, content: { 'application/json': { schema: z.toJSONSchema(route.body, { io: 'input', target: 'draft-2020-12' }) } } },
    }),
    responses,
  };
}

function codesFor(status: number): string {
  return ERROR_CODES.filter((code) => STATUS_BY_CODE[code] === status).join(', ');
}

function jsonContent(description: string, ref: string): Record<string, unknown> {
  return { description, content: { 'application/json': { schema: { $ref: ref } } } };
}
