// A row the page break cut: Chrome and word processors let a row run over a page break, so the
// table's last row on one page and its first on the next are one row's two parts. Spacing cannot
// tell them apart from two rows (the next page's part starts a line like any row), so the cells'
// text decides, against the table's other rows:
// - a cell left empty in a column every other row fills (the cut row's shorter cells ended
//   before the break, so the next page's part holds nothing there);
// - a cell cut mid-sentence, in a column whose cells are sentences: the part above the break
//   ends without a sentence's stop and the part below starts in lower case.
// Neither counts where both parts start with a one-word name (an option's identifier) well
// shorter than the column's longest word: the column is wide enough for that longer word, so no
// break fell inside the name, and the next page's name starts a row of its own (a row that left
// its other cells empty, as an option with no default does). A name as long as the column's
// longest word may have been broken (LibreOffice breaks a word too long for a column's fixed
// width). Pure functions over cell texts, one array of texts a row.

type Row = readonly string[];

/** A column of sentences: this many of its other cells at least, nearly all ending in a stop. */
const MIN_SENTENCES = 3;
/** Share of a column's other cells that may end without a stop (an abbreviation, a list). */
const UNSTOPPED_SHARE = 0.2;
/** A sentence ends in a stop, maybe closed by a quote or bracket. */
const STOP = /[.!?。！？][)"'”’»」]?$/u;
const STARTS_LOWER = /^\p{Ll}/u;
/** One word of Latin letters, digits and an identifier's marks: no line break falls inside it unless the column is too narrow for it. */
const ONE_WORD = /^[A-Za-z0-9_.$:-]+$/;
/** A name shorter than this share of the column's longest word fit in the column whole. */
const FITS = 0.8;

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

/** Whether both parts start with a one-word name, the upper one short enough for its column that no break fell inside it. */
function wholeNames(above: Row, below: Row, others: readonly Row[]): boolean {
  const name = above[0] ?? '';
  if (!ONE_WORD.test(name) || !ONE_WORD.test(below[0] ?? '')) return false;
  const longest = Math.max(0, ...others.flatMap((row) => (row[0] ?? '').split(/\s+/).map((word) => word.length)));
  return name.length < longest * FITS;
}

/**
 * Whether `below` (the next page's first row) goes on with `above` (the last row before the
 * break), judged by the table's `others` rows (its body, these two and the header aside).
 */
export function cutByBreak(above: Row, below: Row, others: readonly Row[]): boolean {
  if (above.length !== below.length || below.every((text) => text === '') || above.every((text) => text === '')) return false;
  if (wholeNames(above, below, others)) return false;
  const columns = above.map((_, column) => column);
  const leftEmpty = columns.some((c) => below[c] === '' && above[c] !== '' && alwaysFilled(others, c));
  return leftEmpty || columns.some((c) => sentenceColumn(others, c) && cutMidSentence(above, below, c));
}
