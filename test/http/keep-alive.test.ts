// Keep-alive (docs/http-runtime.md): the service advertises `Keep-Alive: timeout=5` and a client
// that reuses its connection within that time always gets its answer: at gaps just below, at
// and above the timeout, after a slower program blocked the client, while the service itself is
// stalled past its idle close, and while a slow job is in flight. Slowness is made by
// construction (SIGSTOP of the service, spawnSync of `sleep` in the client), never by load.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderText, ENGLISH_TEXT } from '../helpers/ocr-images.js';
import { openConnection, type RawConnection } from '../helpers/raw-connection.js';
import { startService, type RunningService } from '../helpers/service.js';

/** What the service advertises, and how long it really keeps an idle connection (src/http/keep-alive.ts). */
const ADVERTISED_MS = 5_000;
const IDLE_CLOSE_MS = 15_000;

// The gaps and stalls below take ~25 s per test; an OCR engine starting under load adds more.
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface AgentAnswer {
  status: number;
  reused: boolean;
  keepAlive: string | undefined;
  body: Record<string, unknown>;
}

/** One request through `agent`, saying whether it went over a reused connection. */
function viaAgent(agent: http.Agent, port: number, route: string, body?: unknown): Promise<AgentAnswer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers = payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) };
    const request = http.request({ agent, host: '127.0.0.1', port, path: route, method: payload === undefined ? 'GET' : 'POST', headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => {
        const keepAlive = response.headers['keep-alive'] as string | undefined;
        resolve({ status: response.statusCode ?? 0, reused: request.reusedSocket, keepAlive, body: JSON.parse(text) as Record<string, unknown> });
      });
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(payload);
  });
}

async function fetchStatus(url: string): Promise<number> {
  const response = await fetch(url);
  await response.arrayBuffer();
  return response.status;
}

