// The one supervisor of engine instances (Gotenberg's ProcessSupervisor; docs/lifecycle.md):
// worker threads, installed offices and the WebAssembly office are all started, handed out,
// recycled, retired and stopped here. A backend only says how to start, stop and health-check
// one instance (`Process`); everything about *when* is decided once, below.
//
// The one state machine every former owner (EnginePool's generations, OfficeSlot,
// WasmOfficeBackend, and — inside its thread — WarmWorkers) wrote for itself, per seat:
//
//   stopped ──work waits (or warm())──▶ starting ──started──▶ ready ◀──given back──┐
//      ▲  ▲                               │                    │ taken             │
//      │  └─every attempt failed: backoff─┘                    ▼                   │
//      │    (START_BACKOFF_MS; waiting work refused            busy ──────────────┘
//      │     when no other instance lives)                     │ recycle due, asked to be
//      ├──────idle timeout / the budget needs room── ready     │ replaced, or found dead
//      └──────────────────────────────────────────────────────┘ (kept warm: started again)
//   any ──close()──▶ closed: waiting work gets the shutdown gate's BUSY, instances stopped.
//
// Work waits in one WaitLine (oldest first; a cancelled entry leaves at once); a seat starts
// only within the memory budget (memory-budget.ts admit: the least recently used idle engine
// retires first, then work waits with its limit counting, or TOO_LARGE); each seat has its own
// idle clock (IdleRetirement), so the least recently used idle instance retires first.

import { performance } from 'node:perf_hooks';
import type { ApiError } from '../../core/errors.js';
import { logEvent } from '../../core/log.js';
import { RecycleMeter, type RecycleLimits } from '../../core/recycle.js';
import { logEngineRetired, logEngineStarted, type EngineMemory } from './engine-events.js';
import { IdleRetirement } from './idle-retirement.js';
import { collectGarbageSoon } from './collect-garbage.js';
import type { MemoryBudget } from './memory-budget.js';
import { ShutdownGate } from './shutdown-gate.js';
import { WaitLine } from './wait-line.js';

/** After a start failed (every attempt), how long before another start is tried: the one backoff of every engine. */
export const START_BACKOFF_MS = 5_000;

/** An instance that ends this soon after it started, while idle, is not restarted at once (it would only crash again). */
const QUICK_EXIT_MS = 30_000;

/** What a backend tells its supervisor when it starts one instance. */
export interface StartContext {
  /** Which seat (0 … size−1): an installed office keeps its profile per seat. */
  seat: number;
  /** The seat's last instance was retired (idle, or for the budget): work is waiting and proves the new one. */
  afterRetirement: boolean;
  /** Fires when the supervisor closes: a start under way stops its instance and rejects. */
  signal: AbortSignal;
  /** The backend calls it when the instance ends by itself (a crash, a kill). */
  exited: () => void;
}

/** How to start, stop and health-check one engine instance (Gotenberg's `Process`). */
export interface Process<I> {
  /** Starts one instance, ready to work; rejects (with why) when it cannot. */
  start(context: StartContext): Promise<I>;
  /** Stops it, whatever it is doing; resolves once it is gone. */
  stop(instance: I): Promise<void>;
  /** False once it can no longer work (it died): it is not handed out again. */
  healthy(instance: I): boolean;
  /** Whose memory the start and retirement log lines measure. */
  memory(instance: I): EngineMemory;
}

export interface SupervisorOptions {
  /** The engine's name in the budget and health (`pdf`, `libreoffice`, `libreoffice-wasm`). */
  engine: string;
  /** Its name in the start and retirement log lines (`pdf workers`, `libreoffice office`). */
  label: string;
  /** Instances at most at once, each doing one piece of work at a time. */
  size: number;
  /** MB one instance may hold at its peak, in the memory budget. */
  costMb: number;
  budget?: MemoryBudget | undefined;
  /** An instance unused this long is stopped; undefined: never. */
  idleMs: number | undefined;
  /** Longest work waits for room in the memory budget (its time limit). */
  waitMs: number;
  /** When an instance is replaced by a fresh one (core/recycle.ts); work may also ask for it. */
  recycle?: RecycleLimits | undefined;
  /** Starts tried in a row before the start counts as failed. */
  startAttempts?: number | undefined;
  /** The error waiting work gets when no instance could be started. */
  startFailed: (reason: string) => ApiError;
  /** Offices stay warm: a replaced or crashed instance is started again at once, not with the next work. */
  keepWarm?: boolean | undefined;
  /** Names the engine in the shutdown's BUSY. */
  gateName?: string | undefined;
}

