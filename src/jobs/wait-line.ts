// Things waiting their turn, oldest first: the one waiting mechanism of docwasm. Tasks waiting
// for a worker thread (engine-pool.ts), files waiting for an office (src/documents/waiting-files.ts)
// and a watch folder's files waiting for a lane (src/watch/watcher.ts) all wait in a WaitLine.
// An entry whose signal fires leaves the line at once and is told so (`withdrawn`): a cancelled
// request or a stopped watcher never leaves work behind in a queue that no one will serve.

export interface Waiting<T> {
  item: T;
  /** When it fires, the entry leaves the line and `withdrawn` runs. */
  signal?: AbortSignal | undefined;
  withdrawn?: ((item: T) => void) | undefined;
}

interface Entry<T> extends Waiting<T> {
  onAbort: () => void;
}

export class WaitLine<T> {
  private entries: Entry<T>[] = [];

  get size(): number {
    return this.entries.length;
  }

  /** Joins at the end (or `first`, a taken item that must wait again); withdrawn at once if its signal already fired. */
  join(waiting: Waiting<T>, first = false): void {
    if (waiting.signal?.aborted) return void waiting.withdrawn?.(waiting.item);
    const entry: Entry<T> = { ...waiting, onAbort: () => this.withdraw(entry) };
    waiting.signal?.addEventListener('abort', entry.onAbort, { once: true });
    if (first) this.entries.unshift(entry);
    else this.entries.push(entry);
  }

  /** The oldest entry, out of the line (its signal no longer withdraws it). */
  takeNext(): Waiting<T> | undefined {
    const entry = this.entries.shift();
    if (entry) forget(entry);
    return entry;
  }

  /** Every entry, out of the line, oldest first (shutdown). */
  takeAll(): Waiting<T>[] {
    const all = this.entries.splice(0);
    all.forEach(forget);
    return all;
  }

  has(item: T): boolean {
    return this.entries.some((entry) => entry.item === item);
  }

  private withdraw(entry: Entry<T>): void {
    const at = this.entries.indexOf(entry);
    if (at < 0) return;
    this.entries.splice(at, 1);
    entry.withdrawn?.(entry.item);
  }
}

function forget<T>(entry: Entry<T>): void {
  entry.signal?.removeEventListener('abort', entry.onAbort);
}
