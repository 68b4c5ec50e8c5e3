// `docwasm <words…> inputs… [--field value]…`: one operation, run in-process with the same
// engines, validation, limits and error codes as the HTTP API, then the process exits. The
// command line is read through the operation's schema (see options-from-schema.ts), so every
// operation gets its command with no code of its own.

import fs from 'node:fs/promises';
import { configFromFlags, flagOptions } from '../config.js';
import { isErrorEnvelope, type Envelope } from '../operations/envelope.js';
import { createRuntime } from '../operations/context.js';
import { invokeOperation } from '../operations/invoke.js';
import type { Operation } from '../operations/operation.js';
import { CancelledError } from '../../core/job-errors.js';
import { commandOf } from './commands.js';
import { operationHelp } from './help.js';
import { engineFlags } from './one-shot-flags.js';
import { commandShape, numberOrText, type CommandShape, type FieldOption } from './options-from-schema.js';
import { parseCommandLine } from '../command-line.js';
import { progressLine } from './progress.js';
import { resultText } from './result-text.js';
import { isSecretField, readFirstLineOfStdin, secretEnvName, stdinFlagOf } from './secrets.js';
import { UsageError } from './usage-error.js';
import { quietEngineLifecycle } from '../jobs/engine-events.js';

export const EXIT = { ok: 0, failed: 1, usage: 2, interrupted: 130 } as const;

type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;

interface CommandLine {
  values: Values;
  positionals: string[];
}

/** Runs the operation named on the command line; resolves with the exit status. */
export async function runOneShot(operation: Operation, args: string[]): Promise<number> {
  quietEngineLifecycle();
  const shape = commandShape(operation.input);
  const line = readCommandLine(operation, shape, args);
  if (line.values.help) {
    process.stdout.write(operationHelp(operation));
    return EXIT.ok;
  }
  const request = await requestFrom(operation, shape, line);
  const runtime = await createRuntime(configFromFlags(line.values, engineFlags(operation, shape)));
  const cancel = new AbortController();
  cancelOnFirstInterrupt(cancel);
  const progress = progressLine(`docwasm ${commandOf(operation)}`);
  try {
    const envelope = await invokeOperation(operation, request, { ...runtime, signal: cancel.signal, progress: progress?.update });
    progress?.finish();
    return report(operation, envelope, {
      json: line.values.json === true,
      printText: shape.options.some((o) => o.field === 'output') && request.output === undefined,
    });
  } catch (err) {
    progress?.finish();
    if (!(err instanceof CancelledError)) throw err;
    process.stderr.write('docwasm: cancelled\n');
    return EXIT.interrupted;
  } finally {
    await runtime.close();
  }
}

/**
 * A first Ctrl-C cancels the job (no output, no temp file left); a second one kills. Started
 * again with glibc's malloc settings (malloc-restart.ts), this process gets a terminal's Ctrl-C
 * twice: from the terminal and passed on by the launcher a moment later, which is one press.
 */
function cancelOnFirstInterrupt(cancel: AbortController): void {
  const launched = process.env.DOCWASM_LAUNCHER_PID !== undefined;
  let first = 0;
  const onInterrupt = () => {
    if (first === 0) {
      first = Date.now();
      cancel.abort();
      if (!launched) process.removeListener('SIGINT', onInterrupt);
    } else if (Date.now() - first > SAME_PRESS_MS) {
      process.removeListener('SIGINT', onInterrupt);
      process.kill(process.pid, 'SIGINT');
    }
  };
  process.on('SIGINT', onInterrupt);
}

/** Two interrupts this close together are one Ctrl-C reaching both the launcher and this process. */
const SAME_PRESS_MS = 300;

function readCommandLine(operation: Operation, shape: CommandShape, args: string[]): CommandLine {
  const fieldOptions = Object.fromEntries(
    shape.options.map((o) => [
      o.flag,
      { type: o.kind === 'boolean' ? ('boolean' as const) : ('string' as const), multiple: o.many, ...(o.field === 'output' && { short: 'o' }) },
    ]),
  );
  const options = {
    ...flagOptions(engineFlags(operation, shape)),
    ...fieldOptions,
    json: { type: 'boolean' as const },
    help: { type: 'boolean' as const, short: 'h' },
    ...Object.fromEntries(shape.options.filter((o) => isSecretField(o.field)).map((o) => [stdinFlagOf(o.flag), { type: 'boolean' as const }])),
  };
  const { values, positionals } = parseCommandLine({ args, options, allowPositionals: true });
  return { values: values as Values, positionals };
}

/** The request body the command line describes, as an HTTP client would have sent it. */
async function requestFrom(operation: Operation, shape: CommandShape, { values, positionals }: CommandLine): Promise<Record<string, unknown>> {
  const request: Record<string, unknown> = { ...positionalInputs(operation, shape, positionals) };
  for (const option of shape.options) {
    const value = values[option.flag];
    if (value === undefined) continue;
    if (option.kind === 'number') request[option.field] = numberOrText(String(value));
    else if (option.kind === 'json') request[option.field] = await jsonValue(operation, option, value);
    else request[option.field] = value;
  }
  await addSecrets(operation, shape, values, request);
  rejectMissingOptions(operation, shape, request);
  return request;
}

