// Webhooks: when an async job that gave a `callbackUrl` ends, its GET /api/jobs/{id} body is
// POSTed there, signed (`X-Docwasm-Signature: sha256=<hex HMAC-SHA256 of the raw body>`, keyed
// by --webhook-secret) and named (`X-Docwasm-Job`). Only hosts --webhook-allow names (default:
// loopback) may be called, checked when the job is submitted, so that a local service cannot
// be used to reach other hosts; a redirect is never followed. A failed try (no 2xx within 10 s)
// is tried again after 1, 4, 15 and 40 s: five tries over about a minute.

import { createHmac } from 'node:crypto';
import net from 'node:net';
import { ApiError } from '../../core/errors.js';
import type { CallbackState, JobView } from '../jobs/registry.js';
import { jobEnvelope } from '../operations/envelope.js';
import type { OperationResult } from '../operations/operation.js';

export interface WebhookSettings {
  webhookSecret: string | undefined;
  /** `host` or `host:port` entries; empty: loopback addresses only. */
  webhookAllow: string[];
}

/** Seconds before each try after the first. */
const RETRY_DELAYS_MS = [1_000, 4_000, 15_000, 40_000];
const ATTEMPT_TIMEOUT_MS = 10_000;

export class Webhooks {
  constructor(
    private readonly settings: WebhookSettings,
    private readonly retryDelaysMs: readonly number[] = RETRY_DELAYS_MS,
  ) {}

  /** Throws VALIDATION_ERROR for a URL that is not http(s) or whose host is not allowed. */
  check(url: string): void {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new ApiError('VALIDATION_ERROR', `Invalid request: callbackUrl: not a URL: ${url}`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      throw new ApiError('VALIDATION_ERROR', `Invalid request: callbackUrl: must be http or https, got ${parsed.protocol}`);
    if (!this.allows(parsed))
      throw new ApiError(
        'VALIDATION_ERROR',
        `Invalid request: callbackUrl: host ${parsed.host} is not allowed; the service calls back only hosts named by --webhook-allow (default: loopback)`,
      );
  }

  /** Calls back a finished job that asked for it, with its GET /api/jobs/{id} body; once per job, the caller sees to that. */
  async deliverJob(job: JobView<OperationResult>, record: (state: CallbackState) => void | Promise<void>): Promise<void> {
    if (job.callback === undefined) return;
    await this.deliver(job.jobId, job.callback.url, JSON.stringify(jobEnvelope(job)), record);
  }

  /** POSTs `body` to `url` until a try succeeds or the tries run out; `record` hears of each try. */
  async deliver(jobId: string, url: string, body: string, record: (state: CallbackState) => void | Promise<void>): Promise<CallbackState> {
    const state: CallbackState = { url, attempts: 0, delivered: false };
    for (let attempt = 0; attempt <= this.retryDelaysMs.length; attempt += 1) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, this.retryDelaysMs[attempt - 1]));
      const problem = await this.tryOnce(jobId, url, body);
      state.attempts += 1;
      state.delivered = problem === undefined;
      if (problem === undefined) delete state.lastError;
      else state.lastError = problem;
      await record({ ...state });
      if (state.delivered) break;
    }
    return state;
  }

  /** One POST; answers what went wrong, or undefined when the receiver answered 2xx. */
  private async tryOnce(jobId: string, url: string, body: string): Promise<string | undefined> {
    const headers: Record<string, string> = { 'content-type': 'application/json', 'x-docwasm-job': jobId };
    if (this.settings.webhookSecret) headers['x-docwasm-signature'] = signature(this.settings.webhookSecret, body);
    try {
      const response = await fetch(url, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS) });
      await response.body?.cancel();
      if (response.status >= 200 && response.status < 300) return undefined;
      if (response.status >= 300 && response.status < 400) return `answered ${response.status} (a redirect, not followed)`;
      return `answered ${response.status}`;
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause?.code;
      return (err as Error).name === 'TimeoutError' ? `no answer within ${ATTEMPT_TIMEOUT_MS / 1000} s` : `not reached (${cause ?? (err as Error).message})`;
    }
  }

  private allows(url: URL): boolean {
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
    const port = url.port || (url.protocol === 'https:' ? '443' : '80');
    if (this.settings.webhookAllow.length === 0) return isLoopback(host);
    return this.settings.webhookAllow.some((entry) => {
      // host, host:port, [v6] or [v6]:port
      const [, allowedHost = '', allowedPort] =
        /^\[?([^\]]*?)\]?(?::(\d+))?$/.exec(entry.includes(':') && !entry.includes('[') && entry.split(':').length > 2 ? `[${entry}]` : entry) ?? [];
      return allowedHost.toLowerCase() === host && (allowedPort === undefined || allowedPort === port);
    });
  }
}

export function signature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  if (net.isIPv4(host)) return host.startsWith('127.');
  return host === '::1';
}
