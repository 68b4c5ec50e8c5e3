// Things waiting their turn, oldest first: the one line of work waiting for an engine instance.
// Tasks waiting for a worker thread and files waiting for an office (src/documents/waiting-files.ts)
// all wait in the supervisor's WaitLine (items waiting for a lane are src/jobs/bounded.ts's).
// An entry whose signal fires leaves the line at once and is told so (`withdrawn`): a cancelled
// request or a stopped watcher never leaves work behind in a queue that no one will serve.

export interface Waiting<T> {
  item: T;
  /** When it fires, the entry leaves the line and `withdrawn` runs. */
  signal?: AbortSignal | undefined;
  withdrawn?: ((item: T) => void) | undefined;
}

/** The entries waiting on one signal, and the one listener they share on it. */
interface SignalGroup<T> {
  entries: Set<Waiting<T>>;
  onAbort: () => void;
}

export class WaitLine<T> {
  private entries: Waiting<T>[] = [];
  // One abort listener per signal, not per entry: a request's hundred files or a document's pages
  // share one signal, and a listener each would pile up (MaxListenersExceededWarning at 11).
  private readonly groups = new Map<AbortSignal, SignalGroup<T>>();

  get size(): number {
    return this.entries.length;
  }

  /** Joins at the end (or `first`, a taken item that must wait again); withdrawn at once if its signal already fired. */
  join(waiting: Waiting<T>, first = false): void {
    const { signal } = waiting;
    if (signal?.aborted) return void waiting.withdrawn?.(waiting.item);
    const entry = { ...waiting };
    if (signal) this.groupOf(signal).entries.add(entry);
    if (first) this.entries.unshift(entry);
    else this.entries.push(entry);
  }

  /** The oldest entry, out of the line (its signal no longer withdraws it). */
  takeNext(): Waiting<T> | undefined {
    const entry = this.entries.shift();
    if (entry) this.forget(entry);
    return entry;
  }

  /** Every entry, out of the line, oldest first (shutdown). */
  takeAll(): Waiting<T>[] {
    const all = this.entries.splice(0);
    for (const entry of all) this.forget(entry);
    return all;
  }

  has(item: T): boolean {
    return this.entries.some((entry) => entry.item === item);
  }

  private groupOf(signal: AbortSignal): SignalGroup<T> {
    let group = this.groups.get(signal);
    if (!group) {
      const created: SignalGroup<T> = { entries: new Set(), onAbort: () => this.withdraw(signal, created) };
      signal.addEventListener('abort', created.onAbort, { once: true });
      this.groups.set(signal, created);
      group = created;
    }
    return group;
  }

  /** The signal fired: its entries leave the line, in line order, each told. */
  private withdraw(signal: AbortSignal, group: SignalGroup<T>): void {
    this.groups.delete(signal);
    const leaving = this.entries.filter((entry) => group.entries.has(entry));
    this.entries = this.entries.filter((entry) => !group.entries.has(entry));
    for (const entry of leaving) entry.withdrawn?.(entry.item);
  }

  /** An entry out of the line: its group shrinks, and a group left empty stops listening. */
  private forget(entry: Waiting<T>): void {
    const group = entry.signal && this.groups.get(entry.signal);
    if (!group || !entry.signal) return;
    group.entries.delete(entry);
    if (group.entries.size > 0) return;
    entry.signal.removeEventListener('abort', group.onAbort);
    this.groups.delete(entry.signal);
  }
}
