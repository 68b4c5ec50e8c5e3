// A row the page break cut: Chrome and word processors let a row run over a page break, so the
// table's last row on one page and its first on the next are one row's two parts. Spacing cannot
// tell them apart from two rows (the next page's part starts a line like any row), so the cells'
// text decides, against the table's other rows:
// - a cell left empty in a column every other row fills (the cut row's shorter cells ended
//   before the break, so the next page's part holds nothing there);
// - a cell cut mid-sentence, in a column whose cells are sentences: the part above the break
//   ends without a sentence's stop and the part below starts in lower case.
// Pure functions over cell texts, one array of texts a row.

type Row = readonly string[];

/** A column of sentences: this many of its other cells at least, nearly all ending in a stop. */
const MIN_SENTENCES = 3;
/** Share of a column's other cells that may end without a stop (an abbreviation, a list). */
const UNSTOPPED_SHARE = 0.2;
/** A sentence ends in a stop, maybe closed by a quote or bracket. */
const STOP = /[.!?。！？][)"'”’»」]?$/u;
const STARTS_LOWER = /^\p{Ll}/u;

/** A column every other row fills: at least MIN_SENTENCES rows, none of them empty there. */
function alwaysFilled(others: readonly Row[], column: number): boolean {
  return others.length >= MIN_SENTENCES && others.every((row) => (row[column] ?? '') !== '');
}

/** A column whose cells are sentences: nearly all of its filled cells among `others` end in a stop. */
function sentenceColumn(others: readonly Row[], column: number): boolean {
  const filled = others.map((row) => row[column] ?? '').filter(Boolean);
  const unstopped = filled.filter((text) => !STOP.test(text)).length;
  return filled.length >= MIN_SENTENCES && unstopped <= filled.length * UNSTOPPED_SHARE;
}

/** `above`'s cell in `column` broken off mid-sentence and `below`'s going on with it. */
const cutMidSentence = (above: Row, below: Row, column: number) => {
  const [before, after] = [above[column] ?? '', below[column] ?? ''];
  return before !== '' && !STOP.test(before) && STARTS_LOWER.test(after);
};

/**
 * Whether `below` (the next page's first row) goes on with `above` (the last row before the
 * break), judged by the table's `others` rows (its body, these two and the header aside).
 */
export function cutByBreak(above: Row, below: Row, others: readonly Row[]): boolean {
  if (above.length !== below.length || below.every((text) => text === '') || above.every((text) => text === '')) return false;
  const columns = above.map((_, column) => column);
  const leftEmpty = columns.some((c) => below[c] === '' && above[c] !== '' && alwaysFilled(others, c));
  return leftEmpty || columns.some((c) => sentenceColumn(others, c) && cutMidSentence(above, below, c));
}
