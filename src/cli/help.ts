// The help texts of the command line, at three levels — `docwasm --help` (the commands),
// `docwasm pdf --help` (a group's operations), `docwasm pdf merge --help` (an operation's fields,
// described by its schema) — all generated from the operation list.

import { flagHelpLines, helpLine } from '../config.js';
import { OPERATIONS } from '../operations/index.js';
import { commandWords, type Operation } from '../operations/operation.js';
import { commandOf, groupMembers } from './commands.js';
import { engineFlags } from './one-shot-flags.js';
import { commandShape, formatFollowsOutput, type FieldOption } from './options-from-schema.js';
import { isSecretField, secretEnvName, stdinFlagOf } from './secrets.js';

const JSON_HELP = helpLine('--json', "print the API's JSON envelope as one line instead");

export function topLevelHelp(): string {
  const lines = [
    'Usage: docwasm <command> [inputs...] [options]',
    '',
    'Document conversion, PDF, image and OCR on local files: as an HTTP JSON service, as',
    'one-shot commands that run in-process and exit, or as an MCP server for AI agents.',
    '',
    'Commands:',
    helpLine('serve', 'run the HTTP JSON service (the default command)'),
    helpLine('mcp', 'serve the Model Context Protocol over stdio (one tool per operation)'),
    helpLine('watch', 'run every file that appears in a folder through a pipeline (docwasm watch --help)'),
    helpLine('worker', 'run the async jobs of a shared queue (serve --queue), here or on another machine'),
    ...commandSummaries(),
    '',
    'Run `docwasm <command> --help` for its inputs and options.',
    '',
    'Options:',
    helpLine('--help', 'show this help'),
    helpLine('--version', 'print the version'),
    '',
  ];
  return lines.join('\n');
}

/** One line per single-word operation, one per group listing its operations. */
function commandSummaries(): string[] {
  const lines: string[] = [];
  const seen = new Set<string>();
  for (const operation of OPERATIONS) {
    const [first = ''] = commandWords(operation);
    if (commandWords(operation).length === 1) lines.push(helpLine(first, operation.summary));
    else if (!seen.has(first)) {
      seen.add(first);
      const members = groupMembers(first);
      const standalone = OPERATIONS.some((op) => commandOf(op) === first);
      if (standalone) lines.push(...members.map((op) => helpLine(commandOf(op), op.summary)));
      else lines.push(helpLine(first, members.map((op) => commandWords(op).slice(1).join(' ')).join(', ')));
    }
  }
  return lines;
}

export function groupHelp(word: string): string {
  return [
    `Usage: docwasm ${word} <operation> [inputs...] [options]`,
    '',
    'Operations:',
    ...groupMembers(word).map((op) => helpLine(commandOf(op), op.summary)),
    '',
    `Run \`docwasm ${word} <operation> --help\` for its inputs and options.`,
    '',
  ].join('\n');
}

export function operationHelp(operation: Operation): string {
  const shape = commandShape(operation.input);
  const { positional, options } = shape;
  const command = commandOf(operation);
  const inputs = positional ? ` ${positional.many ? 'FILES...' : 'INPUT'}` : '';
  const subcommands = groupMembers(command);
  const secrets = options.filter((o) => isSecretField(o.field));
  const lines = [
    `Usage: docwasm ${command}${inputs} [options]`,
    '',
    `${operation.summary}.`,
    ...(positional
      ? ['', 'Inputs:', helpLine(positional.many ? 'FILES...' : 'INPUT', `${positional.description ?? ''}${positional.many ? ' (one or more)' : ''}`)]
      : []),
    '',
    'Options:',
    ...options.map((option) => optionHelpLine(option, formatFollowsOutput({ positional, options }))),
    JSON_HELP,
    ...secrets.map((o) => helpLine(`--${stdinFlagOf(o.flag)}`, `read --${o.flag} from the first line of stdin`)),
    helpLine('-h, --help', 'show this help'),
    ...(secrets.length > 0
      ? [
          '',
          `Passwords: rather than on the command line (visible to other users in \`ps\`), give them in ${secrets.map((o) => secretEnvName(o.field)).join(', ')} or with ${secrets.map((o) => `--${stdinFlagOf(o.flag)}`).join(', ')}.`,
        ]
      : []),
    '',
    'Engine options (each also read from its environment variable):',
    ...flagHelpLines(engineFlags(operation, shape)),
    '',
    'Relative paths resolve against the working directory (or --base-dir).',
    'Exit status: 0 success, 1 the operation failed (a batch with any failed item), 2 usage or validation error.',
    ...(subcommands.length > 0 ? ['', 'Related commands:', ...subcommands.map((op) => helpLine(commandOf(op), op.summary))] : []),
    '',
  ];
  return lines.join('\n');
}

function optionHelpLine(option: FieldOption, formatFollowsOutput: boolean): string {
  const names = option.field === 'output' ? `-o, --${option.flag}` : `--${option.flag}`;
  const value = option.kind === 'boolean' ? '' : ` ${metavar(option)}`;
  const notes = [
    option.field === 'format' && formatFollowsOutput ? 'default: the extension of -o' : option.required ? 'required' : undefined,
    option.defaultValue !== undefined ? `default: ${String(option.defaultValue)}` : undefined,
    isSecretField(option.field) ? `or ${secretEnvName(option.field)}` : undefined,
    option.kind === 'list' ? 'repeatable' : undefined,
  ].filter((note) => note !== undefined);
  return helpLine(`${names}${value}`, `${option.description ?? ''}${notes.length ? ` (${notes.join('; ')})` : ''}`.trim());
}

function metavar(option: FieldOption): string {
  if (option.choices) return option.choices.join('|').length <= 24 ? option.choices.join('|') : option.flag.toUpperCase();
  if (option.kind === 'number') return 'N';
  if (option.kind === 'json') return 'JSON|FILE.json';
  if (/Dir$/.test(option.field)) return 'DIR';
  if (/^(input|output)$/.test(option.field)) return 'FILE';
  return 'VALUE';
}
