#!/usr/bin/env node
// `docwasm [serve] [flags]`: starts the service; `--help`, `--version`.

import net from 'node:net';
import { parseArgs } from 'node:util';
import { ConfigError, FLAGS, resolveConfig, type Config } from '../config.js';
import { createService } from '../service.js';
import { VERSION } from '../version.js';

const USAGE = `Usage: docwasm [serve] [options]

Local HTTP JSON service: document conversion, PDF, image and OCR. Every option also reads
its environment variable; lists in env vars are joined by the OS path delimiter.

Options:
${FLAGS.map((f) => `  --${`${f.flag} ${f.kind === 'engine' ? 'NAME' : f.kind === 'string' || f.kind === 'list' ? 'VALUE' : 'N'}`.padEnd(24)} ${f.description}${f.repeatable ? '' : ''} [${f.env}]`).join('\n')}
  --help                   show this help
  --version                print the version
`;

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
      ...Object.fromEntries(FLAGS.map((f) => [f.flag, { type: 'string' as const, multiple: Boolean(f.repeatable) }])),
    },
  });
  const command = positionals[0] ?? 'serve';
  if (values.help) return void process.stdout.write(USAGE);
  if (values.version) return void process.stdout.write(`${VERSION}\n`);
  if (command !== 'serve' || positionals.length > 1) throw new ConfigError(`Unknown command "${positionals.join(' ')}"`);

  const config = resolveConfig(values as Record<string, string | string[] | undefined>, process.env);
  refuseOpenNetworkWithoutToken(config);
  const service = await createService(config);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`docwasm: ${signal} received, shutting down\n`);
    service.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  const address = await service.listen();
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  process.stdout.write(`docwasm ${VERSION} listening on http://${host}:${address.port}\n`);
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

main(process.argv.slice(2)).catch((err: unknown) => {
  const known = err instanceof ConfigError || (err as { code?: string })?.code?.startsWith('ERR_PARSE_ARGS');
  const inUse = (err as { code?: string })?.code === 'EADDRINUSE';
  process.stderr.write(`docwasm: ${known || inUse ? (err as Error).message : String((err as Error)?.stack ?? err)}\n${known ? 'Run docwasm --help for the options.\n' : ''}`);
  process.exit(2);
});
