// The strings of a PDF content stream (page content, form XObject, annotation appearance), found
// by a tokenizer of its syntax (literal strings with escapes and nesting, hex strings, comments,
// inline image data skipped), so that redaction can read and rewrite the text strings of
// marked-content property lists (`/Span << /ActualText (…) >> BDC`) that mupdf's applyRedactions
// leaves in place, and the safety net can read every string a stream holds; and its operators,
// so that an overlay knows which graphics states and text objects a page leaves open.

/** One string of a content stream: where its token lies and its bytes (escapes resolved). */
export interface ContentString {
  start: number;
  end: number;
  bytes: Uint8Array;
  /** True when the token before it is a name: a value in a dictionary (property list), not an operand of a text operator. */
  afterName: boolean;
}

/** Each byte's class in PDF syntax: 0 regular, 1 white space, 2 delimiter (a table: this runs once a byte of every page). */
const CLASS = new Uint8Array(256);
for (const byte of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]) CLASS[byte] = 1;
for (const char of '()<>[]{}/%') CLASS[char.charCodeAt(0)] = 2;
const WHITE = { has: (byte: number) => CLASS[byte] === 1 };
const DELIMITERS = { has: (byte: number) => CLASS[byte] === 2 };
const isRegular = (byte: number | undefined) => byte !== undefined && CLASS[byte] === 0;

/** A token of a content stream: a string, or a word (an operator, a number, `true`…) at `start`…`end`. */
type Token = ({ kind: 'string' } & ContentString) | { kind: 'word'; start: number; end: number };

function* tokens(data: Uint8Array): Generator<Token> {
  let afterName = false;
  let at = 0;
  while (at < data.length) {
    const byte = data[at] as number;
    if (WHITE.has(byte)) at++;
    else if (byte === 0x25) at = lineEnd(data, at);
    else if (byte === 0x28) {
      const { end, bytes } = literal(data, at);
      yield { kind: 'string', start: at, end, bytes, afterName };
      at = end;
      afterName = false;
    } else if (byte === 0x3c && data[at + 1] !== 0x3c) {
      const { end, bytes } = hex(data, at);
      yield { kind: 'string', start: at, end, bytes, afterName };
      at = end;
      afterName = false;
    } else if (byte === 0x2f) {
      at++;
      while (isRegular(data[at])) at++;
      afterName = true;
    } else if (DELIMITERS.has(byte)) {
      at += (byte === 0x3c || byte === 0x3e) && data[at + 1] === byte ? 2 : 1;
      afterName = false;
    } else {
      const start = at;
      while (isRegular(data[at])) at++;
      yield { kind: 'word', start, end: at };
      at = data[start] === 0x49 && data[start + 1] === 0x44 && at - start === 2 ? inlineImageEnd(data, at) : at;
      afterName = false;
    }
  }
}

/** Every string token of `data`, in order. */
export function contentStrings(data: Uint8Array): ContentString[] {
  const strings: ContentString[] = [];
  for (const token of tokens(data))
    if (token.kind === 'string') strings.push({ start: token.start, end: token.end, bytes: token.bytes, afterName: token.afterName });
  return strings;
}

/** What a content stream leaves open: `q`s it does not close, `Q`s with no `q` of its own, and whether a text object (`BT`) is open at its end. */
export interface OpenState {
  saves: number;
  extraRestores: number;
  inText: boolean;
}

export function openState(data: Uint8Array): OpenState {
  const state: OpenState = { saves: 0, extraRestores: 0, inText: false };
  // Words compared byte by byte: a page holds hundreds of thousands of them, nearly all numbers.
  const is = (token: { start: number; end: number }, word: string) =>
    token.end - token.start === word.length && [...word].every((char, i) => data[token.start + i] === char.charCodeAt(0));
  for (const token of tokens(data)) {
    if (token.kind !== 'word' || token.end - token.start > 2) continue;
    if (is(token, 'q')) state.saves++;
    else if (is(token, 'Q') && state.saves > 0) state.saves--;
    else if (is(token, 'Q')) state.extraRestores++;
    else if (is(token, 'BT')) state.inText = true;
    else if (is(token, 'ET')) state.inText = false;
  }
  return state;
}

