// The numbers a reliability run measured, one JSON file per section under .reliability/;
// report.ts gathers them into reliability-results.json and prints the README figures.

import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../helpers/service.js';

export const FIGURES_DIR = path.join(ROOT, '.reliability');

export function recordFigures(section: string, figures: Record<string, unknown>): void {
  fs.mkdirSync(FIGURES_DIR, { recursive: true });
  const file = path.join(FIGURES_DIR, `${section}.json`);
  fs.writeFileSync(file, `${JSON.stringify({ section, at: new Date().toISOString(), ...figures }, null, 2)}\n`);
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] as number;
}

export function latencySummary(ms: readonly number[]): { n: number; p50: number; p95: number; max: number } {
  const sorted = [...ms].sort((a, b) => a - b);
  return { n: sorted.length, p50: Math.round(percentile(sorted, 50)), p95: Math.round(percentile(sorted, 95)), max: Math.round(sorted.at(-1) ?? NaN) };
}
