// The load scenario shared by the fast run (inside `npm test`) and the full-size slow run.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leftoverTempFiles, startService, type RunningService } from '../helpers/service.js';
import { recordFigures } from './figures.js';
import { writeFixtures } from './fixtures.js';
import { runLoad, unexpectedAnswers } from './load-run.js';
import { OPERATIONS } from './operations.js';
import { watchRss } from './proc.js';

export function describeLoad(total: number, concurrency: number, section: string): void {
  describe(`load: ${total} mixed requests at concurrency ${concurrency}`, () => {
    let service: RunningService;
    beforeAll(async () => {
      service = await startService();
      await writeFixtures(service.dir);
    });
    afterAll(() => service.stop());

    it('covers every POST endpoint the service documents in /openapi.json', async () => {
      const { body } = await service.get('/openapi.json');
      const paths = body.paths as Record<string, Record<string, unknown>>;
      const posts = Object.keys(paths).filter((p) => paths[p]?.post !== undefined);
      expect(posts.length).toBeGreaterThan(0);
      expect(posts.filter((p) => !OPERATIONS.some((o) => o.route === p))).toEqual([]);
    });

    it('answers every request with success (outputs on disk) or BUSY with Retry-After', async () => {
      // Warm every engine once so the figures measure the service, not first-use start-up.
      for (const op of OPERATIONS) expect((await service.post(op.route, op.body(`warm-${op.name}`))).body.success, op.name).toBe(true);
      const rss = watchRss(service.child.pid as number);
      const result = await runLoad(service, total, concurrency);
      const peakRssMb = rss.stop();
      const busy = result.answers.filter((a) => a.code === 'BUSY').length;
      const failures = unexpectedAnswers(result.answers);
      recordFigures(section, {
        requests: total,
        concurrency,
        succeeded: result.answers.filter((a) => a.status === 200).length,
        busy,
        failures: failures.length,
        wallSeconds: Math.round(result.wallMs) / 1000,
        requestsPerSecond: Math.round(result.requestsPerSecond * 10) / 10,
        peakRssMb: Math.round(peakRssMb),
        perOperation: result.perOperation,
      });
      expect(failures.map((f) => `${f.op} ${f.status} ${f.code ?? ''} ${String(f.body.error ?? f.body.message ?? '')}`)).toEqual([]);
      expect(result.answers).toHaveLength(total);
      // BUSY is allowed, but with the default queue bound a load this size must mostly succeed.
      expect(busy).toBeLessThan(total / 10);
      expect(leftoverTempFiles(service.dir)).toEqual([]);
    });

    it('is healthy afterwards', async () => {
      const { status, body } = await service.get('/api/health');
      expect(status).toBe(200);
      expect(body.success).toBe(true);
    });
  });
}
