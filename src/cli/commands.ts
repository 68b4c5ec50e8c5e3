// Which operation a command line names: the longest run of leading words that is an
// operation's id (`convert batch a.docx` → convert/batch, `convert a.docx` → convert).

import { OPERATIONS } from '../operations/index.js';
import { commandWords, type Operation } from '../operations/operation.js';

export interface CommandMatch {
  operation: Operation;
  /** The arguments after the command words. */
  rest: string[];
}

export function matchOperation(args: readonly string[]): CommandMatch | undefined {
  let best: CommandMatch | undefined;
  for (const operation of OPERATIONS) {
    const words = commandWords(operation);
    const matches = words.every((word, i) => args[i] === word);
    if (matches && words.length > (best ? commandWords(best.operation).length : 0)) best = { operation, rest: args.slice(words.length) };
  }
  return best;
}

/** The operations whose command starts with `word` and has more words (`pdf` → pdf merge, ...). */
export function groupMembers(word: string): Operation[] {
  return OPERATIONS.filter((op) => commandWords(op).length > 1 && commandWords(op)[0] === word);
}

export const commandOf = (operation: Operation): string => commandWords(operation).join(' ');
