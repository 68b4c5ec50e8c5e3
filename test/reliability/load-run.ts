// Sends a mix of every operation at a fixed concurrency and collects what came back.

import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { ApiResponse, RunningService } from '../helpers/service.js';
import { latencySummary } from './figures.js';
import { OPERATIONS, type Operation } from './operations.js';

export interface LoadAnswer {
  op: string;
  status: number;
  code: string | undefined;
  ms: number;
  retryAfter: string | null;
  /** Every file the answer says it wrote exists and is not empty. */
  outputsPresent: boolean;
  body: ApiResponse['body'];
}

export interface LoadResult {
  answers: LoadAnswer[];
  wallMs: number;
  requestsPerSecond: number;
  perOperation: Record<string, { n: number; p50: number; p95: number; max: number }>;
}

export async function runLoad(
  service: RunningService,
  total: number,
  concurrency: number,
  operations: readonly Operation[] = OPERATIONS,
  tag = 'load',
): Promise<LoadResult> {
  const answers: LoadAnswer[] = [];
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < total) {
      const i = next++;
      const op = operations[i % operations.length] as Operation;
      const t = performance.now();
      const response = await service.post(op.route, op.body(`${tag}-${i}`));
      const ms = performance.now() - t;
      answers.push({
        op: op.name,
        status: response.status,
        code: response.body.code,
        ms,
        retryAfter: response.headers.get('retry-after'),
        outputsPresent: outputsOf(response.body).every((file) => (fs.statSync(file, { throwIfNoEntry: false })?.size ?? 0) > 0),
        body: response.body,
      });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const wallMs = performance.now() - started;
  const perOperation: LoadResult['perOperation'] = {};
  for (const op of new Set(answers.map((a) => a.op))) {
    perOperation[op] = latencySummary(answers.filter((a) => a.op === op && a.status === 200).map((a) => a.ms));
  }
  return { answers, wallMs, requestsPerSecond: (answers.length / wallMs) * 1000, perOperation };
}

/** The files a successful answer claims: outputPath (a file) or data.files / batch results. */
export function outputsOf(body: ApiResponse['body']): string[] {
  if (body.success !== true) return [];
  const data = body.data ?? {};
  if (Array.isArray(data.files)) return data.files as string[];
  if (Array.isArray(data.results)) return (data.results as { outputPath?: string }[]).flatMap((r) => (r.outputPath ? [r.outputPath] : []));
  return typeof body.outputPath === 'string' ? [body.outputPath] : [];
}

/** Answers that are neither a success nor BUSY-with-Retry-After. */
export function unexpectedAnswers(answers: readonly LoadAnswer[]): LoadAnswer[] {
  return answers.filter((a) => {
    if (a.status === 200) return a.body.success !== true || !a.outputsPresent;
    return !(a.status === 503 && a.code === 'BUSY' && a.retryAfter !== null);
  });
}
