// Accuracy measures for OCR tests: character error rate (edit distance over the expected
// length, whitespace ignored — CJK text has none) and word error rate.

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
