// The in-process layer: operations called through the core — the same validation and `run`
// every door uses — with no spawned service and no HTTP. The built modules (dist/, made by
// `npm test` before vitest) are loaded so the engines find their compiled worker files.

import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as ConfigModule from '../../src/config.js';
import type * as ContextModule from '../../src/operations/context.js';
import type * as IndexModule from '../../src/operations/index.js';
import type * as InvokeModule from '../../src/operations/invoke.js';
import type { Envelope, SuccessEnvelope } from '../../src/operations/envelope.js';
import type { Engines } from '../../src/engines/engines.js';
import { removeAtEnd } from '../helpers/cleanup.js';
import { ROOT, tempDir } from '../helpers/service.js';

const built = <T>(module: string): Promise<T> => import(pathToFileURL(path.join(ROOT, 'dist/src', module)).href) as Promise<T>;

export interface InProcess {
  /** The base dir: relative paths in requests resolve here. */
  dir: string;
  /** Writes a file into the base dir and answers its name. */
  put(name: string, bytes: Buffer | Uint8Array | string): string;
  /** Absolute path of a name in the base dir. */
  at(name: string): string;
  /** Runs operation `id` (its HTTP path after /api/) on a request body; answers the envelope. */
  run(id: string, body: Record<string, unknown>, progress?: (done: number, total: number) => void): Promise<Envelope>;
  /** Like run, but fails the test unless the operation succeeded. */
  ok(id: string, body: Record<string, unknown>): Promise<SuccessEnvelope>;
  /** The runtime's engines, for a test to watch the calls an operation makes to them. */
  engines: Engines;
  close(): Promise<void>;
}

/** A runtime with `flags` as `serve` would take them; its base dir is a fresh temp dir. */
export async function inProcess(flags: Record<string, string | string[]> = {}): Promise<InProcess> {
  const [{ resolveConfig }, { createRuntime }, { OPERATIONS }, { invokeOperation }] = await Promise.all([
    built<typeof ConfigModule>('config.js'),
    built<typeof ContextModule>('operations/context.js'),
    built<typeof IndexModule>('operations/index.js'),
    built<typeof InvokeModule>('operations/invoke.js'),
  ]);
  const dir = removeAtEnd(tempDir('docwasm-ops-'));
  const runtime = await createRuntime(resolveConfig({ 'base-dir': dir, ...flags }, {}));
  const run = (id: string, body: Record<string, unknown>, progress?: (done: number, total: number) => void) => {
    const operation = OPERATIONS.find((o) => o.id === id);
    if (!operation) throw new Error(`no operation ${id}`);
    return invokeOperation(operation, body, { ...runtime, progress });
  };
  return {
    dir,
    put: (name, bytes) => {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), bytes);
      return name;
    },
    at: (name) => path.join(dir, name),
    run,
    ok: async (id, body) => {
      const envelope = await run(id, body);
      if (!envelope.success) throw new Error(`${id} failed: ${JSON.stringify(envelope)}`);
      return envelope as SuccessEnvelope;
    },
    engines: runtime.engines,
    close: () => runtime.close(),
  };
}

/** The contract code of a failed envelope (undefined on success), for `expect(...).toBe(CODE)`. */
export const codeOf = (envelope: Envelope): string | undefined => ('code' in envelope ? envelope.code : undefined);
