// The configuration flags of config.ts as command-line options, for each command: `serve`
// takes all of them; one-shot commands and `mcp` open no port, so the listening ones are left out.

import { FLAGS, resolveConfig, type Config, type FlagSpec } from '../config.js';

const LISTENING_FLAGS = new Set(['host', 'port', 'token', 'allow-origin']);

/** The flags of commands that run in-process: engines, limits and paths. */
export const RUNTIME_FLAGS: readonly FlagSpec[] = FLAGS.filter((f) => !LISTENING_FLAGS.has(f.flag));

export type FlagOptions = Record<string, { type: 'string'; multiple: boolean }>;

export function flagOptions(flags: readonly FlagSpec[]): FlagOptions {
  return Object.fromEntries(flags.map((f) => [f.flag, { type: 'string' as const, multiple: Boolean(f.repeatable) }]));
}

/** Builds the Config from the parsed values of `flags` (flags win over env, env over defaults). */
export function configFromFlags(values: Readonly<Record<string, unknown>>, flags: readonly FlagSpec[]): Config {
  const given = Object.fromEntries(flags.map((f) => [f.flag, values[f.flag] as string | string[] | undefined]));
  return resolveConfig(given, process.env);
}

export function flagHelpLines(flags: readonly FlagSpec[]): string[] {
  return flags.map((f) => helpLine(`--${f.flag} ${metavar(f)}`, `${f.description} [${f.env}]`));
}

/** One aligned line of a help text. */
export function helpLine(left: string, right: string): string {
  return `  ${left.padEnd(24)} ${right}`;
}

function metavar(flag: FlagSpec): string {
  if (flag.kind === 'engine') return 'NAME';
  if (flag.kind === 'string' || flag.kind === 'list') return 'VALUE';
  return 'N';
}