/** One use of an instance: the work may ask for the instance to be replaced after it. */
export interface Use {
  replace(): void;
}

type SeatState = 'stopped' | 'starting' | 'ready' | 'busy';

interface Seat<I> {
  index: number;
  state: SeatState;
  instance: I | undefined;
  /** The budget admitted this seat's start: it counts there from then on. */
  admitted: boolean;
  retired: boolean;
  meter: RecycleMeter;
  idle: IdleRetirement;
  readyAt: number;
  /** The instance's stop, awaited before the seat starts a new one (two offices never overlap). */
  stopping: Promise<void>;
}

interface Waiter<I> {
  grant: (seat: Seat<I>) => void;
  refuse: (err: unknown) => void;
}

export class Supervisor<I> {
  readonly gate: ShutdownGate;
  private readonly seats: Seat<I>[];
  private readonly line = new WaitLine<Waiter<I>>();
  private readonly closing = new AbortController();
  private readonly budgeted: { used(): void; changed(): void } | undefined;
  /** Starts are admitted by the budget one after another, so two cannot take the same room. */
  private admissions: Promise<unknown> = Promise.resolve();
  private backoffUntil = 0;
  private lastError = '';
  /** Jobs under way that hold instances between their pieces of work (a pool's job): the budget does not retire their engine. */
  private jobs = 0;

  constructor(
    private readonly process: Process<I>,
    private readonly options: SupervisorOptions,
  ) {
    this.gate = new ShutdownGate(options.gateName ?? options.engine);
    this.seats = Array.from({ length: options.size }, (_, index) => this.newSeat(index));
    this.budgeted = options.budget?.register({
      engine: options.engine,
      costMb: options.costMb,
      instances: () => this.instances,
      busy: () => this.jobs > 0 || this.line.size > 0 || this.seats.some((s) => s.state === 'busy' || s.state === 'starting'),
      retire: () => this.retireLeastRecentlyUsed(),
      state: () => this.state(),
    });
  }

  /** Instances running or admitted to start. */
  get instances(): number {
    return this.seats.filter((s) => s.state === 'ready' || s.state === 'busy' || (s.state === 'starting' && s.admitted)).length;
  }

  /** Health's word: `idle` (none running), `starting`, `ready` or `busy`. */
  state(): 'idle' | 'starting' | 'ready' | 'busy' {
    if (this.seats.some((s) => s.state === 'busy')) return 'busy';
    if (this.seats.some((s) => s.state === 'starting')) return 'starting';
    return this.seats.some((s) => s.state === 'ready') ? 'ready' : 'idle';
  }