/** A required option left out is named as the option to give (not as the schema's "expected string, received undefined"). */
function rejectMissingOptions(operation: Operation, shape: CommandShape, request: Record<string, unknown>): void {
  const missing = shape.options.filter((option) => option.required && request[option.field] === undefined);
  if (missing.length === 0) return;
  const names = missing.map((option) => (option.field === 'output' ? '-o/--output' : `--${option.flag}`));
  throw new UsageError(`missing required option${names.length > 1 ? 's' : ''} ${names.join(', ')}`, operation);
}

/**
 * The value of a JSON field: each value given is JSON text (`{…}`, `[…]`) or the path of a JSON
 * file. A list takes items one by one or as arrays; a value that is not JSON is passed as text,
 * for the schema to reject with its own message.
 */
async function jsonValue(operation: Operation, option: FieldOption, given: unknown): Promise<unknown> {
  const values = (Array.isArray(given) ? given : [given]).map(String);
  const parsed = await Promise.all(values.map((value) => (/^\s*[[{]/.test(value) ? parseJson(value) : readJsonFile(operation, option.flag, value))));
  return option.many ? parsed.flatMap((value) => (Array.isArray(value) ? (value as unknown[]) : [value])) : parsed.at(-1);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

async function readJsonFile(operation: Operation, flag: string, file: string): Promise<unknown> {
  const text = await fs.readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    throw new UsageError(`--${flag}: cannot read ${file} (${err.code ?? err.message})`, operation);
  });
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new UsageError(`--${flag}: ${file} is not JSON (${(err as Error).message})`, operation);
  }
}

function positionalInputs(operation: Operation, shape: CommandShape, positionals: string[]): Record<string, unknown> {
  const { positional } = shape;
  if (!positional) {
    if (positionals.length > 0) throw new UsageError(`Unexpected argument "${positionals[0]}"`, operation);
    return {};
  }
  if (positionals.length === 0) throw new UsageError(`Give the input file${positional.many ? '(s)' : ''}`, operation);
  if (positional.many) return { [positional.field]: positionals };
  if (positionals.length > 1) throw new UsageError(`Takes one input file, got ${positionals.length}: ${positionals.join(' ')}`, operation);
  return { [positional.field]: positionals[0] };
}

/** Passwords not given as options come from their env var, or `password` from stdin. */
async function addSecrets(operation: Operation, shape: CommandShape, values: Values, request: Record<string, unknown>): Promise<void> {
  const fromStdin = shape.options.filter((o) => isSecretField(o.field) && values[stdinFlagOf(o.flag)] === true);
  if (fromStdin.length > 1)
    throw new UsageError(`stdin holds one secret: give only one of ${fromStdin.map((o) => `--${stdinFlagOf(o.flag)}`).join(', ')}`, operation);
  for (const option of fromStdin) {
    if (request[option.field] !== undefined) throw new UsageError(`Give either --${option.flag} or --${stdinFlagOf(option.flag)}, not both`, operation);
    request[option.field] = await readFirstLineOfStdin();
  }
  for (const option of shape.options) {
    const fromEnv = process.env[secretEnvName(option.field)];
    if (isSecretField(option.field) && request[option.field] === undefined && fromEnv !== undefined && fromEnv !== '') request[option.field] = fromEnv;
  }
}

/** Prints the outcome and answers the exit status. */
function report(operation: Operation, envelope: Envelope, { json, printText }: { json: boolean; printText: boolean }): number {
  if (json) process.stdout.write(`${JSON.stringify(envelope)}\n`);
  if (isErrorEnvelope(envelope)) {
    process.stderr.write(`docwasm: ${envelope.code}: ${envelope.error}\n`);
    return envelope.code === 'VALIDATION_ERROR' ? EXIT.usage : EXIT.failed;
  }
  // A pipeline's steps come from a JSON file: their unknown fields are not options the parser refused.
  for (const warning of envelope.warnings ?? [])
    process.stderr.write(`docwasm: warning: ${warning}
`);
  if (!json) process.stdout.write(resultText(operation.id, envelope, { printText }));
  if (!json && printText) reportCut(envelope);
  for (const item of failedItems(envelope))
    process.stderr.write(`docwasm: ${item.code ?? 'INTERNAL_ERROR'}: ${itemMessage(item)}
`);
  return envelope.success ? EXIT.ok : EXIT.failed;
}

/** Text printed cut (`read --max-characters`): said on stderr, so stdout stays the text alone. */
function reportCut(envelope: Envelope): void {
  const data = isErrorEnvelope(envelope) ? undefined : envelope.data;
  if (data?.truncated === true) process.stderr.write(`docwasm: [… truncated at ${String(data.characters)} characters; --max-characters reads more]\n`);
}

interface FailedItem {
  input: string;
  code?: string;
  error?: string;
}

/** A failed item's error, led by its input unless the error names it already. */
function itemMessage({ input, error = 'failed' }: FailedItem): string {
  return error.includes(input) ? error : `${input}: ${error}`;
}

/** The items of a batch answer (`data.results`) that failed. */
function failedItems(envelope: Envelope): FailedItem[] {
  const results = isErrorEnvelope(envelope) ? undefined : envelope.data?.results;
  if (!Array.isArray(results)) return [];
  return results.filter((r): r is FailedItem => typeof r === 'object' && r !== null && (r as { success?: unknown }).success === false);
}
