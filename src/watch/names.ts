// Names the watcher makes from input names: within NAME_MAX (255 bytes on Linux, macOS and
// Windows alike), numbered where a name is taken (`report (2).pdf`), and safe to print on one
// log line. An input's name is anything its sender chose: 255 bytes, newlines, escape sequences.

import { createHash } from 'node:crypto';

export const NAME_MAX_BYTES = 255;

/** An extension longer than this is taken as part of the stem when numbering (`a.<200 bytes>`). */
const MAX_EXTENSION_BYTES = 32;

/**
 * `name` + `suffix` as one file name of at most NAME_MAX bytes. Where that is too long, `name`
 * is cut at a character boundary and a hash of the whole of it keeps different long names apart
 * (the same name always gives the same result, so a record can be found again by its input).
 */
export function fitName(name: string, suffix = ''): string {
  if (Buffer.byteLength(name + suffix) <= NAME_MAX_BYTES) return name + suffix;
  const mark = `~${createHash('sha256').update(name).digest('hex').slice(0, 12)}`;
  return cutToBytes(name, NAME_MAX_BYTES - Buffer.byteLength(mark + suffix)) + mark + suffix;
}

/** The error record beside (or for) an input: `<name>.error.json`, shortened to fit. */
export const errorRecordName = (name: string): string => fitName(name, '.error.json');

/** The n-th name for `name` in a folder where it is taken: `report (2).pdf`, `README (3)`. */
export function numberedName(name: string, n: number): string {
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 && Buffer.byteLength(name.slice(dot)) <= MAX_EXTENSION_BYTES ? name.slice(dot) : '';
  return fitName(name.slice(0, name.length - extension.length), ` (${n})${extension}`);
}

/** The longest start of `text` of at most `max` UTF-8 bytes that ends between characters. */
export function cutToBytes(text: string, max: number): string {
  let out = '';
  let used = 0;
  for (const char of text) {
    const bytes = Buffer.byteLength(char);
    if (used + bytes > max) break;
    out += char;
    used += bytes;
  }
  return out;
}

/**
 * `text` with every control character (C0, DEL, C1) and Unicode line or paragraph separator
 * written as an escape (`\n`, `\u001b`): a file name cannot start a forged log line or drive the
 * terminal the log is read on.
 */
export function escapeControls(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (char) => SHORT_ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const SHORT_ESCAPES: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
