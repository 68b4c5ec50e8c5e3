// Tesseract separates every recognised Chinese/Japanese "word" by a space even where the
// script has none; those spaces are removed between two CJK characters (ideographs, kana,
// CJK and full-width punctuation). Hangul is left alone: Korean does use spaces.

const CJK = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\u3000-\\u303f\\uff00-\\uffef\\u30fc';
const SPACE_BETWEEN_CJK = new RegExp(`(?<=[${CJK}])[ \\t\\u3000]+(?=[${CJK}])`, 'gu');

export function removeCjkSpaces(text: string): string {
  return text.replace(SPACE_BETWEEN_CJK, '');
}

const CJK_CHARACTER = new RegExp(`^[${CJK}]$`, 'u');

/** Whether two words meet without a space between them: both sides are CJK characters. */
export function joinsWithoutSpace(left: string, right: string): boolean {
  return CJK_CHARACTER.test([...left].at(-1) ?? '') && CJK_CHARACTER.test([...right][0] ?? '');
}
