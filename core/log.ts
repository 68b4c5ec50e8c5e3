// The service's log: one line per event, each starting with an ISO-8601 timestamp, from the
// doors, the engines and their worker threads alike. Events go to stderr; the start report
// goes to stdout beside the "listening on" line it precedes. Never file contents, never bodies.
// What the command line tells its user (`docwasm: CODE: message`, progress) is not a log and
// keeps its own format (src/cli).

/** One event on stderr. */
export function logEvent(message: string): void {
  process.stderr.write(stamped(message));
}

/** A line of the start report on stdout. */
export function logStart(message: string): void {
  process.stdout.write(stamped(message));
}

/** A failure nobody expected, with its stack: the answer the user gets hides it. */
export function logInternalError(context: string, err: unknown): void {
  logEvent(`docwasm: ${context}: ${String((err as Error | undefined)?.stack ?? err)}`);
}

function stamped(message: string): string {
  return `${new Date().toISOString()} ${message}\n`;
}
