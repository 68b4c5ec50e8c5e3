// docs/reading-quality.md from the scores of test/bench/read-quality.ts: the held-out corpus
// (read-corpus-heldout.ts) per format and language beside issue 31's targets, then the tuned set
// (read-corpus.ts) on its own, times, and every document's scores.

import path from 'node:path';
import { isRightToLeft, type CorpusDocument } from './read-corpus.js';
import type { DocumentScores } from './read-metrics.js';

export interface Scored {
  doc: CorpusDocument;
  engine: string;
  scores: DocumentScores;
  ms: number;
  /** A PDF's page count, for docwasm's seconds per page. */
  pages?: number;
}

/** Issue 45's targets (for the hidden corpus; held to here on the held-out one). */
const TARGET = { overall: 0.93, format: 0.88, pdfTables: 0.85, pdfHeadings: 0.85, rightToLeft: 0.85, secondsPerPage: 0.05 };

/**
 * The hidden corpus of issue 31 (159 documents, 37 Chinese, scored by the issue's author
 * 2026-11-27 with the same metrics): docwasm and MarkItDown per format. `null`: no reader.
 */
const HIDDEN: Readonly<Record<string, { docs: number; docwasm: string; markitdown: string | null }>> = {
  docx: { docs: 33, docwasm: '0.931 (0.925 / 0.901 / 0.972)', markitdown: '0.911' },
  html: { docs: 31, docwasm: '0.949', markitdown: '0.957' },
  odt: { docs: 19, docwasm: '0.956', markitdown: null },
  rtf: { docs: 6, docwasm: '0.969', markitdown: '0.053' },
  ods: { docs: 6, docwasm: '0.853', markitdown: null },
  xlsx: { docs: 10, docwasm: '0.783', markitdown: '0.685' },
  pptx: { docs: 10, docwasm: '0.749', markitdown: '0.736' },
  odp: { docs: 6, docwasm: '0.690', markitdown: null },
  pdf: { docs: 38, docwasm: '0.736 (0.905 / 0.405 / 0.740)', markitdown: '0.430' },
};
const HIDDEN_ALL = { docs: 159, docwasm: '0.860', markitdown: '0.559' };

const mean = (values: readonly (number | null)[]) => {
  const present = values.filter((v): v is number => v !== null);
  return present.length ? present.reduce((a, b) => a + b, 0) / present.length : null;
};
const fmt = (v: number | null) => (v === null ? '–' : v.toFixed(2));
const ofEngine = (rows: readonly Scored[], engine: string) => rows.filter((r) => r.engine === engine);
const overallOf = (rows: readonly Scored[]) => mean(rows.map((r) => r.scores.overall));

function summary(rows: readonly Scored[]): string {
  const overall = overallOf(rows);
  if (overall === null) return '';
  return `${fmt(overall)} (${fmt(mean(rows.map((r) => r.scores.nid)))} / ${fmt(mean(rows.map((r) => r.scores.teds)))} / ${fmt(mean(rows.map((r) => r.scores.mhs)))})`;
}

/** docwasm's seconds per PDF page over `rows` (warm reads), or null without PDFs. */
function secondsPerPage(rows: readonly Scored[]): number | null {
  const pdfs = ofEngine(rows, 'docwasm').filter((r) => r.pages);
  const pages = pdfs.reduce((n, r) => n + (r.pages as number), 0);
  return pages ? pdfs.reduce((t, r) => t + r.ms, 0) / 1000 / pages : null;
}

const mark = (met: boolean) => (met ? 'yes' : '**no**');

/** The target a row is held to and whether docwasm meets it. */
function targetCells(label: string, rows: readonly Scored[]): [string, string] {
  const ours = ofEngine(rows, 'docwasm');
  const overall = overallOf(ours) ?? 0;
  if (label === 'pdf') {
    const teds = mean(ours.map((r) => r.scores.teds)) ?? 0;
    const mhs = mean(ours.map((r) => r.scores.mhs)) ?? 0;
    const spp = secondsPerPage(rows) ?? 0;
    return [
      `≥ ${TARGET.format}, TEDS ≥ ${TARGET.pdfTables}, MHS ≥ ${TARGET.pdfHeadings}, ≤ ${TARGET.secondsPerPage} s/page`,
      `${mark(overall >= TARGET.format)}, ${mark(teds >= TARGET.pdfTables)}, ${mark(mhs >= TARGET.pdfHeadings)}, ${mark(spp <= TARGET.secondsPerPage)} (${spp.toFixed(3)} s/page)`,
    ];
  }
  if (label === '**all**') return [`≥ ${TARGET.overall}`, mark(overall >= TARGET.overall)];
  if (label === 'right-to-left') return [`≥ ${TARGET.rightToLeft}`, mark(overall >= TARGET.rightToLeft)];
  if (label === 'English' || label === 'Chinese') return ['', ''];
  return [`≥ ${TARGET.format}`, mark(overall >= TARGET.format)];
}

