// The known name a mistyped one may mean, for every "did you mean": unknown request fields
// (src/operations/unknown-fields.ts) and unknown command-line options (src/command-line.ts).

/** A known name this close to the given one (case-insensitive) is suggested. */
const MAX_SUGGESTION_DISTANCE = 2;

/** The known name closest to `name` within the suggestion distance, case-insensitive; ties go to the first. */
export function closestName(name: string, known: readonly string[]): string | undefined {
  let best: { known: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (distance <= MAX_SUGGESTION_DISTANCE && (best === undefined || distance < best.distance)) best = { known: candidate, distance };
  }
  return best?.known;
}

/**
 * Levenshtein distance (insertions, deletions, substitutions), one row at a time. Names are
 * short; a dozen lines spare the service a dependency.
 */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length] as number;
}
