// The engine workers' half of the format registry (core/input-formats.ts is the table, and
// src/formats/registry.ts the service's half): the input formats whose engine code is a folder of
// its own in wasm/, each behind one face. The reader worker reads them as Markdown or text, the
// PDF worker draws them; the service names the format (decided once, by content), never a task
// of its own. Each format's face loads its code when first used, so no worker loads another's
// engine (the reader worker never loads mupdf).

import type { PackageLimits } from '../read/package.js';
import type { FormatEngine } from './format-engine.js';
import { ofdEngine } from '../ofd/engine.js';

/** Input kind (core/input-formats.ts `kind`) → its engine: one line per format. */
const FORMAT_ENGINES: Readonly<Record<string, FormatEngine>> = {
  ofd: ofdEngine,
};

/** The engine of a kind the service judged to be one of these; anything else is a fault of the caller. */
export function formatEngine(kind: string): FormatEngine {
  const engine = Object.hasOwn(FORMAT_ENGINES, kind) ? FORMAT_ENGINES[kind] : undefined;
  if (!engine) throw new Error(`No engine of its own reads ${kind}`);
  return engine;
}

/** Whether a kind is read by an engine of its own (not by the reader worker's block readers). */
export const hasFormatEngine = (kind: string): boolean => Object.hasOwn(FORMAT_ENGINES, kind);

/** Bytes a package may decompress to, and its entries: the limits every format's engine reads with. */
export const packageLimits = (maxPackageBytes: number): PackageLimits => ({ maxTotalBytes: maxPackageBytes, maxEntries: 20_000 });
