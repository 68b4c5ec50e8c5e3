// Which bytes a signature signs, checked in the file's own bytes (contract, Refinements v0.4,
// "Signatures"). A /ByteRange [a b c d] signs [a, a+b) and [c, c+d); the gap between them is
// unsigned, so it must hold nothing but the signature itself: exactly the dictionary's own
// /Contents hex string, `<`, hex digits, `>`. Anything more in the gap is where published attacks
// hide their payload: signature wrapping (SWA, Mladenov/Mainka et al., "1 Trillion Dollar
// Refund") moves the signed tail and puts new objects and a new xref in the space after the
// /Contents string, and a reader that only looks at the gap's first and last byte (or decodes the
// hex up to the first non-hex byte) calls that valid and whole. The signed ranges must also start
// at 0 and end where a revision of the file ends (%%EOF), so that what the signature covers is a
// document a reader can open, not a piece of one.

/** At most this many digits in a /ByteRange number: files of up to 10^15 bytes, all exact in a double. */
const MAX_DIGITS = 15;
/** How far around the gap the signature dictionary's own text is looked for. */
const DICTIONARY_WINDOW = 64 * 1024;

export interface SignedRevision {
  /** The signed bytes: [0, gapStart) and [gapEnd, end). */
  gapStart: number;
  gapEnd: number;
  /** Where the revision the signature signs ends: the file's length when nothing was appended since. */
  end: number;
}

/**
 * The revision a signature signs, when its byte range is one the contract accepts for
 * `contents`, the dictionary's /Contents as the PDF parser read it; undefined otherwise. `range`
 * holds the /ByteRange numbers as the parser printed them (exact integers, not float-rounded).
 */
export function signedRevision(file: Buffer, range: readonly string[], contents: Uint8Array): SignedRevision | undefined {
  const numbers = exactNumbers(range);
  if (!numbers) return undefined;
  const [start, gapStart, gapEnd, tail] = numbers;
  if (start !== 0 || gapStart < 1 || gapEnd < gapStart + 2 || tail < 1 || gapEnd + tail > file.length) return undefined;
  const end = gapEnd + tail;
  const sound =
    isExactHexString(file.subarray(gapStart, gapEnd), contents) &&
    followsContentsKey(file, gapStart) &&
    byteRangeWrittenAs(file, gapStart, gapEnd, numbers) &&
    endsRevision(file, end);
  return sound ? { gapStart, gapEnd, end } : undefined;
}

/** Four plain non-negative integers, or undefined (a fifth number, a real, a sign, a huge or wrapped value). */
function exactNumbers(range: readonly string[]): [number, number, number, number] | undefined {
  if (range.length !== 4 || !range.every((text) => new RegExp(`^\\d{1,${MAX_DIGITS}}$`).test(text))) return undefined;
  return range.map(Number) as [number, number, number, number];
}

/** `<`, then exactly the hex digits of `contents` (two a byte, no space, no other byte), then `>`. */
function isExactHexString(gap: Buffer, contents: Uint8Array): boolean {
  if (gap[0] !== 0x3c || gap[gap.length - 1] !== 0x3e || gap.length !== contents.length * 2 + 2) return false;
  const hex = gap.subarray(1, -1).toString('latin1');
  return /^[0-9A-Fa-f]*$/.test(hex) && Buffer.from(hex, 'hex').equals(contents);
}

/** The gap is the value of a /Contents key (the signed bytes before it end with `/Contents`). */
function followsContentsKey(file: Buffer, gapStart: number): boolean {
  return /\/Contents[\0\t\n\f\r ]*$/.test(file.subarray(Math.max(0, gapStart - 64), gapStart).toString('latin1'));
}

/**
 * The dictionary around the gap writes its /ByteRange once, as these very numbers. The parser
 * wraps a number past 2^64 silently (18446744073709552987 reads as 371): the written digits are
 * what another reader sees, so they must be what was checked.
 */
function byteRangeWrittenAs(file: Buffer, gapStart: number, gapEnd: number, numbers: readonly number[]): boolean {
  const before = file.subarray(Math.max(0, gapStart - DICTIONARY_WINDOW), gapStart).toString('latin1');
  const header = [...before.matchAll(/\d+[\0\t\n\f\r ]+\d+[\0\t\n\f\r ]+obj\b/g)].at(-1);
  if (!header) return false;
  const after = file.subarray(gapEnd, Math.min(file.length, gapEnd + DICTIONARY_WINDOW)).toString('latin1');
  const close = after.indexOf('endobj');
  if (close < 0) return false;
  const dictionary = `${before.slice(header.index)} ${after.slice(0, close)}`;
  const written = [...dictionary.matchAll(/\/ByteRange[\0\t\n\f\r ]*\[([^\]]*)\]/g)];
  if (written.length !== 1) return false;
  const digits = (written[0]?.[1] ?? '').trim().split(/[\0\t\n\f\r ]+/);
  return digits.length === numbers.length && digits.every((text, i) => /^\d+$/.test(text) && text.length <= MAX_DIGITS && Number(text) === numbers[i]);
}

/** `end` is where a revision ends: right after `%%EOF` and at most one end-of-line. */
function endsRevision(file: Buffer, end: number): boolean {
  return /%%EOF(?:\r\n|\r|\n)?$/.test(file.subarray(Math.max(0, end - 7), end).toString('latin1'));
}
