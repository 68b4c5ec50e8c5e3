// RTF field instructions that make a reader fetch another file or a URL (INCLUDEPICTURE,
// INCLUDETEXT, …). LibreOffice follows them whatever its settings, so such RTF is refused before
// it reaches the office. The instruction is read the way an RTF reader sees it: control words
// dropped, \'hh and \uN decoded, nested groups joined — `{INCLUDE}{PICTURE}` is INCLUDEPICTURE.

import type fs from 'node:fs/promises';

/** Field types that read files or URLs (Word's names; LINK and DDE also reach other programs). */
const EXTERNAL_FIELDS = new Set(['INCLUDEPICTURE', 'INCLUDETEXT', 'INCLUDE', 'IMPORT', 'LINK', 'DDE', 'DDEAUTO']);
const MARKER = Buffer.from('\\fldinst', 'latin1');
const CHUNK_BYTES = 1 << 20;
/** An instruction longer than this is not a field anyone writes; it is refused as unreadable. */
const MAX_INSTRUCTION_BYTES = 64 * 1024;

/** `what` in words: "an RTF INCLUDEPICTURE field". */
export type FieldVerdict = { external: false } | { external: true; what: string };

/** Scans the whole RTF file (chunk by chunk) for a field whose type reaches outside the document. */
export async function findExternalRtfField(handle: fs.FileHandle, size: number): Promise<FieldVerdict> {
  let carry = Buffer.alloc(0);
  let offset = 0;
  while (offset < size || carry.length > 0) {
    const chunk = Buffer.alloc(Math.min(CHUNK_BYTES, size - offset));
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, offset);
    offset += bytesRead;
    const buffer = Buffer.concat([carry, chunk.subarray(0, bytesRead)]);
    const atEnd = offset >= size || bytesRead === 0;
    carry = Buffer.alloc(0);
    for (let at = buffer.indexOf(MARKER); at >= 0; at = buffer.indexOf(MARKER, at + MARKER.length)) {
      const instruction = readInstruction(buffer, at + MARKER.length);
      if (instruction === undefined) {
        // The group runs past this buffer: read on from the marker, unless it is absurdly long.
        if (!atEnd && buffer.length - at < MAX_INSTRUCTION_BYTES) carry = buffer.subarray(at);
        else return { external: true, what: 'an RTF field instruction that never ends' };
        break;
      }
      const field =
        instruction
          .trim()
          .split(/[\s"\\]/, 1)[0]
          ?.toUpperCase() ?? '';
      if (EXTERNAL_FIELDS.has(field)) return { external: true, what: `an RTF ${field} field` };
    }
    if (carry.length === 0) carry = buffer.subarray(Math.max(0, buffer.length - MARKER.length));
    if (atEnd) break;
  }
  return { external: false };
}

/** The text of the group that `start` is in, up to its closing brace; undefined if not closed within `buffer`. */
function readInstruction(buffer: Buffer, start: number): string | undefined {
  let depth = 0;
  let text = '';
  // After \uN a reader skips the next `fallbackLength` characters (\ucN, default 1).
  let fallbackLength = 1;
  let toSkip = 0;
  const add = (chars: string) => {
    if (toSkip > 0) toSkip--;
    else text += chars;
  };
  for (let i = start; i < buffer.length && i - start < MAX_INSTRUCTION_BYTES;) {
    const c = buffer[i] as number;
    if (c === 0x7b || c === 0x7d) {
      if (c === 0x7d && depth === 0) return text;
      depth += c === 0x7b ? 1 : -1;
      toSkip = 0;
      i++;
    } else if (c === 0x5c) {
      const control = readControl(buffer, i);
      i = control.next;
      if (control.word === 'uc') fallbackLength = control.parameter ?? 1;
      else if (control.word === 'u' && control.parameter !== undefined) {
        text += String.fromCharCode(control.parameter < 0 ? control.parameter + 65536 : control.parameter);
        toSkip = fallbackLength;
      } else if (control.char !== undefined) add(control.char);
    } else {
      if (c !== 0x0d && c !== 0x0a) add(String.fromCharCode(c));
      i++;
    }
  }
  return undefined;
}

interface Control {
  next: number;
  word?: string;
  parameter?: number | undefined;
  /** The character a symbol (\', \\, \{, \}) stands for. */
  char?: string;
}

/** One control word or symbol at `at` (a backslash). */
function readControl(buffer: Buffer, at: number): Control {
  const next = buffer[at + 1];
  if (next === undefined) return { next: at + 1 };
  if (next === 0x27) {
    const code = Number.parseInt(buffer.toString('latin1', at + 2, at + 4), 16);
    return { next: at + 4, char: Number.isNaN(code) ? '' : String.fromCharCode(code) };
  }
  if (!isLetter(next)) return { next: at + 2, char: next === 0x5c || next === 0x7b || next === 0x7d ? String.fromCharCode(next) : '' };
  let i = at + 1;
  while (i < buffer.length && isLetter(buffer[i] as number)) i++;
  const word = buffer.toString('latin1', at + 1, i);
  const numberStart = i;
  if (buffer[i] === 0x2d) i++;
  while (i < buffer.length && isDigit(buffer[i] as number)) i++;
  const digits = buffer.toString('latin1', numberStart, i);
  if (buffer[i] === 0x20) i++;
  return { next: i, word, parameter: /\d/.test(digits) ? Number(digits) : undefined };
}

const isLetter = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
