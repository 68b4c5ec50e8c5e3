// Chinese and Japanese text has no spaces between words. Tesseract separates every recognised
// CJK "word" by a space anyway; those spaces are removed between two CJK characters
// (ideographs, kana, CJK and full-width punctuation), and lines are joined without one. Hangul
// is left alone: Korean does use spaces. Shared by the OCR, PDF and reader workers and the
// main thread's reading of OCR text.

const CJK = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\u3000-\\u303f\\uff00-\\uffef\\u30fc';
const SPACE_BETWEEN_CJK = new RegExp(`(?<=[${CJK}])[ \\t\\u3000]+(?=[${CJK}])`, 'gu');

export function removeCjkSpaces(text: string): string {
  return text.replace(SPACE_BETWEEN_CJK, '');
}

const CJK_CHARACTER = new RegExp(`^[${CJK}]$`, 'u');

/** Whether `char` (one character) is CJK: an ideograph, kana, or CJK or full-width punctuation. */
export function isCjkCharacter(char: string): boolean {
  return CJK_CHARACTER.test(char);
}

/** Whether two words meet without a space between them: both sides are CJK characters. */
export function joinsWithoutSpace(left: string, right: string): boolean {
  return isCjkCharacter([...left].at(-1) ?? '') && isCjkCharacter([...right][0] ?? '');
}

/**
 * A line-end hyphen in a word that already holds one, or in a path or name (a slash, dot,
 * underscore or digit before it: "arthas-class-", "/var/lib/archive-"), is the text's own: the
 * line was broken after it, and the word goes on without a space.
 */
const OWN_HYPHEN = /[-/_.\\\d][A-Za-z]*-$/;

/**
 * Lines of one paragraph as one text: a word hyphenated at a line end is joined again (its own
 * hyphen kept), two CJK characters meet with no space, anything else with one.
 */
export function joinLines(lines: readonly string[]): string {
  let out = '';
  for (const line of lines) {
    if (!out) out = line;
    else if (/[A-Za-z]-$/.test(out) && /^[a-z]/.test(line)) out = OWN_HYPHEN.test(/\S*$/.exec(out)?.[0] ?? '') ? out + line : out.slice(0, -1) + line;
    else if (joinsWithoutSpace(out, line)) out += line;
    else out += ` ${line}`;
  }
  return out;
}

// Characters a terminal draws two columns wide (Unicode East Asian Width W and F: Hangul Jamo,
// CJK radicals, punctuation, kana, ideographs, Hangul syllables, full-width forms, emoji) and
// those it draws in none (combining marks, format characters such as the zero-width joiner).
const WIDE =
  /[\u{1100}-\u{115F}\u{2E80}-\u{303E}\u{3041}-\u{33FF}\u{3400}-\u{4DBF}\u{4E00}-\u{9FFF}\u{A000}-\u{A4CF}\u{A960}-\u{A97F}\u{AC00}-\u{D7A3}\u{F900}-\u{FAFF}\u{FE10}-\u{FE19}\u{FE30}-\u{FE6F}\u{FF00}-\u{FF60}\u{FFE0}-\u{FFE6}\u{1F300}-\u{1F64F}\u{1F900}-\u{1F9FF}\u{20000}-\u{2FFFD}\u{30000}-\u{3FFFD}]/u;
const ZERO_WIDTH = /[\p{Mn}\p{Me}\p{Cf}]/u;

/** The columns `text` takes on a terminal: two for each wide (CJK, full-width) character, none for combining marks. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const char of text) width += WIDE.test(char) ? 2 : ZERO_WIDTH.test(char) ? 0 : 1;
  return width;
}
