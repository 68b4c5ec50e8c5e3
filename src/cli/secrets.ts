// Passwords given on the command line are visible to every user through `ps`; these two ways
// keep them out of it: an environment variable per password field, and `--<field>-stdin`.

import readline from 'node:readline';

export const isSecretField = (field: string): boolean => /password$/i.test(field);

/** `password` → DOCWASM_PASSWORD, `ownerPassword` → DOCWASM_OWNER_PASSWORD. */
export const secretEnvName = (field: string): string => `DOCWASM_${field.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`;

/** `--password-stdin`, `--certificate-password-stdin`: the secret read from the first line of stdin. */
export const stdinFlagOf = (flag: string): string => `${flag}-stdin`;

/** The first line of stdin, without its line ending. */
export async function readFirstLineOfStdin(): Promise<string> {
  const lines = readline.createInterface({ input: process.stdin, terminal: false });
  try {
    for await (const line of lines) return line;
    return '';
  } finally {
    lines.close();
    process.stdin.destroy();
  }
}