function engineOrder(scored: readonly Scored[]): string[] {
  return ['docwasm', ...new Set(scored.map((s) => s.engine).filter((e) => e !== 'docwasm'))];
}

const docCount = (rows: readonly Scored[]) => new Set(rows.map((r) => r.doc.file)).size;

/** Per format, all, English and Chinese: every engine side by side (and, when `withTargets`, the targets). */
function formatTable(rows: readonly Scored[], engines: readonly string[], withTargets: boolean): string {
  const formats = [...new Set(rows.map((s) => s.doc.format))].sort();
  const extra = withTargets ? ' target | met |' : '';
  const line = (label: string, part: readonly Scored[]) => {
    const cells = engines.map((e) => summary(ofEngine(part, e)) || '–').join(' | ');
    const ms = Math.round(mean(ofEngine(part, 'docwasm').map((r) => r.ms)) ?? 0);
    return `| ${label} | ${docCount(part)} | ${cells} |${withTargets ? ` ${targetCells(label, part).join(' | ')} |` : ''} ${ms} |`;
  };
  return [
    `| format | docs | ${engines.join(' | ')} |${extra} docwasm ms/doc |`,
    `|---|---|${engines.map(() => '---').join('|')}|${withTargets ? '---|---|' : ''}---|`,
    ...formats.map((f) =>
      line(
        f,
        rows.filter((s) => s.doc.format === f),
      ),
    ),
    line('**all**', rows),
    line(
      'English',
      rows.filter((s) => !s.doc.chinese),
    ),
    line(
      'Chinese',
      rows.filter((s) => s.doc.chinese),
    ),
    ...(rows.some((s) => isRightToLeft(s.doc.groundTruth))
      ? [
          line(
            'right-to-left',
            rows.filter((s) => isRightToLeft(s.doc.groundTruth)),
          ),
        ]
      : []),
  ].join('\n');
}

function hiddenComparison(heldOut: readonly Scored[], tuned: readonly Scored[]): string {
  const ours = (rows: readonly Scored[]) => summary(ofEngine(rows, 'docwasm')) || '–';
  const ofFormat = (rows: readonly Scored[], f: string) => rows.filter((s) => s.doc.format === f);
  return [
    '| format | held-out here (docs) | hidden corpus, docwasm (docs) | hidden corpus, MarkItDown | tuned set here |',
    '|---|---|---|---|---|',
    ...Object.entries(HIDDEN).map(
      ([f, h]) =>
        `| ${f} | ${ours(ofFormat(heldOut, f))} (${docCount(ofFormat(heldOut, f))}) | ${h.docwasm} (${h.docs}) | ${h.markitdown ?? 'no reader'} | ${ours(ofFormat(tuned, f))} |`,
    ),
    `| **all** | ${ours(heldOut)} (${docCount(heldOut)}) | ${HIDDEN_ALL.docwasm} (${HIDDEN_ALL.docs}) | ${HIDDEN_ALL.markitdown} | ${ours(tuned)} (${docCount(tuned)}) |`,
  ].join('\n');
}

/** The program that made a PDF of the corpus: the producers' part names its own, the held-out pages are LibreOffice Writer's. */
const PRODUCER_OF: Readonly<Record<string, string>> = {
  chrome: "Chrome's print (Skia/PDF)",
  'chrome-numbered': "Chrome's print, a manual's numbered headings at body size",
  groff: 'groff (gropdf), numbered headings',
  ghostscript: 'groff → Ghostscript',
  impress: 'LibreOffice Impress (slides)',
  docling: "docling's test PDFs (InDesign, pdfTeX, PDFium, Word, PowerPoint)",
};
const producerOf = (doc: Scored['doc']) => PRODUCER_OF[doc.source] ?? 'LibreOffice Writer';

