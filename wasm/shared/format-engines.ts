// The engine workers' half of the format registry (core/input-formats.ts is the table, and
// src/formats/registry.ts the service's half): the input formats declared with code of their own
// that runs in the workers (`ownCode.engine`), each behind one face, `wasm/<kind>/format.ts`,
// found by the kind's name — no list here to add to. The reader worker reads them as Markdown or
// text, the PDF worker draws them; the service names the format (decided once, by content),
// never a task of its own. A face is loaded when first used, and loads its own parts the same
// way, so no worker loads another's engine (the reader worker never loads mupdf).

import { INPUT_FORMATS } from '../../core/input-formats.js';
import type { PackageLimits } from '../read/package.js';
import type { FormatEngine } from './format-engine.js';

/** Whether a kind is read by an engine of its own (not by the reader worker's block readers). */
export const hasFormatEngine = (kind: string): boolean => INPUT_FORMATS.some((f) => f.kind === kind && f.ownCode?.engine === true);

/** The engine of a kind the service judged to be one of these; anything else is a fault of the caller. */
export function formatEngine(kind: string): FormatEngine {
  if (!hasFormatEngine(kind)) throw new Error(`No engine of its own reads ${kind}`);
  return {
    markdown: async (...args) => (await faceOf(kind)).markdown(...args),
    text: async (...args) => (await faceOf(kind)).text(...args),
    pdf: async (...args) => (await faceOf(kind)).pdf(...args),
  };
}

/** A declared kind's face, by its name (the table's word, checked above, never a caller's path). */
async function faceOf(kind: string): Promise<FormatEngine> {
  const module = (await import(/* @vite-ignore */ `../${kind}/format.js`)) as { engine?: FormatEngine };
  if (!module.engine) throw new Error(`wasm/${kind}/format.ts exports no engine`);
  return module.engine;
}

/** Bytes a package may decompress to, and its entries: the limits every format's engine reads with. */
export const packageLimits = (maxPackageBytes: number): PackageLimits => ({ maxTotalBytes: maxPackageBytes, maxEntries: 20_000 });
