import { describe, expect, it } from 'vitest';
import { createApp, type AppSecurity } from '../../src/http/app.js';
import { MAX_BODY_BYTES } from '../../src/http/guards/json-body.js';
import { acceptedHosts } from '../../src/http/guards/host.js';
import { allowedOrigins } from '../../src/http/guards/origin.js';
import type { Route } from '../../src/http/route.js';
import { z } from 'zod';

const PORT = 19873;
const HOST = `127.0.0.1:${PORT}`;

/** An app with one POST route that records every body it was handed. */
function appWith(security: Partial<AppSecurity> = {}) {
  const handled: unknown[] = [];
  const hosts = acceptedHosts('127.0.0.1', PORT);
  const route: Route = {
    method: 'POST',
    path: '/api/echo',
    summary: 'echo',
    tag: 'Test',
    body: z.object({}),
    handle: async (body) => (handled.push(body), { message: 'ran' }),
  };
  const app = createApp([route], { hosts, origins: allowedOrigins(hosts, ['https://app.example']), token: undefined, ...security });
  const post = (body: string, headers: Record<string, string> = {}) =>
    app.request('/api/echo', { method: 'POST', body, headers: { host: HOST, 'content-type': 'application/json', ...headers } });
  return { app, handled, post };
}

async function refusal(response: Response): Promise<[number, string | undefined]> {
  const body = (await response.json()) as { success: boolean; code?: string };
  expect(body.success).toBe(false);
  return [response.status, body.code];
}

describe('HTTP guards', () => {
  it('lets a well-formed request through to the route', async () => {
    const { post, handled } = appWith();
    const response = await post('{"a":1}');
    expect(response.status).toBe(200);
    expect(handled).toEqual([{ a: 1 }]);
  });

  it('refuses a Host the service was not bound as (DNS rebinding) with FORBIDDEN_HOST', async () => {
    const { post, handled } = appWith();
    expect(await refusal(await post('{}', { host: `evil.example:${PORT}` }))).toEqual([403, 'FORBIDDEN_HOST']);
    expect(handled).toEqual([]);
  });

  it('accepts localhost and [::1] on the bound port', async () => {
    const { post } = appWith();
    for (const host of [`localhost:${PORT}`, `[::1]:${PORT}`]) expect((await post('{}', { host })).status, host).toBe(200);
  });

  it('refuses an Origin not allowed with FORBIDDEN_ORIGIN, and accepts an allowed one', async () => {
    const { post, handled } = appWith();
    expect(await refusal(await post('{}', { origin: 'https://evil.example' }))).toEqual([403, 'FORBIDDEN_ORIGIN']);
    expect(handled).toEqual([]);
    expect((await post('{}', { origin: 'https://app.example' })).status).toBe(200);
    expect((await post('{}', { origin: `http://${HOST}` })).status).toBe(200);
  });

  it('with a token, refuses a missing or wrong bearer with UNAUTHORIZED and WWW-Authenticate', async () => {
    const { post, handled } = appWith({ token: 's3cret' });
    for (const authorization of [undefined, 'Bearer wrong', 's3cret']) {
      const response = await post('{}', authorization ? { authorization } : {});
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      expect(await refusal(response), String(authorization)).toEqual([401, 'UNAUTHORIZED']);
    }
    expect(handled).toEqual([]);
    expect((await post('{}', { authorization: 'Bearer s3cret' })).status).toBe(200);
  });

  it('refuses a body that is not application/json with UNSUPPORTED_CONTENT_TYPE', async () => {
    const { post, handled } = appWith();
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data']) {
      expect(await refusal(await post('{}', { 'content-type': type })), type).toEqual([415, 'UNSUPPORTED_CONTENT_TYPE']);
    }
    expect(handled).toEqual([]);
    expect((await post('{}', { 'content-type': 'Application/JSON; charset=utf-8' })).status).toBe(200);
  });

  it('refuses a body over 1 MiB with PAYLOAD_TOO_LARGE', async () => {
    const { post, handled } = appWith();
    expect(await refusal(await post(`{"pad":"${'x'.repeat(MAX_BODY_BYTES)}"}`))).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    expect(handled).toEqual([]);
  });

  it('refuses a body that is not a JSON object with INVALID_JSON', async () => {
    const { post, handled } = appWith();
    for (const body of ['{"a":', '[1,2]', '"text"', 'null', '']) expect(await refusal(await post(body)), body).toEqual([400, 'INVALID_JSON']);
    expect(handled).toEqual([]);
  });

  it('answers METHOD_NOT_ALLOWED with Allow for a known path, NOT_FOUND for others', async () => {
    const { app } = appWith();
    const get = await app.request('/api/echo', { headers: { host: HOST } });
    expect(get.headers.get('allow')).toBe('POST');
    expect(await refusal(get)).toEqual([405, 'METHOD_NOT_ALLOWED']);
    expect(await refusal(await app.request('/api/nothing', { headers: { host: HOST } }))).toEqual([404, 'NOT_FOUND']);
  });
});
