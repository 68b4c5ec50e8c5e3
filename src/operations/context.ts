// The context operations run in, for any door: the configured engines (started on first use)
// and the path policy. The door adds its caller's job control (cancel signal, progress).

import type { Config } from '../config.js';
import { Engines } from '../engines/engines.js';
import { createPathPolicy } from '../files/paths.js';
import { removeAllTempFiles } from '../files/staging.js';
import type { OperationContext } from './operation.js';

export interface Runtime extends OperationContext {
  /** Stops the engines and removes any temp file left by interrupted jobs. */
  close(): Promise<void>;
}

export async function createRuntime(config: Config): Promise<Runtime> {
  const paths = await createPathPolicy(config.baseDir, config.allowDirs, config.maxInputBytes);
  const engines = new Engines(config);
  return {
    engines,
    paths,
    config,
    close: async () => {
      await engines.close();
      removeAllTempFiles();
    },
  };
}