/** The PDFs by producer, held-out and dev halves apart: every engine side by side. */
function producerTable(scored: readonly Scored[], engines: readonly string[]): string {
  const pdfs = scored.filter((s) => s.doc.format === 'pdf' && s.doc.set !== 'tuned');
  const pdfEngines = engines.filter((e) => pdfs.some((s) => s.engine === e));
  const groups = [...new Set(pdfs.map((s) => `${producerOf(s.doc)}\t${s.doc.set}`))].sort();
  const line = (label: string, set: string, rows: readonly Scored[]) =>
    `| ${label} | ${set} | ${docCount(rows)} | ${pdfEngines.map((e) => summary(ofEngine(rows, e)) || '–').join(' | ')} |`;
  return [
    `| producer | set | docs | ${pdfEngines.join(' | ')} |`,
    `|---|---|---|${pdfEngines.map(() => '---').join('|')}|`,
    ...groups.map((g) => {
      const [producer, set] = g.split('\t') as [string, string];
      return line(
        producer,
        set,
        pdfs.filter((s) => producerOf(s.doc) === producer && s.doc.set === set),
      );
    }),
    line(
      '**all**',
      'held-out',
      pdfs.filter((s) => s.doc.set === 'held-out'),
    ),
    line(
      '**all**',
      'dev',
      pdfs.filter((s) => s.doc.set === 'dev'),
    ),
  ].join('\n');
}

function timeTable(scored: readonly Scored[], engines: readonly string[]): string {
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
  const cell = (rows: readonly Scored[]) => (rows.length ? String(Math.round(median(rows.map((r) => r.ms)))) : '–');
  const formats = [...new Set(scored.map((s) => s.doc.format))].sort();
  return [
    `| format | ${engines.join(' | ')} |`,
    `|---|${engines.map(() => '---').join('|')}|`,
    ...formats.map((f) => `| ${f} | ${engines.map((e) => cell(scored.filter((s) => s.doc.format === f && s.engine === e))).join(' | ')} |`),
  ].join('\n');
}

function perDocumentTable(scored: readonly Scored[]): string {
  const rows = ofEngine(scored, 'docwasm').map((s) => {
    const peers = scored.filter((p) => p.doc === s.doc && p.engine !== 'docwasm' && p.scores.overall !== null);
    const best = peers.sort((a, b) => (b.scores.overall as number) - (a.scores.overall as number))[0];
    return `| ${path.basename(s.doc.file)} | ${s.doc.set} | ${s.doc.source} | ${fmt(s.scores.overall)} | ${fmt(s.scores.nid)} | ${fmt(s.scores.teds)} | ${fmt(s.scores.mhs)} | ${best ? `${best.engine} ${fmt(best.scores.overall)}` : '–'} |`;
  });
  return ['| document | set | source | docwasm overall | NID | TEDS | MHS | best peer |', '|---|---|---|---|---|---|---|---|', ...rows].join('\n');
}