function lineEnd(data: Uint8Array, at: number): number {
  while (at < data.length && data[at] !== 0x0a && data[at] !== 0x0d) at++;
  return at;
}

/** After `ID`: the binary data runs to the first `EI` standing alone as a token. */
function inlineImageEnd(data: Uint8Array, at: number): number {
  for (let i = at + 1; i + 1 < data.length; i++) {
    if (data[i] === 0x45 && data[i + 1] === 0x49 && WHITE.has(data[i - 1] as number) && !isRegular(data[i + 2])) return i + 2;
  }
  return data.length;
}

const ESCAPES: Record<number, number> = { 0x6e: 0x0a, 0x72: 0x0d, 0x74: 0x09, 0x62: 0x08, 0x66: 0x0c };

function literal(data: Uint8Array, start: number): { end: number; bytes: Uint8Array } {
  const out: number[] = [];
  let depth = 1;
  let at = start + 1;
  while (at < data.length) {
    const byte = data[at++] as number;
    if (byte === 0x5c) {
      const next = data[at] as number;
      if (next >= 0x30 && next <= 0x37) {
        let code = 0;
        for (let n = 0; n < 3 && (data[at] as number) >= 0x30 && (data[at] as number) <= 0x37; n++) code = code * 8 + (data[at++] as number) - 0x30;
        out.push(code & 0xff);
      } else if (next === 0x0d || next === 0x0a) {
        at += next === 0x0d && data[at + 1] === 0x0a ? 2 : 1;
      } else {
        out.push(ESCAPES[next] ?? next);
        at++;
      }
    } else if (byte === 0x28) {
      depth++;
      out.push(byte);
    } else if (byte === 0x29) {
      if (--depth === 0) break;
      out.push(byte);
    } else out.push(byte);
  }
  return { end: at, bytes: Uint8Array.from(out) };
}

function hex(data: Uint8Array, start: number): { end: number; bytes: Uint8Array } {
  let digits = '';
  let at = start + 1;
  while (at < data.length && data[at] !== 0x3e) {
    const char = String.fromCharCode(data[at++] as number);
    if (/[0-9a-fA-F]/.test(char)) digits += char;
  }
  if (digits.length % 2 === 1) digits += '0';
  return { end: at + 1, bytes: Uint8Array.from(Buffer.from(digits, 'hex')) };
}

/** A PDF text string's text: UTF-16BE (with its byte-order mark), UTF-8 (with its mark), else PDFDocEncoding (read as Latin-1). */
export function textOf(bytes: Uint8Array): string {
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return utf16be(bytes.subarray(2));
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return Buffer.from(bytes.subarray(3)).toString('utf8');
  return Buffer.from(bytes).toString('latin1');
}

export function utf16be(bytes: Uint8Array): string {
  const swapped = Buffer.from(bytes.subarray(0, bytes.length & ~1));
  swapped.swap16();
  return swapped.toString('utf16le');
}

/** `text` as a hex string token holding UTF-16BE with its byte-order mark: any character survives. */
export function hexTextString(text: string): string {
  const bytes = Buffer.from(text, 'utf16le');
  bytes.swap16();
  return `<FEFF${bytes.toString('hex').toUpperCase()}>`;
}

/**
 * `data` with the text strings of its property lists passed through `redact`; null when none
 * changed. A changed string is written again as UTF-16BE hex.
 */
export function redactPropertyStrings(data: Uint8Array, redact: (text: string) => string): Uint8Array | null {
  const parts: Uint8Array[] = [];
  let at = 0;
  for (const token of contentStrings(data)) {
    if (!token.afterName) continue;
    const text = textOf(token.bytes);
    const kept = redact(text);
    if (kept === text) continue;
    parts.push(data.subarray(at, token.start), Buffer.from(hexTextString(kept), 'latin1'));
    at = token.end;
  }
  if (parts.length === 0) return null;
  parts.push(data.subarray(at));
  return Buffer.concat(parts);
}
