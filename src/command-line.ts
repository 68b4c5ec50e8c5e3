// Every command line (serve, watch, mcp, the one-shot commands) is read by node:util's
// parseArgs; its errors are said here in docwasm's words, as ConfigErrors (exit 2, pointing at
// the command's --help). An unknown option names the known
// one it may mean, as an unknown request field does (`unknown option --qualty; did you mean
// --quality?`), instead of Node's text about positional arguments after `--`.

import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError } from './config.js';
import { closestName } from '../core/closest-name.js';

/** parseArgs, strict, its errors as ConfigErrors. */
export function parseCommandLine<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs<T>({ strict: true, ...config });
  } catch (err) {
    if (!isParseError(err)) throw err;
    throw new ConfigError(usageMessage(err, Object.keys(config.options ?? {})));
  }
}

function isParseError(err: unknown): err is Error & { code: string } {
  const code = (err as { code?: unknown } | null)?.code;
  return err instanceof Error && typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS');
}

function usageMessage(err: Error & { code: string }, optionNames: readonly string[]): string {
  if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const given = /'([^']+)'/.exec(err.message)?.[1] ?? '';
    const meant = closestName(given.replace(/^-+/, ''), optionNames);
    return `unknown option ${given}${meant === undefined ? '' : `; did you mean --${meant}?`}`;
  }
  // "Option '--quality <value>' argument missing"
  const missingValue = /^Option '([^']+?)(?: <value>)?' argument missing/.exec(err.message);
  if (missingValue) return `option ${missingValue[1]} needs a value`;
  return err.message;
}