/** The classes of issue 45 the held-out figures still show, as the run of 2026-12-05 measured them (to be rewritten with the figures). */
const REMAINING = `## What remains (issue 45)

Where the held-out figures still fall short, by class (examples from the dev and tuned sets; the
held-out documents' own output is not looked at):

- **PDF tables** (TEDS in the held-out table above): rule-less columns are found by left edges
  and where flush-right numbers (or a manual's flush-right option names) end, two-level headers
  are header rows (pdf-table-columns.ts); a cell's wrapped lines join their row
  (pdf-table-wraps.ts) unless the cell above it ended with room for the line's first word (key/value
  pairs side by side, the tuned set's REPAIR invoice: "Color" under "VIN" is a row of its own, where
  rows and a cell's lines are spaced alike), and a table continued on the next page is one table,
  its repeated header dropped and a cell the break cut joined (pdf-table-pages.ts). A row whose
  cells are centred vertically (Chrome's print of pandoc's tables: a name between its
  description's lines, or on the middle one) is one band (pdf-table-bands.ts), a heading between
  two ruled tables of one width is no header of the second (pdf-rules.ts), and a code line whose
  words Ghostscript sets apart, every piece monospaced, is in no table; a table set right to left is
  read in its columns' order (pdf-rtl-tables.ts, under Right-to-left); a cell's piece whose every
  glyph the PDF sets in a monospaced font is a code span (\`\` \`--url-classes\` \`\`, nothing escaped
  inside it; dev TEDS 0.904 → 0.914, producers 0.952 → 0.972). In a table ruled by horizontal
  lines, a header line that names groups of the columns below it — over a short rule (LaTeX's
  \`\\cline\`, booktabs' \`\\cmidrule\`) or wider than one column, the lines under it naming two of
  the group's columns apart — is a header row of cells spanning their columns, each column's own
  name spanning the header's rows (pdf-header-spans.ts); a column that every row leaves free stays
  apart though no wider than the cell gap (LaTeX's 12 pt between numbers set flush right and the
  next column's text: \`7.2 Early sowing\` was one cell; pdf-table-runs.ts), and cells outlined
  one by one (Chrome's print of a table with \`border-spacing\`: boxes of one cell a few points
  apart, no ruling touching a neighbour's) are met halfway into one ruled grid
  (pdf-cell-outlines.ts; \`Yield Remarks\` was one cell). All three on tables made here (pdflatex,
  Chrome); the dev sets and the held-out figure did not move. A dev set of Chrome's tables
  (read-dev.ts \`--chrome-tables\`: 10 more RocketMQ and Persian react.dev pages) read TEDS
  0.656 → 0.731 → 0.805 (first figure with this machine's fonts 0.695): on a right-to-left page a
  table at the text's right edge is read from the right whatever its cells' script (tables of
  code), and so is an English table on a page set flush right and ragged left (pdf-rtl-tables.ts);
  a row whose every cell wraps, beside rows with a cell centred on its neighbours' lines, stays
  one row; a ruled table the page break cuts under its (wrapped) header is read to the page's
  end under it, and a page's rule as wide as a table under it is no header (pdf-rules.ts); a
  right-to-left page's row of Latin cells with Persian words is cut by where its glyphs stand,
  the Persian cells in logical order (pdf-pieces.ts). Chrome's held-out prints: TEDS 0.36 → 0.47.
  Then (\`--chrome-tables\` with seven Arthas documents with tables that no corpus list holds
  added, 17 pages): two ruled tables of one width with a heading, a lead-in line, paragraphs or
  code between them are two tables, text standing an em off both rules around it being no row
  (pdf-rule-sections.ts); a right-to-left table continued on the next page, read from the left
  there, is turned to match its first part before it is joined (pdf-table-pages.ts); a line of
  code in a right-to-left paragraph is read in logical order, and a page of English set right to
  left is taken as such (pdf-page-direction.ts, pdf-bidi.ts: \`directives\` TEDS 0 → 0.995). The
  ten pages 0.754 → 0.946 on this machine's prints, the seventeen 0.919 → 0.954; the held-out
  figures did not move with them (the producers' held-out TEDS 0.794 → 0.793): the held-out
  Chrome prints lose on a class these pages do not show, and Arthas has no page with a table left
  outside the corpus lists. Then three new dev sources, none in any other list in any language or
  format: DataX's plugin manuals (alibaba/DataX, Apache-2.0; \`read-dev.ts --manuals\`, 14 printed
  by LibreOffice as the held-out PDFs are, 2 by groff → Ghostscript), pdfTeX papers typeset here
  from docling's LaTeX test sources (\`--docling\`), and react.dev's Arabic prints of its table
  pages (\`--chrome-tables\`, now 23 pages). On them: a paragraph's last line over a borderless
  table, a paragraph's spacing above its rows and off its columns' edges, is no row or header of
  it, and a heading that far under a table ends it (pdf-lead-in.ts); a row the page break cuts is
  joined where the next page's part leaves empty a cell every other row fills or goes on
  mid-sentence in a column of sentences (pdf-cut-rows.ts), a cut Chinese cell without a space;
  rows at two exact spacings, the narrower only after a cell that wrapped, are rows by spacing
  (Chrome's 1.25; pdf-row-spacing.ts); a word LibreOffice breaks in a narrow cell with no hyphen,
  its first part running to the column's limit, is one word again (pdf-word-breaks.ts); a
  headerless table's first row keeps its wrapped lines; a band no wider than a word space that
  one row fills is no gutter; bold and italic words inside a cell and a cell wholly in italic
  read \`**bold**\` and \`*italic*\` (pdf-piece-style.ts; a cell bold as a whole stays plain: forms
  bold their label columns and totals, which their ground truth does not); in a table ruled by
  horizontal lines, lines of one number each in two columns or more are rows of their own beside
  a \`\\multirow\` cell (pdf-numeric-rows.ts), columns half an em apart that every body row leaves
  free are columns (pdf-tight-columns.ts), and booktabs' room around a rule does not make even
  rows read as padded. Manuals TEDS 0.774 → 0.829, docling papers 0.252 → 0.316, Chrome tables
  (23 pages) 0.943 → 0.952; the held-out PDFs with tables 0.841 → 0.847. Then, with Chrome's
  prints of the DataX pages added to the manuals set (30 pages): a borderless table's header
  whose cells wrap upwards (pandoc's DOCX sets them at the cell's bottom, so the upper lines stand
  one line apart over the line holding every column's last words, where rows stand a padding
  apart) is the table's header row, not a paragraph or a table of its own (pdf-header-lines.ts),
  and a reading that joins a first column's name broken mid-word gives way only to one finding
  more columns; a paragraph's line over a table is told by the table's own row spacing
  (pdf-lead-in.ts); a row whose cells line up with a row above stays in the table however far
  below it (numbers LibreOffice breaks in narrow columns set each row on two lines); a ruled
  header's cells over no body column are columns (pdf-header-columns.ts: a results table whose
  body fills its first column alone); a lone line of three cells or more between two rules is a
  row however far off them (a table Chrome clips at the page's edge, its header stood off like a
  heading); two one-word names well shorter than the column's longest word are two rows, not one
  the break cut (pdf-cut-rows.ts); a table cut inside its first body row has that row's part above
  the break read by the spacings its part below shows (pdf-cut-spacing.ts: ar/fa
  referencing-values 0.790 → 0.986); a figure's words next to its \`Figure N:\` caption are no
  table, and a caption is no row (pdf-figure-captions.ts). Manuals TEDS 0.866 → 0.924, Chrome
  tables 0.952 → 0.970, docling papers 0.316 → 0.411; in-process held-out TEDS 0.875 → 0.904.
  Left: a header stacked over narrow columns at the cells' bottom (mupdf makes each cell a block
  starting at its own height; joining such blocks' lines into rows read other tables' cells into
  prose, held-out NID 0.948 → 0.941, so it was taken out), a header over an empty body
  (tdenginewriter-CN), a repeated two-line header over a gap on a continuation page (odpswriter),
  a name LibreOffice breaks at the page break as well as mid-word, pdfTeX figures whose caption
  stands above them with rows between, \`\\multirow\` groups inside a ruled grid's cells (docling's
  ground truths disagree on them), a table Chrome clips at the page's edge (the glyphs past the
  clip are not in the PDF). Left: code inside a sentence
  shares the sentence's piece and stays plain, escaped (\`\\[maxBlocks \\<arg>]\`), and a producer
  that drops the monospaced font (pandoc's docx through LibreOffice) leaves none; header cells
  spanning columns of a table with no rules; bands where rows and a cell's lines are spaced
  alike (groff, LaTeX: nothing tells a centred cell's band apart there).
- **Headings in PDFs without an outline**: where a PDF carries bookmarks (LibreOffice, Word,
  LaTeX, groff's pdfmark) the outline names the headings and their levels (pdf-outline.ts).
  Chrome's prints carry none: a bold line at the body size is a heading where the text below it
  does not follow at line spacing (pdf-headings.ts \`standsApart\`; bold words that fill a line of
  a paragraph stay in it, pdf-paragraphs.ts), and the Type 3 copy of a face that Chrome draws
  bold where the machine has no bold face counts as bold (wasm/pdf/synthetic-bold.ts: react.dev's
  Arabic callout titles, \`####\`). A bold one-line \`1. Scope\` at the body size is a section's
  heading, not a list item, where the document sets such lines at depth 1 and deeper (groff's -ms
  \`.NH\`; pdf-headings.ts \`numberedTitle\`), and a bare page number standing last (or first) in
  the page's outer quarter is left out (pdfTeX's foot, above the footer band; pdf-running-lines.ts).
  The dev corpus read-corpus-headings.ts (groff -ms, pdfTeX's article, LibreOffice's PDF of a DOCX
  whose headings are bold runs; \`read-dev.ts --headings\`) reads whole. Left: docling's test PDFs
  (InDesign, pdfTeX, Word) stay below: their classes are not named here, as their output is not
  looked at; a pdfTeX title page's author line, set larger than the body, reads as a heading.
- **HTML**: a page title said twice — pandoc's standalone title block over the page's own first
  heading, or a template's title over its article's — is one heading (html-headings.ts; the
  HTML dev pages of \`read-dev-html.ts\`, RocketMQ's English docs by pandoc, MHS 0.88 → 0.97).
  Where docling's ground truth differs by rule, it stays: links without a scheme (\`#anchor\`,
  \`/page.html\`) are text (the contract keeps only http(s) and mailto links: hyperlink_03 0.76
  against MarkItDown's 0.96), spanned cells are an HTML table, not repeated (example_08), and a
  page's navigation, language list and sidebars are left out (wiki_duck, whose truth keeps them).
- **Right-to-left**: a right-to-left line is read by where its glyphs stand when it is drawn in
  visual order (Chrome's word by word, pdf-bidi.ts) or belongs to a flush-right block of a
  right-to-left page (Chrome draws Hebrew run by run from the left, each run in logical order;
  pdf-pieces.ts), also on a page read from mupdf's lines (wasm/pdf/right-to-left-lines.ts), with
  numbers, a sign with its number and a bracket pair kept inside their left-to-right run (bidi
  W5, N0), Arabic-Indic and Persian digits left to right, the lam-alef ligature lam first (Chrome
  and LibreOffice map it alef then lam: \`تعاملات\` was read \`تعامالت\`, \`خلال\` \`خللا\`), a Latin
  line of a right-to-left paragraph with its full stop or colon at its end; the body's ink is the
  prose's where code in another colour outweighs it. Hebrew documents are in the corpora
  (read-corpus-hebrew.ts: four texts written here, each as DOCX, HTML and two PDFs); the
  right-to-left row above counts 8 of them, written here and so easier than the react.dev pages.
  Numbers side by side in a right-to-left run read from the right, each left to right (bidi W4,
  N1: Chrome's \`09:00–19:00\` was read \`19:00–09:00\`); the article's alef after a lone \`و\`, which
  Chrome maps to a space or to nothing before the lam-alef ligature, is an alef (\`و لانضباط\` →
  \`والانضباط\`); a right-to-left line read by position is cut where its glyphs stand apart (a table
  row's cells), and a table of right-to-left text reads from the right where it stands at the right
  margin (Chrome's) and from the left where it stands off it (LibreOffice's print of pandoc's
  table, whose first column is at the left), whichever way its detector ordered the columns
  (pdf-rtl-tables.ts; he-library-services, Chrome's and LibreOffice's prints, 0.59 and 0.62 →
  1.00). What remains: list numbers of right-to-left lists (\`.4\` for \`4.\`: put first, the items
  became a list that took the heading after it for its continuation — a list's continuation is
  judged by left indents, which a right-to-left page does not keep); in a table of pandoc's docx
  printed here by LibreOffice without a reference document, a cell's number range drawn as three
  runs is read left to right (\`19:00 – 09:00\`) and the line after the table joins its last row.
- **Slides**: a group's shapes are placed by the group's transform, and an untitled slide is
  headed by its one text set largest, never by its content placeholder (pandoc's quote under a
  \`#\`; pptx.ts). A title keeps its code spans (pptx and odp). A short bold paragraph is a \`###\`
  label; in a deck that sets its labels apart by space above them (pandoc's \`###\`), one without
  that space is bold text (\`**Caveats**\`), and one ending in a colon is a label only where it is
  set apart with content after it (\`### Options:\` against \`**Note:**\`). odp reads the same way:
  LibreOffice turns the space into a paragraph style's \`fo:margin-top\`, set above every
  paragraph of a box, so a paragraph is set apart when its margin is more than the box's least.
  An untitled slide after a slide that shows its title alone continues that title's section and
  is headed by it (slide-sections.ts, pptx and odp): pandoc sets a \`#\` heading's title on a slide
  of its own and the text under it on the next slide, untitled, which was \`## Slide 2\` (\`## page2\`
  in LibreOffice's odp). Pandoc decks made here from 34 docs pages no set holds: pptx 0.848 →
  0.906 (MHS 0.72 → 0.84), odp 0.847 → 0.903; held-out pptx 0.880 → 0.899 (MHS 0.84 → 0.88),
  odp 0.885 → 0.905 (MHS 0.80 → 0.85). Any other untitled slide is \`## Slide N\`. MHS compares the headings as a flat list, so what a deck still
  loses there is that heading on docling's untitled slides, which its ground truth leaves out with
  the speaker notes, and the title said twice where pandoc's Markdown says it once. Not changed
  here: the contract says one \`## \` section per slide, and notes after it as a quote. A bold
  paragraph whose code is a bold Courier run beside its bold words (pandoc's
  \`\`### Check the \`out\` value\`\`) is one \`###\` label (pandoc deck of a dev page, en-watch: MHS 0.53
  → 0.88). Left: code blocks come without a language (pandoc keeps none in a pptx); a \`>\` quote is
  plain text (pandoc sets it only as an indent at 20 pt); a code block inside a numbered item comes
  out of LibreOffice's odp as one numbered item a line; a code line starting \`# \` is a heading to
  the metric, which reads headings inside fenced code (pandoc's ground truth indents such code).
- **Peers**: MarkItDown fails on three documents here (an unrecognised shape, a control character
  in a slide, an external image in a docx) — scored as empty, as a user would get; pymupdf4llm
  0.0.27 in WebAssembly returns no text for most of Chrome's prints (not investigated: the peer
  is run as packaged).

`;

