#!/usr/bin/env node
// `docwasm`: dispatches to the door asked for — `serve` (the default), `mcp`, `worker`, or a one-shot
// operation command (`docwasm pdf merge …`). Each door is loaded only when asked for, so a
// one-shot command does not pay for the HTTP stack; the CLI's own modules too, so that a service,
// `mcp`, `watch` (or an OCR one-shot command) started again with glibc's malloc settings
// (malloc-restart.ts) leaves a lean process behind.

import { endWithLauncher, oneShotWantsMallocSettings, restartedWithMallocSettings } from './malloc-restart.js';

const HELP_FLAGS = new Set(['--help', '-h']);

/** `docwasm`, `docwasm serve …` and `docwasm --port …` run the HTTP service. */
const isServe = (first: string | undefined): boolean => first === undefined || first === 'serve' || (first.startsWith('-') && !HELP_FLAGS.has(first));

/** Resolves with the exit status of a command that ends, or undefined for a server that keeps running. */
async function main(argv: string[]): Promise<number | undefined> {
  const [first, ...rest] = argv;
  if (first === undefined || isServe(first)) {
    const { serve } = await import('./serve.js');
    await serve(first === 'serve' ? rest : argv);
    return undefined;
  }
  const { groupMembers, matchOperation } = await import('./commands.js');
  const { groupHelp, topLevelHelp } = await import('./help.js');
  if (HELP_FLAGS.has(first)) return printed(topLevelHelp());
  if (first === 'watch') {
    const { runWatchCommand } = await import('./watch.js');
    return runWatchCommand(rest);
  }
  if (first === 'mcp') {
    const { runMcpServer } = await import('../mcp/server.js');
    return runMcpServer(rest);
  }
  if (first === 'worker') {
    const { runWorker } = await import('./worker.js');
    return runWorker(rest);
  }
  const match = matchOperation(argv);
  if (match) {
    const { runOneShot } = await import('./one-shot.js');
    return runOneShot(match.operation, match.rest);
  }
  if (groupMembers(first).length > 0) {
    if (rest.length === 0 || rest.some((arg) => HELP_FLAGS.has(arg))) return printed(groupHelp(first));
    throw new (await usageError())(`Unknown command "${first} ${rest[0]}"`, first);
  }
  throw new (await usageError())(`Unknown command "${first}"`);
}

function printed(text: string): number {
  process.stdout.write(text);
  return 0;
}

/** The command whose --help explains a bad command line: serve, mcp, watch or the operation's words. */
async function commandNamed(argv: readonly string[]): Promise<string | undefined> {
  if (isServe(argv[0])) return 'serve';
  if (argv[0] === 'mcp' || argv[0] === 'watch' || argv[0] === 'worker') return argv[0];
  const { commandOf, matchOperation } = await import('./commands.js');
  const match = matchOperation(argv);
  return match && commandOf(match.operation);
}

const usageError = async () => (await import('./usage-error.js')).UsageError;

async function reportFailure(err: unknown, argv: readonly string[]): Promise<number> {
  const code = (err as { code?: string })?.code;
  const UsageError = await usageError();
  const { ConfigError } = await import('../config.js');
  if (err instanceof UsageError || err instanceof ConfigError || code?.startsWith('ERR_PARSE_ARGS')) {
    const command = err instanceof UsageError ? err.command : await commandNamed(argv);
    process.stderr.write(`docwasm: ${(err as Error).message}\nRun \`docwasm ${command ? `${command} ` : ''}--help\` for the usage.\n`);
  } else {
    process.stderr.write(`docwasm: ${String((err as Error)?.stack ?? err)}\n`);
  }
  return 2;
}

/** The doors that run the engines in-process until stopped: started again with the malloc settings, and stopped with their launcher. */
const isLongRunning = (first: string | undefined): boolean => isServe(first) || first === 'mcp' || first === 'watch';

const argv = process.argv.slice(2);
if (!restartedWithMallocSettings(isLongRunning(argv[0]) || oneShotWantsMallocSettings(argv))) {
  if (isLongRunning(argv[0])) endWithLauncher();
  main(argv).then(
    (status) => {
      if (status === undefined) return;
      process.exitCode = status;
      // Everything was closed; should a library still hold the event loop, do not wait for it.
      setTimeout(() => process.exit(status), 2_000).unref();
    },
    (err: unknown) => reportFailure(err, argv).then((status) => process.exit(status)),
  );
}
