// `docwasm serve [flags]`: the HTTP JSON service, until SIGINT or SIGTERM.

import net from 'node:net';
import { ConfigError, configFromFlags, flagHelpLines, flagOptions, flagsFor, helpLine, type Config } from '../config.js';
import { ApiError } from '../../core/errors.js';
import { createService } from '../service.js';
import { VERSION } from '../version.js';
import { logEvent, logStart } from '../../core/log.js';
import { parseCommandLine } from '../command-line.js';
import { startWatchedFolder, WATCH_HELP_LINES, WATCH_OPTIONS } from './watch.js';

const SERVE_FLAGS = flagsFor({ door: 'serve' });

export const SERVE_USAGE = `Usage: docwasm [serve] [options]

Local HTTP JSON service: document conversion, PDF, image and OCR. Every option also reads
its environment variable; lists in env vars are joined by the OS path delimiter.

Options:
${flagHelpLines(SERVE_FLAGS).join('\n')}
  --help                   show this help
  --version                print the version

Watched folder (also served): every file that appears in DIR runs through a pipeline.
${helpLine('--watch DIR', 'the folder to watch; needs --steps and --out')}
${WATCH_HELP_LINES.join('\n')}
`;

/** `args` are the arguments after the command word. */
export async function serve(args: string[]): Promise<void> {
  const { values, positionals } = parseCommandLine({
    args,
    allowPositionals: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
      ...flagOptions(SERVE_FLAGS),
      watch: { type: 'string' },
      ...WATCH_OPTIONS,
    },
  });
  if (values.help) return void process.stdout.write(SERVE_USAGE);
  if (values.version) return void process.stdout.write(`${VERSION}\n`);
  if (positionals.length > 0) throw new ConfigError(`Unknown command "${positionals.join(' ')}"`);

  const config = configFromFlags(values, SERVE_FLAGS);
  refuseOpenNetworkWithoutToken(config);
  const service = await createService(config);
  const watcher = values.watch === undefined ? undefined : await startWatchedFolder(values.watch, values, service.context).catch(asConfigError);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logEvent(`docwasm: ${signal} received, shutting down`);
    (watcher ? watcher.close() : Promise.resolve())
      .then(() => service.close())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  watcher?.announce();

  const address = await service.listen().catch((err: unknown) => {
    throw listenError(err, config);
  });
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  logStart(`docwasm ${VERSION} listening on http://${host}:${address.port}`);
}

/** A taken port says which one, and how to choose another (not Node's `listen EADDRINUSE`). */
function listenError(err: unknown, { host, port }: Config): unknown {
  if ((err as NodeJS.ErrnoException | null)?.code !== 'EADDRINUSE') return err;
  return new ConfigError(
    `port ${port} on ${host} is taken: another program (perhaps another docwasm) listens there; choose another with --port N or DOCWASM_PORT=N`,
  );
}

/** A bad watch setting (steps that fail validation) is reported like a bad flag. */
function asConfigError(err: unknown): never {
  if (err instanceof ApiError) throw new ConfigError(`${err.code}: ${err.message}`);
  throw err;
}

/** Anyone who can reach a non-loopback address could read and write the user's files. */
function refuseOpenNetworkWithoutToken(config: Config): void {
  if (config.token || isLoopback(config.host)) return;
  throw new ConfigError(
    `Refusing to listen on ${config.host} without a token: any machine that can reach it could read and write your files. ` +
      'Set DOCWASM_TOKEN=<secret> in the environment (preferred: --token is visible to other users in the process list), or bind 127.0.0.1.',
  );
}

function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost') return true;
  if (net.isIPv4(bare)) return bare.startsWith('127.');
  return bare === '::1' || /^::ffff:127\./.test(bare);
}