/** How the Python peers were run here (PyPI is out of reach; issue 45 asks for both beside docwasm). */
const RUNNING_PEERS = `## Running the peers

Neither Python peer is installed by \`npm install\` or used by \`npm test\`; the bench adds a column
for each one it finds.

- **MarkItDown** runs from its source with Debian 12's \`/usr/bin/python3\`: \`MARKITDOWN_SRC\` is
  a checkout's \`packages/markitdown/src\` (github.com/microsoft/markitdown), run as
  \`python3 -m markitdown FILE\`, one process a document. Debian packages most of what it needs:
  \`apt-get install python3-bs4 python3-charset-normalizer python3-requests python3-defusedxml
  python3-lxml python3-pdfminer python3-openpyxl python3-pandas python3-xlrd python3-olefile
  python3-xlsxwriter python3-pil\`. Debian has no package of five pure-Python ones — markdownify,
  mammoth and its cobble, python-pptx, pdfplumber — whose source directories (\`markdownify/\`,
  \`mammoth/\`, \`cobble/\`, \`src/pptx/\`, \`pdfplumber/\`) go into one folder named by
  \`MARKITDOWN_PYTHONPATH\`. Two it imports have native parts and no Debian package, so a
  stand-in module of a few lines sits in that folder in their place: **magika** (onnxruntime; it
  only guesses a file's type from its bytes — the stand-in guesses nothing, so the file's
  extension decides, which is right for every file here) and **pypdfium2** (pdfplumber renders
  page images with it, which MarkItDown never asks for). Debian's pdfminer (20221105) is older than
  MarkItDown asks (≥ 20251230); it read every PDF here.
- **pymupdf4llm** cannot run on Debian's packages: its source (github.com/pymupdf/pymupdf4llm,
  1.28.2) requires PyMuPDF 1.28.2 and pymupdf_layout, and the release the WebAssembly package
  carries, 0.0.27, PyMuPDF ≥ 1.26.3 (it calls \`find_tables\`); Debian 12's python3-fitz is PyMuPDF
  1.21.1 and pymupdf_layout is not packaged. It runs in WebAssembly instead:
  \`npm install --prefix DIR @bentopdf/pymupdf-wasm@0.11.16\` (Pyodide with pymupdf4llm 0.0.27 on
  PyMuPDF 1.26.3) and \`PYMUPDF_WASM_DIR=DIR/node_modules/@bentopdf/pymupdf-wasm\`.`;

