// A pipeline's progress: steps × items, where a step's items are its operation's own (an OCR
// step over a 6-page scan counts 6, a compress step 1), so the job moves as the pages are read
// rather than once a whole step ends. Each run of a step (one per file, or one for a step that
// takes every file) weighs 1 until its operation announces a total; runs not yet started weigh 1
// each, by the plan's count of files, recounted when a step has made its files. `done` and
// `total` only grow (docs/api.md "Long work").

import type { OperationContext } from '../operations/operation.js';
import type { PlannedStep } from './plan.js';

type Report = OperationContext['progress'];

/** One run of a step: its operation's own progress. */
export interface StepRunProgress {
  update(done: number, total: number): void;
  done(): void;
}

interface RunState {
  done: number;
  weight: number;
}

export class ChainProgress {
  /** Runs each step is expected to make (index: step number − 1). */
  private readonly expected: number[];
  private readonly started: number[];
  private readonly running = new Map<string, RunState>();
  private finished = 0;
  private shown = { done: 0, total: 0 };

  constructor(
    private readonly steps: readonly PlannedStep[],
    inputs: number,
    private readonly report: Report,
  ) {
    this.expected = expectedRuns(steps, 0, inputs);
    this.started = steps.map(() => 0);
    this.emit();
  }

  /** A run of step `number` (from 1) begins; `index` tells it from the step's other runs. */
  startRun(number: number, index: number): StepRunProgress {
    const key = `${number}:${index}`;
    const state: RunState = { done: 0, weight: 1 };
    this.started[number - 1] = (this.started[number - 1] ?? 0) + 1;
    this.running.set(key, state);
    return {
      update: (done, total) => {
        if (this.running.get(key) !== state) return;
        state.weight = Math.max(state.weight, total);
        state.done = Math.max(state.done, Math.min(done, state.weight));
        this.emit();
      },
      done: () => {
        if (!this.running.delete(key)) return;
        this.finished += state.weight;
        this.emit();
      },
    };
  }

  /** Step `number` made `items` files: the steps after it are recounted over them. */
  stepDone(number: number, items: number): void {
    const later = expectedRuns(this.steps, number, items);
    for (let i = number; i < this.steps.length; i++) this.expected[i] = later[i - number] as number;
    this.emit();
  }

  private emit(): void {
    let done = this.finished;
    let total = this.finished;
    for (const run of this.running.values()) {
      done += run.done;
      total += run.weight;
    }
    this.expected.forEach((runs, i) => (total += Math.max(0, runs - (this.started[i] ?? 0))));
    // A recount to fewer files would shrink the total: the figures shown only grow.
    const shown = { done: Math.max(this.shown.done, done), total: Math.max(this.shown.total, total, done) };
    if (shown.done === this.shown.done && shown.total === this.shown.total) return;
    this.shown = shown;
    this.report?.(shown.done, shown.total);
  }
}

/** Runs of the steps from index `from` on, fed `items` files: one for a step that takes them all (which then makes one), one a file otherwise. */
function expectedRuns(steps: readonly PlannedStep[], from: number, items: number): number[] {
  let files = items;
  return steps.slice(from).map((step) => {
    const runs = step.takesMany ? 1 : files;
    if (step.takesMany) files = 1;
    return runs;
  });
}