  /** A job that will use instances for a while begins; returns its end. */
  begin(): () => void {
    this.jobs += 1;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.jobs -= 1;
      this.budgeted?.changed();
    };
  }

  /**
   * Runs `work` on an instance of its own: waits in line (oldest first) until one is free,
   * starting one within the budget when fewer than `size` run. Rejects with the shutdown's
   * BUSY, the budget's or the start's error, or `signal.reason` when the signal fires first.
   */
  async run<T>(signal: AbortSignal | undefined, work: (instance: I, use: Use) => Promise<T>): Promise<T> {
    this.gate.admit();
    const seat = await this.take(signal);
    let replace = false;
    this.budgeted?.used();
    const end = seat.idle.begin();
    try {
      return await work(seat.instance as I, { replace: () => (replace = true) });
    } finally {
      end();
      this.giveBack(seat, replace);
    }
  }

  /** Resolves once an instance runs (starting one, within the budget, if none does): a job's time limit starts after its engine has loaded. */
  async ready(signal: AbortSignal | undefined): Promise<void> {
    if (this.seats.some((s) => s.state === 'ready' || s.state === 'busy')) return;
    await this.run(signal, async () => undefined);
  }

  /** Starts an instance in the background if none runs (the service's start): work finds it warm. Waits for no room. */
  warm(): void {
    if (this.gate.isClosed || this.seats.some((s) => s.state !== 'stopped')) return;
    const seat = this.seats[0];
    if (seat && Date.now() >= this.backoffUntil) void this.startSeat(seat);
  }

  async close(): Promise<void> {
    this.gate.close();
    this.closing.abort();
    for (const waiting of this.line.takeAll()) waiting.item.refuse(this.gate.error());
    await Promise.all(
      this.seats.map((seat) => {
        seat.idle.close();
        const instance = seat.instance;
        seat.instance = undefined;
        seat.state = 'stopped';
        return Promise.all([seat.stopping, instance !== undefined && this.process.stop(instance)]);
      }),
    );
  }

  private take(signal: AbortSignal | undefined): Promise<Seat<I>> {
    return new Promise((grant, refuse) => {
      this.line.join({ item: { grant, refuse }, signal, withdrawn: () => refuse(signal?.reason) });
      this.pump();
    });
  }

  /** Hands ready instances to waiting work (most recently used first, so the least recently used stays idle), then starts seats for what still waits. */
  private pump(): void {
    if (this.gate.isClosed) return;
    while (this.line.size > 0) {
      const seat = this.readySeat();
      if (!seat) break;
      if (!this.process.healthy(seat.instance as I)) {
        this.drop(seat);
        continue;
      }
      const next = this.line.takeNext();
      if (!next) break;
      seat.state = 'busy';
      next.item.grant(seat);
    }
    this.startForWaiting();
  }

  private readySeat(): Seat<I> | undefined {
    const ready = this.seats.filter((s) => s.state === 'ready');
    return ready.sort((a, b) => b.idle.lastEnded - a.idle.lastEnded)[0];
  }

  private startForWaiting(): void {
    const starting = this.seats.filter((s) => s.state === 'starting').length;
    let needed = this.line.size - starting;
    if (needed <= 0) return;
    if (Date.now() < this.backoffUntil) {
      if (!this.anyLive()) this.refuseWaiting(this.options.startFailed(this.lastError));
      return;
    }
    for (const seat of this.seats) {
      if (needed <= 0) break;
      if (seat.state !== 'stopped') continue;
      needed -= 1;
      void this.startSeat(seat);
    }
  }

  private anyLive(): boolean {
    return this.seats.some((s) => s.state !== 'stopped');
  }

  private refuseWaiting(err: unknown): void {
    for (const waiting of this.line.takeAll()) waiting.item.refuse(err);
  }

  /** Starts one seat's instance: within the budget, tried `startAttempts` times, then backoff. */
  private async startSeat(seat: Seat<I>): Promise<void> {
    seat.state = 'starting';
    try {
      await seat.stopping;
      if (!(await this.admitted(seat))) return;
      const attempts = this.options.startAttempts ?? 1;
      for (let attempt = 1; attempt <= attempts && !this.gate.isClosed; attempt++) {
        if (await this.attemptStart(seat, attempt, attempts)) return;
      }
      if (this.gate.isClosed) return;
      seat.state = 'stopped';
      this.backoffUntil = Date.now() + START_BACKOFF_MS;
      if (!this.anyLive()) this.refuseWaiting(this.options.startFailed(this.lastError));
    } finally {
      seat.admitted = false;
      if (seat.state === 'starting') seat.state = 'stopped';
      this.budgeted?.changed();
      this.pump();
    }
  }

  /** Waits for the budget's room (work waiting: up to its limit; a warm-up: none). False when refused (waiting work answered with why). */
  private async admitted(seat: Seat<I>): Promise<boolean> {
    const budget = this.options.budget;
    seat.admitted = !budget;
    if (!budget) return true;
    const waitMs = this.line.size > 0 ? this.options.waitMs : 0;
    const admission = this.admissions.then(() => budget.admit(this.options.engine, { signal: this.closing.signal }, waitMs));
    this.admissions = admission.catch(() => undefined);
    try {
      await admission;
      seat.admitted = true;
      return !this.gate.isClosed;
    } catch (err) {
      seat.state = 'stopped';
      if (!this.anyLive()) this.refuseWaiting(this.gate.isClosed ? this.gate.error() : err);
      return false;
    }
  }

  private async attemptStart(seat: Seat<I>, attempt: number, attempts: number): Promise<boolean> {
    const begun = performance.now();
    let instance: I | undefined;
    const exited = () => this.onExit(seat, instance);
    try {
      instance = await this.process.start({ seat: seat.index, afterRetirement: seat.retired, signal: this.closing.signal, exited });
    } catch (err) {
      this.lastError = err instanceof Error ? err.message : String(err);
      if (!this.gate.isClosed) logEvent(`docwasm ${this.options.engine}: start ${attempt} of ${attempts} failed: ${this.lastError}`);
      return false;
    }
    if (this.gate.isClosed) {
      await this.process.stop(instance);
      return true;
    }
    Object.assign(seat, { instance, state: 'ready', retired: false, readyAt: Date.now(), meter: new RecycleMeter(this.options.recycle ?? {}) });
    this.backoffUntil = 0;
    logEngineStarted(this.options.label, performance.now() - begun, this.process.memory(instance));
    // A fresh instance counts as a use just ended: unused, it retires after the idle timeout.
    seat.idle.begin()();
    return true;
  }

  private giveBack(seat: Seat<I>, replace: boolean): void {
    if (seat.state !== 'busy') return; // closed, or dropped while it worked
    const instance = seat.instance as I;
    const due = seat.meter.record({ failed: replace }) || !this.process.healthy(instance);
    if (!due) {
      seat.state = 'ready';
    } else {
      this.drop(seat);
      if (this.options.keepWarm) void this.startSeat(seat);
    }
    this.budgeted?.changed();
    this.pump();
  }

  /** The seat's instance stops (it is not given out again); the seat may start a new one once it is gone. */
  private drop(seat: Seat<I>): void {
    const instance = seat.instance;
    seat.instance = undefined;
    seat.state = 'stopped';
    if (instance !== undefined) seat.stopping = this.process.stop(instance).catch(() => undefined);
  }

  /** An instance ended by itself: a ready one is dropped and, kept warm, started again unless it keeps dying right after its start. */
  private onExit(seat: Seat<I>, instance: I | undefined): void {
    if (instance === undefined || seat.instance !== instance || seat.state !== 'ready' || this.gate.isClosed) return;
    this.drop(seat);
    if (this.options.keepWarm && Date.now() - seat.readyAt > QUICK_EXIT_MS) void this.startSeat(seat);
    this.budgeted?.changed();
  }

  /** Idle retirement of one seat (after `idleMs`; undefined: for the memory budget, whose line says so). */
  private retire(seat: Seat<I>, idleMs: number | undefined): boolean {
    if (seat.state !== 'ready' || this.gate.isClosed) return false;
    if (idleMs !== undefined) logEngineRetired(this.options.label, idleMs, this.process.memory(seat.instance as I));
    this.drop(seat);
    if (idleMs !== undefined) collectGarbageSoon();
    seat.retired = true;
    this.budgeted?.changed();
    return true;
  }

  /** The memory budget needs room: the idle instance used least recently stops. */
  private retireLeastRecentlyUsed(): void {
    const ready = this.seats.filter((s) => s.state === 'ready').sort((a, b) => a.idle.lastEnded - b.idle.lastEnded);
    const oldest = ready[0];
    if (oldest) this.retire(oldest, undefined);
  }

  private newSeat(index: number): Seat<I> {
    const seat: Seat<I> = {
      index,
      state: 'stopped',
      instance: undefined,
      admitted: false,
      retired: false,
      meter: new RecycleMeter({}),
      readyAt: 0,
      stopping: Promise.resolve(),
      // Waits while work is waiting for this engine: a ready instance is about to be taken.
      idle: new IdleRetirement(
        this.options.idleMs,
        (idleMs) => this.retire(seat, idleMs),
        () => this.line.size > 0 || this.jobs > 0,
      ),
    };
    return seat;
  }
}
