// Captions and the figures they name. A paper's figure drawn as vector graphics (pdfTeX's
// \includegraphics of a PDF: a model's diagram, a matrix of tokens, a heat map's labels) keeps
// its words as text, in rows that line up like a table's. Its caption ("Figure 3:", "Fig. 1.")
// stands right under it or right over it; such rows are the figure's, not a table. A caption
// itself ("Table 2:" over its table, as LaTeX's \caption before a tabular sets it) is no row
// of a table: its words spaced out by justification read as cells. Pure functions over rows.

/** A caption of a figure: "Figure 3:", "Fig. 1.", "FIGURE 2 –"; "Figure 3 shows …" is prose. */
const FIGURE_CAPTION = /^(?:figure|fig\.)\s*\d+(?:\.\d+)*\s*[.:–—-]/iu;

/** A caption of a table or a figure: "Table 2:", "Table 1.", "Figure 3:". */
const CAPTION = /^(?:table|figure|fig\.)\s*\d+(?:\.\d+)*\s*[.:–—-]/iu;

/** Whether the row is a table's or a figure's caption: no table's row. */
export const isCaption = (row: { text: string }) => CAPTION.test(row.text.trim());

/** A caption stands within this many ems (of its own size) of the figure it names. */
const CAPTION_GAP_EMS = 2.5;

/** What is read of a row: its text, where it lies (y down) and its size. */
interface CaptionRow {
  text: string;
  top: number;
  bottom: number;
  size: number;
}

/** A row with where it starts and ends across the page. */
interface CaptionLine extends CaptionRow {
  x: number;
  right: number;
}

/** Whether the row is a figure's caption. */
export const isFigureCaption = (row: CaptionRow) => FIGURE_CAPTION.test(row.text.trim());

/**
 * Whether the rows from `start` to `end` (one past) have a figure's caption right under them
 * or right over them, within CAPTION_GAP_EMS: they are that figure's text, no table.
 */
export function nextToFigureCaption(rows: readonly CaptionRow[], start: number, end: number): boolean {
  const [first, last] = [rows[start], rows[end - 1]];
  const [above, below] = [rows[start - 1], rows[end]];
  const near = (caption: CaptionRow | undefined, gap: number) => caption !== undefined && isFigureCaption(caption) && gap <= caption.size * CAPTION_GAP_EMS;
  return (
    (last !== undefined && below !== undefined && near(below, below.top - last.bottom)) ||
    (first !== undefined && above !== undefined && near(above, first.top - above.bottom))
  );
}

/** A caption's next line follows within this many ems of room (its leading; a paragraph stands further). */
const CAPTION_LEADING_EMS = 0.5;

/** A caption's next line starts within this many ems of its first line's left (a justified paragraph's lines start together; an opening quote hangs a little). */
const CAPTION_LEFT_EMS = 0.5;
/** The line above a caption's next line runs at least this many ems near that line's end: it was full, and wrapped. */
const CAPTION_FULL_EMS = 1;

/**
 * The indices of the rows that are captions' lines: each caption row and the lines of its
 * paragraph after it — in its size, each within CAPTION_LEADING_EMS under the line above, from
 * the caption's left, under a line above that ran full (out to this line's end or further: it
 * wrapped). A caption wrapped onto more lines justifies its words apart like any paragraph's,
 * and such lines read as a table's rows of two cells. A table right under a one-line caption
 * starts elsewhere or runs further than the caption.
 */
export function captionLines(rows: readonly CaptionLine[]): Set<number> {
  const out = new Set<number>();
  rows.forEach((row, i) => {
    if (!isCaption(row)) return;
    out.add(i);
    for (let k = i + 1; k < rows.length && continuesCaption(row, rows[k - 1] as CaptionLine, rows[k] as CaptionLine); k++) out.add(k);
  });
  return out;
}

/** Whether `line`, right under `above`, goes on with the caption that starts at `caption` (see captionLines). */
function continuesCaption(caption: CaptionLine, above: CaptionLine, line: CaptionLine): boolean {
  const em = caption.size;
  return (
    !isCaption(line) &&
    Math.abs(line.size - em) <= em * 0.05 &&
    line.top - above.bottom <= em * CAPTION_LEADING_EMS &&
    Math.abs(line.x - caption.x) <= em * CAPTION_LEFT_EMS &&
    above.right >= line.right - em * CAPTION_FULL_EMS
  );
}
