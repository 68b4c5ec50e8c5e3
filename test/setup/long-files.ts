// The test files that take longest in `npm test`, longest first (by their seconds in the last
// full run, both cores busy, from vitest's cache; less what was since moved out or merged). The
// sequencer starts them first so that the run does not end with one of them running alone while
// the other worker idles; on a machine with vitest's cache of a previous run, the cached durations
// order the rest. Keep it roughly current: a file missing here only starts later, nothing fails.

export const LONG_FILES: readonly string[] = [
  'test/documents/containment.test.ts',
  'test/ocr/paddle.test.ts',
  'test/reliability/faults.test.ts',
  'test/documents/convert.test.ts',
  'test/documents/supervision.test.ts',
  'test/reliability/hostile.test.ts',
  'test/documents/wasm-doors.test.ts',
  'test/cli/cli.test.ts',
  'test/packaging/tarball.test.ts',
  'test/documents/wasm-lifecycle.test.ts',
  'test/documents/wasm-office.test.ts',
  'test/security/output-swap.test.ts',
  'test/documents/convert-password.test.ts',
  'test/documents/paper.test.ts',
  'test/documents/wasm-cjk-pages.test.ts',
  'test/documents/wasm-office-limits.test.ts',
  'test/operations/editable.test.ts',
  'test/ocr/paddle-text.test.ts',
  'test/pipeline/watch.test.ts',
  'test/pdf/damaged-messages.test.ts',
  'test/pipeline/watch-trust.test.ts',
  'test/pdf/tools-api.test.ts',
  'test/http/keep-alive.test.ts',
  'test/operations/read-pdf-stream.test.ts',
  'test/reliability/idle-memory.test.ts',
  'test/reliability/shutdown.test.ts',
  'test/ocr/ocr.test.ts',
  'test/operations/read-hostile.test.ts',
  'test/pdf/compress.test.ts',
  'test/operations/read.test.ts',
  'test/reliability/security.test.ts',
  'test/scans/ocr-pdf.test.ts',
  'test/mcp/mcp.test.ts',
  'test/documents/isolation.test.ts',
  'test/pdf/pdf.test.ts',
  'test/documents/idle.test.ts',
];
