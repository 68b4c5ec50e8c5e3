// Accuracy measures for OCR tests: character error rate (edit distance over the expected
// length, whitespace ignored — CJK text has none) and word error rate; for Chinese pages with
// English in them, the error rate of the English words alone (where a lost space counts) and of
// the Han characters alone.

export function characterErrorRate(expected: string, actual: string): number {
  const strip = (s: string) => [...normalise(s).replace(/\s+/g, '')];
  const want = strip(expected);
  return editDistance(want, strip(actual)) / Math.max(1, want.length);
}

export function wordErrorRate(expected: string, actual: string): number {
  const words = (s: string) => normalise(s).split(/\s+/).filter(Boolean);
  const want = words(expected);
  return editDistance(want, words(actual)) / Math.max(1, want.length);
}

/**
 * Word error rate of the Latin-script words only: words are what lies between spaces and CJK
 * characters, less the punctuation around them ("Node.js，" is "Node.js"). Two words read
 * without the space between them are one wrong word and one missing.
 */
export function latinWordErrorRate(expected: string, actual: string): number {
  const want = latinWords(expected);
  return editDistance(want, latinWords(actual)) / Math.max(1, want.length);
}

export function latinWords(text: string): string[] {
  return normalise(text)
    .split(/[\s\p{Script=Han}\u3000-\u303f\uff00-\uffef]+/u)
    .map((word) => word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter((word) => /[A-Za-z0-9]/.test(word));
}

/** Character error rate over the Han characters alone (the Chinese of a mixed page). */
export function hanCharacterErrorRate(expected: string, actual: string): number {
  const han = (s: string) => [...normalise(s)].filter((c) => /\p{Script=Han}/u.test(c));
  const want = han(expected);
  return editDistance(want, han(actual)) / Math.max(1, want.length);
}

/** Full-width punctuation and its ASCII twin count as the same character. */
function normalise(text: string): string {
  return text.normalize('NFKC');
}

function editDistance<T>(a: readonly T[], b: readonly T[]): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] as number;
}
