// Benchmark harness: each suite returns cases; the runner interleaves our request with the
// native tool a user would otherwise run, and records medians, ratios and peak memory.

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import type { RunningService } from '../helpers/service.js';

export interface BenchCase {
  group: string;
  name: string;
  ours: () => Promise<void>;
  native?: { tool: string; run: () => Promise<void> };
  iterations?: number;
  /**
   * Untimed calls before the timed ones (default 1, which starts the engines). A row about a
   * steady stream of small jobs (a batch of invoices) warms for longer: a fresh worker runs code
   * it has not run before in V8's interpreter for its first few tens of calls.
   */
  warmups?: number;
  /** The median the issue asks for; the table says whether it was met. */
  targetMs?: number;
  /** The process whose memory to sample, when the case runs on a service of its own. */
  servicePid?: number;
  /** The case runs a process of its own (a one-shot command): its peak resident memory (kB) stands for the service's. */
  ownPeakKb?: () => number;
}

export interface BenchContext {
  service: RunningService;
  /** A scratch directory inside the service's base dir. */
  work: string;
  /** Registers cleanup to run after every case has run (a second service, say). */
  onFinish: (cleanup: () => Promise<void>) => void;
}

export type BenchSuite = (ctx: BenchContext) => Promise<BenchCase[]>;

/** Peak resident memory of native commands run since the last `takeNativePeakKb()`. */
let nativePeakKb = 0;

export function takeNativePeakKb(): number {
  const peak = nativePeakKb;
  nativePeakKb = 0;
  return peak;
}

/** Runs a native tool; rejects unless it exits 0. Samples its resident memory while it runs. */
export function runCommand(cmd: string, args: readonly string[], options: { cwd?: string } = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'], cwd: options.cwd });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const sampler = setInterval(() => {
      if (child.pid) nativePeakKb = Math.max(nativePeakKb, treeRssKb(child.pid));
    }, 20);
    child.once('error', (err) => {
      clearInterval(sampler);
      reject(err);
    });
    child.once('exit', (code) => {
      clearInterval(sampler);
      if (code === 0) resolve();
      else reject(new Error(`${cmd} exited ${code}: ${stderr.slice(0, 500)}`));
    });
  });
}

/** Resident memory of a process and its children (kB), from /proc. */
export function treeRssKb(pid: number): number {
  return sumOverTree(pid, (p) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0));
}

/**
 * Proportional resident memory of a process and its children (kB): pages two of them share (the
 * node binary of a launcher and of the service it started) are counted once across the tree.
 */
export function treePssKb(pid: number): number {
  return sumOverTree(pid, (p) => Number(/Pss:\s+(\d+)/.exec(readFileSync(`/proc/${p}/smaps_rollup`, 'utf8'))?.[1] ?? 0));
}

function sumOverTree(pid: number, measure: (pid: number) => number): number {
  let total = 0;
  const visit = (p: number) => {
    try {
      total += measure(p);
      const children = readFileSync(`/proc/${p}/task/${p}/children`, 'utf8').trim();
      for (const child of children ? children.split(/\s+/) : []) visit(Number(child));
    } catch {
      /* the process ended while we looked */
    }
  };
  visit(pid);
  return total;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Posts and fails loudly when the service answers an error: a benchmark of errors means nothing. */
export async function postOk(service: RunningService, route: string, body: unknown): Promise<void> {
  const response = await service.post(route, body);
  if (response.status !== 200 || response.body.success !== true) {
    throw new Error(`${route} failed: ${response.status} ${JSON.stringify(response.body)}`);
  }
}

/** The line above each table a bench writes into docs: when, on what, under what load. */
export function runLine(): string {
  const cpus = os.cpus();
  const load = os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');
  return `Last run: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${cpus.length} × ${cpus[0]?.model ?? 'CPU'}, Node ${process.version}, load average ${load} (1 / 5 / 15 min) when written.`;
}