async function rawHealth(connection: RawConnection, port: number): Promise<number> {
  connection.send(`GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
  return (await connection.nextAnswer()).status;
}

describe('reusing a kept-alive connection', () => {
  let service: RunningService;
  // Short request limits, so that every gap and stall below is many times them.
  beforeAll(async () => (service = await startService(['--headers-timeout', '1'], { DOCWASM_REQUEST_TIMEOUT: '2' })));
  afterAll(async () => {
    await service.stop();
    fs.rmSync(service.dir, { recursive: true, force: true });
  });

  it('answers at gaps just below, at and above the advertised timeout (raw connection, http.Agent, fetch), and closes an idle one only after the idle limit', async () => {
    const gaps = [ADVERTISED_MS - 500, ADVERTISED_MS, ADVERTISED_MS + 500, ADVERTISED_MS + 3_000];
    const raw = await openConnection(service.port);
    const idle = await openConnection(service.port);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      expect(await rawHealth(idle, service.port)).toBe(200);
      const idleSince = performance.now();
      const idleClosedAfter = idle.closed.then(() => performance.now() - idleSince);

      const rawClient = async () => {
        const statuses = [await rawHealth(raw, service.port)];
        for (const gap of gaps) {
          await sleep(gap);
          statuses.push(await rawHealth(raw, service.port));
        }
        return statuses;
      };
      const agentClient = async () => {
        const first = await viaAgent(agent, service.port, '/api/health');
        expect(first.keepAlive).toBe('timeout=5');
        const answers = [];
        for (const gap of gaps) {
          await sleep(gap);
          const answer = await viaAgent(agent, service.port, '/api/health');
          answers.push(`${answer.status} ${answer.reused ? 'reused' : 'new'}`);
        }
        return answers;
      };
      const fetchClient = async () => {
        const statuses = [await fetchStatus(`${service.baseUrl}/api/health`)];
        for (const gap of gaps) {
          await sleep(gap);
          statuses.push(await fetchStatus(`${service.baseUrl}/api/health`));
        }
        return statuses;
      };

      const [rawStatuses, agentAnswers, fetchStatuses] = await Promise.all([rawClient(), agentClient(), fetchClient()]);
      expect(rawStatuses).toEqual([200, 200, 200, 200, 200]);
      // An http.Agent without a `timeout` option ignores the hint and reuses at every gap.
      expect(agentAnswers).toEqual(gaps.map(() => '200 reused'));
      expect(fetchStatuses).toEqual([200, 200, 200, 200, 200]);

      // Timers never fire early: the idle connection lives at least the idle limit, then closes.
      const closedAfter = await Promise.race([idleClosedAfter, sleep(IDLE_CLOSE_MS * 2).then(() => Infinity)]);
      expect(closedAfter).toBeGreaterThanOrEqual(IDLE_CLOSE_MS);
      expect(closedAfter).toBeLessThan(IDLE_CLOSE_MS * 2);
    } finally {
      raw.destroy();
      idle.destroy();
      agent.destroy();
    }
  }, 120_000);

  it('answers a fetch client whose event loop a slower program blocked past the advertised timeout', async () => {
    expect(await fetchStatus(`${service.baseUrl}/api/health`)).toBe(200);
    // Lets undici put the connection back in its pool before the block.
    await sleep(200);
    // As in the report: a program run synchronously between two requests. undici's own idle
    // timer cannot run meanwhile, so it reuses the connection at once, 7 s after the last answer.
    spawnSync('sleep', ['7']);
    expect(await fetchStatus(`${service.baseUrl}/api/health`)).toBe(200);
  });

  it('answers requests sent in time, and a slow job in flight, while the service is stalled past its idle limit (SIGSTOP)', async () => {
    const image = path.join(service.dir, 'page.png');
    fs.writeFileSync(image, await renderText(ENGLISH_TEXT));
    const pid = service.child.pid as number;
    const raw = await openConnection(service.port);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const jobAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    let stopped = false;
    try {
      expect(await rawHealth(raw, service.port)).toBe(200);
      expect((await viaAgent(agent, service.port, '/api/health')).status).toBe(200);
      expect((await viaAgent(jobAgent, service.port, '/api/health')).status).toBe(200);
      await sleep(ADVERTISED_MS - 1_500);

      // The slow job: its request has reached the service (a later request on another
      // connection was answered), then the service stops, past every timeout it has.
      const job = viaAgent(jobAgent, service.port, '/api/ocr', { input: 'page.png', language: 'eng' });
      expect(await fetchStatus(`${service.baseUrl}/api/health`)).toBe(200);
      process.kill(pid, 'SIGSTOP');
      stopped = true;
      await sleep(500);

      // Sent within the advertised timeout, read only after the service's idle timers expired.
      const rawAnswer = rawHealth(raw, service.port);
      const agentAnswer = viaAgent(agent, service.port, '/api/health');
      const fetchAnswer = fetchStatus(`${service.baseUrl}/api/health`);
      await sleep(IDLE_CLOSE_MS + 2_000);
      process.kill(pid, 'SIGCONT');
      stopped = false;

      // Settled together, so that one failure does not leave the others unhandled.
      const outcomes = await Promise.allSettled([rawAnswer, agentAnswer, fetchAnswer, job]);
      const [rawStatus, agentOutcome, fetchOutcome, jobAnswer] = outcomes.map((outcome) =>
        outcome.status === 'fulfilled' ? outcome.value : String(outcome.reason),
      );
      expect(rawStatus).toBe(200);
      expect(agentOutcome).toMatchObject({ status: 200, reused: true });
      expect(fetchOutcome).toBe(200);
      expect(jobAnswer).toMatchObject({ status: 200, reused: true, body: { text: expect.stringMatching(/best of times/) } });
      // The connection that carried the slow job is reusable after it.
      expect(await viaAgent(jobAgent, service.port, '/api/health')).toMatchObject({ status: 200, reused: true });
    } finally {
      if (stopped) process.kill(pid, 'SIGCONT');
      raw.destroy();
      agent.destroy();
      jobAgent.destroy();
      fs.rmSync(image, { force: true });
    }
  }, 120_000);
});
