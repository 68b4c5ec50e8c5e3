// Process warnings fail the test file that caused them: a warning (MaxListenersExceededWarning,
// a deprecation, an unhandled-rejection notice) is a defect users see on their terminal or in
// the service log. Two sources are watched: this test process's own 'warning' events (in-process
// tests), and the stderr of every service a test spawns (Node prints its warnings there as
// "(node:PID) SomeWarning: …"). The per-file setup checks after each test and after the file.

const NODE_WARNING = /^\(node:\d+\) (?:\[\w+\] )?\w*Warning: .*$/gm;

const ownWarnings: string[] = [];
const watched = new Map<string, { stderr: () => string; seen: number }>();

/** Starts collecting this process's warnings (once per test file). */
export function collectProcessWarnings(): void {
  process.on('warning', (warning) => ownWarnings.push(`${warning.name}: ${warning.message}`));
}

/** Watches a spawned process's stderr for Node warnings; `name` says which process in the failure. */
export function watchStderrForWarnings(name: string, stderr: () => string): void {
  watched.set(name, { stderr, seen: 0 });
}

/** Throws when a warning appeared since the last call, naming each. */
export function failOnNewWarnings(): void {
  const found = ownWarnings.splice(0).map((w) => `this test process: ${w}`);
  for (const [name, entry] of watched) {
    const text = entry.stderr();
    const fresh = text.slice(entry.seen);
    entry.seen = text.length;
    for (const match of fresh.matchAll(NODE_WARNING)) found.push(`${name}: ${match[0]}`);
  }
  if (found.length > 0) throw new Error(`Process warning(s) during the test:\n${found.join('\n')}`);
}