export function renderQualityReport(scored: readonly Scored[], date: string): string {
  const engines = engineOrder(scored);
  const heldOut = scored.filter((s) => s.doc.set === 'held-out');
  const tuned = scored.filter((s) => s.doc.set === 'tuned');
  const dev = scored.filter((s) => s.doc.set === 'dev');
  const chinese = docCount(heldOut.filter((s) => s.doc.chinese));
  return `# Reading quality

Written by \`npm run bench:read-quality\` (also part of \`npm run bench\`) on ${date}; do not edit by hand.

Three corpora, scored apart:

- **held-out** (${docCount(heldOut)} documents, ${chinese} Chinese; \`test/bench/read-corpus-heldout.ts\`) — documents
  docwasm's readers were not tuned on, built the way issue 31's hidden corpus is: docling's test
  files with their ground truth (docx, html, odt, ods, odp, pptx, xlsx/xlsm, pdf including three
  right-to-left), and technical documentation rendered here by pandoc and LibreOffice from pinned
  commits of public repositories — Arthas's manual (Chinese and English, Apache-2.0), RocketMQ's
  Chinese docs (Apache-2.0), react.dev's Persian and Arabic pages (CC-BY-4.0) — whose ground truth
  is its source Markdown as pandoc normalises it (spreadsheets: a page's tables, one sheet each);
  and half of the Hebrew documents (\`test/bench/read-corpus-hebrew.ts\`: texts written here, CC0,
  each a DOCX and HTML page by pandoc, a PDF by LibreOffice and one by Chrome's print).
  **This is the figure to hold docwasm to.** It is extracted from local mirrors
  ($READ_CORPUS_MIRRORS) into \`.bench-work/\`, not committed.
  Half of its PDFs are printed by other programs than LibreOffice (\`test/bench/read-corpus-producers.ts\`:
  Chrome's print, groff, Ghostscript, LibreOffice Impress; issue 45), the half named by a hash of
  each name; the other half is the **dev** set below.
- **dev** (${docCount(dev)} documents; \`test/bench/read-corpus-producers.ts\`, \`read-corpus-hebrew.ts\`) — the
  half of the producers' PDFs and of the Hebrew documents the readers may be tuned on
  (\`npx tsx test/bench/read-dev.ts --producers\`, \`--hebrew\`). Three dev sets of tables of
  their own sit outside the bench: Chrome's prints of 23 more pages with Markdown tables
  (\`read-corpus-chrome-tables.ts\`, \`--chrome-tables\`), DataX's manuals printed by LibreOffice,
  groff and Chrome (\`read-corpus-manuals-dev.ts\`, \`--manuals\`) and pdfTeX papers from docling's LaTeX
  sources (\`read-corpus-docling-dev.ts\`, \`--docling\`).
- **tuned set** (${docCount(tuned)} documents; \`test/bench/read-corpus.ts\`, \`fixtures/reading/\`) — the
  documents the readers were developed against; reported on its own below.

Each document is read by docwasm (\`/api/read\`) and by the peers that run offline here, and scored
against its ground truth with the metrics of
[opendataloader-bench](https://github.com/opendataloader-project/opendataloader-bench)
(reimplemented in \`test/bench/read-metrics.ts\` and checked against its published per-document
scores for pymupdf4llm and docling: 1,199 of 1,200 values within 0.01): **NID** reading order
(normalised indel similarity of the whole text), **TEDS** tables (tree edit distance similarity),
**MHS** headings (tree edit distance over the heading/section tree). *overall* is the mean of the
metrics a document has material for. Cells read \`overall (NID / TEDS / MHS)\`; – means the engine
does not read that format or the documents have no table/heading. docwasm's \`<!-- page N -->\`
markers are removed before scoring. Peers: pandoc (\`-t gfm\`), mammoth (npm,
\`--output-format=markdown\`), \`pdftotext -layout\` (poppler; plain text) and, when installed,
MarkItDown (from its source with Debian's Python, \`MARKITDOWN_SRC\`, or its \`markitdown\` command
on PATH) and pymupdf4llm in WebAssembly (npm \`@bentopdf/pymupdf-wasm\`, \`PYMUPDF_WASM_DIR\`); how to
set them up is in "Running the peers" at the end; a peer that is not installed has no column.
*right-to-left* is every document whose letters are a fifth or more Hebrew or Arabic script.
ms/doc is docwasm's mean warm time per document over HTTP on the machine of the run, and
s/page its warm seconds per PDF page (shared machine, so only indicative).

## Held-out corpus

Targets (issue 45): overall ≥ ${TARGET.overall}, every format ≥ ${TARGET.format}, PDF ≥ ${TARGET.format} with tables (TEDS) ≥ ${TARGET.pdfTables} and headings (MHS) ≥ ${TARGET.pdfHeadings}, right-to-left ≥ ${TARGET.rightToLeft}, ≤ ${TARGET.secondsPerPage} s per PDF page.

${formatTable(heldOut, engines, true)}

### Beside the hidden corpus of issue 31

The hidden corpus (159 documents, 37 Chinese) was scored with the same metrics by the issue's
author; its documents are not available here, so its figures sit beside ours, not in one run.

${hiddenComparison(heldOut, tuned)}

### PDFs by producer

${producerTable(scored, engines)}

## Tuned set

${formatTable(tuned, engines, false)}

## Time per document (median ms, warm; peers include their start-up, as a user runs them)

${timeTable(scored, engines)}

## Per document

${perDocumentTable(scored)}

${REMAINING}
${RUNNING_PEERS}
`;
}
