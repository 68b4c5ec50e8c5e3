// POST bodies: only `application/json` (browsers send `text/plain` cross-site without a
// preflight), at most 1 MiB, and a JSON object.

import { createMiddleware } from 'hono/factory';
import { bodyLimit } from 'hono/body-limit';
import { ApiError } from '../../../core/errors.js';
import type { AppEnv } from '../env.js';

export const MAX_BODY_BYTES = 1024 * 1024;

export const jsonContentType = createMiddleware<AppEnv>(async (c, next) => {
  const essence = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  if (essence !== 'application/json') {
    throw new ApiError('UNSUPPORTED_CONTENT_TYPE', 'Send the request body as Content-Type: application/json');
  }
  await next();
});

const tooLarge = () => new ApiError('PAYLOAD_TOO_LARGE', `Request body is larger than ${MAX_BODY_BYTES} bytes`);

/** Counts a body sent without a length (chunked) as it arrives. */
const countingLimit = bodyLimit({
  maxSize: MAX_BODY_BYTES,
  onError: () => {
    throw tooLarge();
  },
});

/**
 * A declared length is checked without touching the body: hono's bodyLimit reads
 * `request.body`, which makes @hono/node-server build a whole web Request and pass the body
 * through a web stream (~0.3 ms a request) instead of reading it straight off the socket.
 */
export const jsonBodyLimit = createMiddleware<AppEnv>(async (c, next) => {
  const length = c.req.header('content-length');
  if (length === undefined || c.req.header('transfer-encoding') !== undefined) return countingLimit(c, next);
  if (Number.parseInt(length, 10) > MAX_BODY_BYTES) throw tooLarge();
  await next();
});

export async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await request.text());
  } catch {
    throw new ApiError('INVALID_JSON', 'Request body is not valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ApiError('INVALID_JSON', 'Request body must be a JSON object');
  }
  return parsed as Record<string, unknown>;
}
