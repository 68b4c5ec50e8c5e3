// One memory budget (contract v0.5, --memory-budget): the engines' instances — worker threads
// and offices — start, stay warm and retire within it. Each engine declares what one of its
// instances costs and how many it runs now; before it starts one more it asks `admit`. Room is
// made by retiring the least recently used idle engine (idle retirement's own stop, early); a job
// that still cannot fit waits, its time limit counting, until an engine finishes or retires; an
// engine whose one instance costs more than the whole budget answers TOO_LARGE.
//
// The budget is kept on the engines' declared costs, not on the resident size measured at the
// moment: memory is committed when an instance starts, long before it is resident (an office's
// start, a PP-OCR detection), and a measurement cannot refuse what has already started. Health
// shows both: the declared costs in use and the process tree's resident size.

import { ApiError } from '../../core/errors.js';
import { logEvent } from '../../core/log.js';
import { treeResidentBytes } from '../../core/process-stat.js';
import type { JobControl } from './policy.js';
import { CancelledError } from '../../core/job-errors.js';
import { startDeadline } from '../../core/deadline.js';

/** What the budget knows of one engine; its owner (a worker pool, an office backend) answers. */
export interface BudgetedEngine {
  engine: string;
  /** MB one instance may hold at its peak (the figures and their sources: docs/lifecycle.md, "One memory budget"). */
  costMb: number;
  /** Instances running now (threads, office processes). */
  instances(): number;
  /** Work under way or waiting for it (jobs, queued files, a start): such an engine is not retired. */
  busy(): boolean;
  /** Stops the engine's least recently used idle instance now, as its idle retirement would. */
  retire(): void;
  /** Health's word for it: 'idle' (no instance), 'ready' or 'busy'. */
  state(): string;
}

export interface MemoryHealth {
  budgetMb: number;
  /** Declared costs of the instances running now. */
  committedMb: number;
  /** Resident size of the service's process tree (main process, engine threads, offices). */
  residentMb: number;
  engines: { engine: string; instances: number; state: string; costMb: number }[];
}

interface Entry {
  engine: BudgetedEngine;
  lastUsed: number;
}

export class MemoryBudget {
  private readonly entries = new Map<string, Entry>();
  private readonly waiting = new Set<() => void>();
  private clock = 0;

  constructor(readonly budgetMb: number) {}

  /** An engine joins the budget; the answer marks its use and tells the budget when its work ends. */
  register(engine: BudgetedEngine): { used(): void; changed(): void } {
    const entry: Entry = { engine, lastUsed: 0 };
    this.entries.set(engine.engine, entry);
    return {
      used: () => (entry.lastUsed = ++this.clock),
      changed: () => this.wake(),
    };
  }

  /**
   * Resolves once `engine` may start one more instance within the budget, retiring idle engines
   * (least recently used first) to make room; waits for room at most `waitMs`, or until `control`
   * is cancelled. TOO_LARGE when one instance alone is more than the budget.
   */
  async admit(name: string, control: JobControl, waitMs: number): Promise<void> {
    const entry = this.entries.get(name);
    if (!entry) return;
    entry.lastUsed = ++this.clock;
    const { costMb } = entry.engine;
    if (costMb > this.budgetMb) {
      throw new ApiError(
        'TOO_LARGE',
        `The ${name} engine needs about ${costMb} MB, more than the whole memory budget of ${this.budgetMb} MB (--memory-budget)`,
      );
    }
    // The wait's own limit, in the one deadline form; its signal also carries the caller's cancel.
    const deadline = startDeadline(name, waitMs, control);
    const retired = new Set<Entry>();
    while (this.committedMb() + costMb > this.budgetMb) {
      if (this.retireLeastRecentlyUsed(entry, retired)) continue;
      if (control.signal?.aborted) throw new CancelledError();
      const left = deadline.at - Date.now();
      if (left <= 0) {
        throw new ApiError(
          'TIMEOUT',
          `The ${name} engine waited ${Math.round(waitMs / 1000)} s for memory within the budget of ${this.budgetMb} MB (--memory-budget); every engine stayed busy`,
        );
      }
      await this.changeOrTimeout(left, deadline.signal);
    }
  }

  health(): MemoryHealth {
    const engines = [...this.entries.values()].map(({ engine }) => ({
      engine: engine.engine,
      instances: engine.instances(),
      state: engine.state(),
      costMb: engine.costMb,
    }));
    const resident = treeResidentBytes(process.pid) || process.memoryUsage.rss();
    return { budgetMb: this.budgetMb, committedMb: this.committedMb(), residentMb: Math.round(resident / (1024 * 1024)), engines };
  }

  private committedMb(): number {
    let sum = 0;
    for (const { engine } of this.entries.values()) sum += engine.costMb * engine.instances();
    return sum;
  }

  /**
   * Retires an idle instance of the engine used longest ago (not `asking`); an engine whose
   * instances did not drop is not asked again within one admission. False when none is idle.
   */
  private retireLeastRecentlyUsed(asking: Entry, retired: Set<Entry>): boolean {
    const idle = [...this.entries.values()]
      .filter((e) => e !== asking && !retired.has(e) && e.engine.instances() > 0 && !e.engine.busy())
      .sort((a, b) => a.lastUsed - b.lastUsed);
    const oldest = idle[0];
    if (!oldest) return false;
    const before = oldest.engine.instances();
    oldest.engine.retire();
    const stopped = before - oldest.engine.instances();
    if (stopped <= 0) {
      retired.add(oldest);
      return true;
    }
    logEvent(
      `docwasm ${oldest.engine.engine}: retired to make room for ${asking.engine.engine} within the memory budget of ${this.budgetMb} MB (${stopped} instance(s), about ${stopped * oldest.engine.costMb} MB)`,
    );
    return true;
  }

  private wake(): void {
    for (const resolve of this.waiting) resolve();
    this.waiting.clear();
  }

  private changeOrTimeout(ms: number, signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        this.waiting.delete(done);
        resolve();
      };
      // Also a second's poll: an instance that ends by itself (a crash) may tell no one.
      const timer = setTimeout(done, Math.min(ms, 1000));
      signal?.addEventListener('abort', done, { once: true });
      this.waiting.add(done);
    });
  }
}
