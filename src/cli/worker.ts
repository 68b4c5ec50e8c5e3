// `docwasm worker --queue redis://…`: runs the shared queue's async jobs, with the same engines,
// limits and --base-dir/--allow-dir confinement as the service, until SIGINT or SIGTERM (its
// running jobs then go back to the queue). It needs the paths its jobs name: on another
// machine, the same storage mounted at the same paths (docs/scaling-out.md).

import { ConfigError, configFromFlags, flagHelpLines, flagOptions, flagsFor } from '../config.js';
import { parseCommandLine } from '../command-line.js';
import { logEvent, logStart } from '../../core/log.js';
import { createRuntime } from '../operations/context.js';
import { openQueue } from '../queue/open-queue.js';
import { VERSION } from '../version.js';

const WORKER_FLAGS = flagsFor({ door: 'worker' });

export const WORKER_USAGE = `Usage: docwasm worker --queue redis://HOST:PORT [options]

Runs the async jobs of a shared queue that \`docwasm serve --queue\` accepts, on this machine;
it reads and writes the paths the jobs name, so it must see the same files as the service.
Every option also reads its environment variable.

Options:
${flagHelpLines(WORKER_FLAGS).join('\n')}
  --help                   show this help
`;

/** `args` are the arguments after `worker`; resolves once the worker is stopped. */
export async function runWorker(args: string[]): Promise<number> {
  const { values } = parseCommandLine({ args, allowPositionals: false, options: { help: { type: 'boolean', short: 'h' }, ...flagOptions(WORKER_FLAGS) } });
  if (values.help) {
    process.stdout.write(WORKER_USAGE);
    return 0;
  }
  const config = configFromFlags(values, WORKER_FLAGS);
  if (config.queue === undefined) throw new ConfigError('docwasm worker needs --queue redis://HOST:PORT (or DOCWASM_QUEUE): the queue whose jobs it runs');
  const runtime = await createRuntime(config);
  const queue = await openQueue(config.queue, config, runtime, { localWorker: true }).catch(async (err: unknown) => {
    await runtime.close();
    throw err;
  });
  logStart(`docwasm ${VERSION} worker running the jobs of ${queue.shown}`);
  const signal = await new Promise<string>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  logEvent(`docwasm: ${signal} received, giving the running jobs back to the queue`);
  await queue.close();
  await runtime.close();
  return 0;
}
