// The test files that take longest in `npm test` (seconds each on 2 cores, measured alone with
// --maxWorkers=1 on a quiet machine, or from a full run), longest first. The sequencer starts
// them first so that the run does not end with one of them running alone while the other worker
// idles; on a machine with vitest's cache of a previous run, the cached durations order the rest.
// Keep it roughly current: a file missing here only starts later, nothing fails.

export const LONG_FILES: readonly string[] = [
  'test/documents/convert.test.ts',
  'test/documents/wasm-doors.test.ts',
  'test/documents/wasm-lifecycle.test.ts',
  'test/documents/wasm-office.test.ts',
  'test/documents/containment.test.ts',
  'test/reliability/faults.test.ts',
  'test/packaging/tarball.test.ts',
  'test/documents/supervision.test.ts',
  'test/reliability/hostile.test.ts',
  'test/reliability/idle-memory.test.ts',
  'test/cli/cli.test.ts',
  'test/ocr/ocr-lifetime.test.ts',
  'test/operations/read.test.ts',
  'test/ocr/paddle.test.ts',
  'test/ocr/paddle-text.test.ts',
  'test/http/keep-alive.test.ts',
  'test/reliability/security.test.ts',
  'test/pdf/damaged-messages.test.ts',
  'test/security/non-regular-inputs.test.ts',
  'test/operations/read-pdf-tables.test.ts',
  'test/documents/isolation.test.ts',
  'test/operations/read-shapes.test.ts',
];
