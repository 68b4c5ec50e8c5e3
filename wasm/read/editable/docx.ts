// The editable DOCX of a PDF or a scan, written with the `docx` library from the blocks `read`
// laid out (model.ts): text flows in ordinary paragraphs (never a text box or a positioned
// frame), headings take Word's Heading 1–6 styles, lists are numbered or bulleted through
// numbering definitions, tables are real tables with their merged cells, and each PDF page is a
// section of its own (a new page, of the PDF page's size and margins). The body's size and font
// and the headings' sizes are the PDF's; CJK text is set in an East Asian font.

import type { Code, List, PhrasingContent, RootContent } from 'mdast';
import {
  AlignmentType,
  ColumnBreak,
  Document,
  ExternalHyperlink,
  Footer,
  Header,
  HeadingLevel,
  HeightRule,
  ImageRun,
  LevelFormat,
  LineRuleType,
  Packer,
  PageNumber,
  PageOrientation,
  Paragraph,
  SectionType,
  Table,
  TableBorders,
  TableCell,
  TableRow,
  TextRun,
  VerticalAlignTable,
  WidthType,
  type ILevelsOptions,
  type ISectionOptions,
  type ITableCellBorders,
  type ParagraphChild,
} from 'docx';
import type { PdfTableBox, PdfTextStyle } from '../pdf-layout.js';
import type { PagePicture } from '../../pdf/page-pictures.js';
import type { RunningText } from '../../pdf/read-task.js';
import { displayWidth } from '../../../core/cjk-text.js';
import { BOLD_FACE, plainText, tableCells, type CellSource } from '../blocks.js';
import { columnBands, type Band } from './columns.js';
import { hangingIndent, widthLessMarker, type ListIndent } from './list-indent.js';
import { centredAxis, codeIndent, placement, type Placement } from './placement.js';
import { withSideTablesJoined } from './side-tables.js';
import { borderlessGrid, contentWidths, faceScale, gridLayout, twips, type GridLayout } from './table-columns.js';
import { cellBorders, tableBorders } from './table-rules.js';
import { texFamily } from './tex-faces.js';
import type { EditableCounts, EditableModel, EditablePage } from './model.js';

/** Twips a table cell's text stands in from each side of the cell: LibreOffice's default (0.19 cm). */
const CELL_MARGIN = 108;
/** Points of a table's text where the document names no body size (a scan's is its own style's). */
const DEFAULT_SIZE = 11;
/** The font CJK text is set in: SimSun where Word runs, a metric-compatible face elsewhere. */
const EAST_ASIAN_FONT = 'SimSun';
const CODE_FONT = 'Courier New';
const HEADINGS = [
  HeadingLevel.HEADING_1,
  HeadingLevel.HEADING_2,
  HeadingLevel.HEADING_3,
  HeadingLevel.HEADING_4,
  HeadingLevel.HEADING_5,
  HeadingLevel.HEADING_6,
] as const;
/** Word's margins where the page gives none (an image): an inch. */
const DEFAULT_MARGIN = 72;
const BULLETS = 'bullets';
const NUMBERS = 'numbers';

interface RunStyle {
  /** Half-points, and a family: where a paragraph is set otherwise than the body. */
  size?: number;
  font?: string;
  bold?: boolean;
  italics?: boolean;
  strike?: boolean;
  code?: boolean;
  /** Hex RRGGBB. */
  color?: string;
  /** Percent of its width the text is set at (Word's character scale). */
  scale?: number;
}

/** Font names that say italic (a PDF's font says so only in its name). */
const ITALIC_FONT_NAME = /italic|oblique/i;
/** Darker than this on every channel (0–1) is black as far as a reader can tell: left to the style. */
const NEAR_BLACK = 0.15;
/** Points a paragraph's size stands from the body's before it is set apart (a size measured a little off is the body's). */
const SIZE_APART = 0.75;
/** CSS pixels (Word's picture unit in the library) a point. */
const PIXELS_PER_POINT = 96 / 72;
/** A line's height in ems where its spacing is left to the font (Liberation's and Word's faces: about 1.15). */
const NATURAL_LINE = 1.15;
/** Line pitches a paragraph keeps exactly, in ems of its size: outside them it is a reading's slip, left to the font. */
const PITCH_RANGE = [0.95, 2.5] as const;
/** The most space kept above a block, in points: more is a page's gap (a figure left out, a column's end), not spacing. */
const MOST_SPACE_ABOVE = 72;
/** The part of a line under its baseline, in ems (Liberation's and Word's faces: 0.21). */
const DESCENT = 0.21;
/**
 * Points the bottom margin is narrowed by, the least it is left: lines set at the PDF's pitch fill
 * a page as far down as the PDF's, and a line the renderer's metrics set a point lower would run
 * the page onto a page of its own (each PDF page is a section). Where the page breaks is all a
 * bottom margin decides, so the slack moves no line.
 */
const BOTTOM_SLACK = 36;
const LEAST_MARGIN = 18;

/** The style a block's PDF text carries (read's layout notes its font and colour): italic, and a colour other than black. */
function blockStyle(block: RootContent): RunStyle {
  const pdf = block.data?.pdfText;
  if (!pdf) return {};
  const rgb = pdf.color?.split(',').map(Number) ?? [];
  const coloured = rgb.length === 3 && rgb.some((v) => v > NEAR_BLACK);
  const hex = rgb
    .map((v) =>
      Math.round(Math.min(1, Math.max(0, v)) * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('');
  const scale = narrowedTo(pdf, plainText(block));
  return {
    ...(ITALIC_FONT_NAME.test(pdf.font) && { italics: true }),
    ...(coloured && { color: hex.toUpperCase() }),
    ...(scale !== undefined && { scale }),
  };
}

/** About how many ems `text` takes set in the DOCX's faces, and how many of them its wide (CJK) characters. */
function emsOf(text: string): { ems: number; wide: number } {
  // A wide character takes two of displayWidth's columns: an em in any CJK face.
  const characters = [...text].length;
  const wide = displayWidth(text) - characters;
  const spaces = text.match(/\s/g)?.length ?? 0;
  return { ems: wide + spaces * SPACE_EM + (characters - wide - spaces) * NARROW_EM, wide };
}

/**
 * Whether a line the PDF ends `gap` points short of its column's right edge was ended there (a
 * label, an address's line, a title's first line), not wrapped: the next line's first word (its
 * first character, in CJK text) would have fitted, with an em to spare for the faces' difference.
 */
function endsShort(next: string, gap: number, size: number): boolean {
  const start = next.trimStart();
  const first = start[0] ?? '';
  const word = displayWidth(first) === 2 ? first : (/^\S+/.exec(start)?.[0] ?? '');
  const { ems, wide } = emsOf(word);
  return word !== '' && gap > (ems + (wide ? 0 : SPACE_EM) + 1) * size;
}

/** Ems from a paragraph's longest line within which its lines end together, wrapped (ragged right). */
const WRAPPED_EMS = 3;
/** The share of its column a paragraph's longest line spans before its lines are taken for prose wrapped in a box. */
const BOXED_SHARE = 0.6;
/** A space's advance in ems in the CJK faces (WenQuanYi, SimSun: 0.3–0.5), and a Latin letter's or digit's about. */
const SPACE_EM = 0.3;
const NARROW_EM = 0.55;
/** The least share of a block's width in wide characters before it is fitted: Latin text keeps its face's metrics. */
const WIDE_SHARE = 0.3;
/** Percent of their width CJK text is set at, at the least and where it fits as it is. */
const SCALE_RANGE = [66, 96] as const;

/**
 * CJK text whose face the DOCX cannot name is set in the East Asian font, whose characters are a
 * full em wide; a face that sets them narrower (Korean's KoPub at 0.9 em) would run each
 * paragraph onto more lines than the PDF's, and a page onto the next. Such text is set at the
 * width the PDF gives it: its lines' width against what the East Asian font's would take.
 */
function narrowedTo(pdf: Pick<PdfTextStyle, 'width' | 'size'>, text: string): number | undefined {
  const { ems, wide } = emsOf(text);
  if (ems === 0 || wide / ems < WIDE_SHARE) return undefined;
  const percent = Math.floor((100 * pdf.width) / (ems * pdf.size));
  return percent < SCALE_RANGE[1] ? Math.max(SCALE_RANGE[0], percent) : undefined;
}

/** Where a block's text starts and ends down the page (points from the top), where the PDF says: a list's, each item's. */
function verticalSpans(block: RootContent): [number, number][] {
  const { pdfText, pdfTable } = block.data ?? {};
  if (pdfText) return [[pdfText.baseline, pdfText.lastBaseline]];
  if (pdfTable) return [[pdfTable.top, pdfTable.bottom]];
  return block.type === 'list' ? block.children.flatMap((item) => item.children.flatMap(verticalSpans)) : [];
}

/** A list item's paragraph, its PDF text's width less its marker's (list-indent.ts). */
function lessMarker(block: RootContent, textLeft: number): RootContent {
  const pdf = block.data?.pdfText;
  return pdf ? { ...block, data: { ...block.data, pdfText: { ...pdf, width: widthLessMarker(pdf, textLeft) } } } : block;
}

/** The paragraph a block ends with: a list's, its last item's last. */
function lastParagraph(block: RootContent): RootContent {
  const last = block.type === 'list' ? block.children.at(-1)?.children.at(-1) : undefined;
  return last ? lastParagraph(last) : block;
}

/** Points a block may start above the end of the one before and still be below it (a line's rounding). */
const COLUMN_STEP = 12;
/**
 * Points the blocks of a page may climb back up it in all and still keep the PDF's spacing, one
 * after the other: a note the PDF sets over a table's last row (a booking's small print) takes
 * that much more of the page in the DOCX, which the bottom margin's 36 points of slack hold.
 */
const MOST_CLIMB = 24;

/**
 * Whether each block starts below the one before: a page read in columns (or in an order that
 * climbs back up it) is one column in the DOCX, whose text runs longer than any column of the
 * PDF's, so keeping the PDF's spacing there would only run it onto another page.
 */
function flowsDown(blocks: readonly RootContent[]): boolean {
  let end = -Infinity;
  let climbed = 0;
  for (const span of blocks.flatMap(verticalSpans)) {
    if (span[0] < end - COLUMN_STEP) climbed += end - span[0];
    end = Math.max(end, span[1]);
  }
  return climbed <= MOST_CLIMB;
}

/** Each cell of a row with its width: the columns' it spans (a row holds a cell for each of its columns, those a span covers marked so). */
const spannedWidths = (row: readonly CellSource[], widths: readonly number[]) =>
  row.map((cell, column) => ({ cell, width: widths.slice(column, column + cell.colSpan).reduce((sum, w) => sum + w, 0) }));

/** The counts and a fresh instance number per numbered list (each list starts at 1). */
class Writer {
  readonly counts: EditableCounts = { paragraphs: 0, headings: 0, tables: 0, images: 0 };
  private lists = 0;
  /** Numbering definitions of lists set at the PDF's hanging indent, by reference (pandoc reads a numbered paragraph's own indent as a quotation). */
  readonly hungLists = new Map<string, { ordered: boolean; indent: ListIndent['indent'] }>();
  /** The pictures of the page being written. */
  private pictures: readonly PagePicture[] = [];
  /** Points from the page's top to the foot of what was written last on this page, where it is known. */
  private above: number | undefined;
  /** The table under the block being written, where it is known: its last paragraph (`over`) keeps the space down to it. */
  private tableBelow: (PdfTableBox & { over: RootContent }) | undefined;

  /** The last baseline written on this page, where it is known. */
  private lastBaseline: number | undefined;
  /** The page's blocks run down it in one column: their spacing is the PDF's. */
  private spaced = false;
  /** The next paragraph starts the right column of two. */
  private columnBreak = false;
  /** Points from the page's left edge to the left and right edges of the column being written. */
  private columnLeft = 0;
  private columnRight = Infinity;
  /** The band being written is one column across the text: blocks are centred or set right as the PDF stands them. */
  private acrossText = true;
  /** The axes of the band's centred blocks (placement.ts): a one-line title over one is centred on it. */
  private axes: number[] = [];
  /** Points of space above the first block written down the column being written, and whether that block is being written. */
  private firstBefore = 0;
  private columnStart = false;

  /** `bodyPitch`: the document's usual line pitch in points, for one-line paragraphs; `body`: the body text's size and font. */
  constructor(
    private readonly bodyPitch: number | undefined,
    private readonly body: EditableModel['body'],
    /** How much wider the body's face sets text than table-columns.ts reckons. */
    private readonly faceScale = 1,
  ) {}

  /** The body text's size in points: the document's default run's. */
  get bodySize(): number {
    return this.body?.size ?? DEFAULT_SIZE;
  }

  /**
   * A paragraph's size and family where they are not the body's (small print, a rule of `=`
   * typed in a monospaced face): the document's default holds the body's. A scan has no body
   * style, and OCR's sizes are too rough to keep.
   */
  private bodyApart(block: RootContent): RunStyle {
    const pdf = block.data?.pdfText;
    if (!pdf || !this.body) return {};
    const family = fontFamily(pdf.font);
    return {
      ...(Math.abs(pdf.size - this.body.size) >= SIZE_APART && { size: Math.round(pdf.size * 2) }),
      ...(family !== undefined && family !== fontFamily(this.body.font) && { font: family }),
    };
  }

  /**
   * A heading set in the body's weight (LibreOffice's and Word's own Heading styles are light) is
   * not bold: the heading styles are, for scans, whose weight OCR does not read.
   */
  private headingWeight(block: RootContent): RunStyle {
    const pdf = block.data?.pdfText;
    return pdf && this.body && !pdf.bold && !BOLD_FACE.test(pdf.font) ? { bold: false } : {};
  }

  /** A new page: its pictures, and `top`, its top margin, where its first line box starts when its blocks keep the PDF's spacing. */
  startPage(pictures: readonly PagePicture[] = [], top?: number): void {
    this.pictures = pictures;
    this.above = top;
  }

  /** A band of the page: one column across the text's width, or two, the right one after a column break. */
  band(band: Band, textWidth: number, textLeft: number): (Paragraph | Table)[] {
    this.columnLeft = textLeft;
    this.columnRight = textLeft + textWidth;
    this.acrossText = !band.columns;
    this.axes = band.blocks.flatMap((block) => {
      const pdf = block.data?.pdfText;
      const axis = pdf && centredAxis(pdf);
      return axis === undefined ? [] : [axis];
    });
    if (!band.columns) return this.blocks(band.blocks, textWidth);
    const width = (textWidth - band.columns.space) / 2;
    const top = this.above;
    this.columnRight = textLeft + width;
    const left = this.blocks(band.blocks.slice(0, band.columns.split), width);
    this.columnLeft = textLeft + width + band.columns.space;
    this.columnRight = textLeft + textWidth;
    const foot = this.above;
    // LibreOffice starts the right column where the left one's first line stands, its space above taken.
    this.above = top === undefined ? undefined : top + this.firstBefore;
    this.columnBreak = true;
    const right = this.blocks(band.blocks.slice(band.columns.split), width);
    // A right column that starts with no paragraph of text (a table, a picture) starts after one holding the break.
    if (this.columnBreak) right.unshift(new Paragraph({ children: this.afterBreak([]) }));
    // What follows the band starts under the longer column.
    this.above = foot === undefined || this.above === undefined ? undefined : Math.max(foot, this.above);
    // LibreOffice moves a table that closes a section of columns into the section after (onto the
    // next page where the right column is the longer): a hairline paragraph closes it instead, one
    // more holding the section's break (the library sets the break in a last paragraph's own).
    if (right.at(-1) instanceof Table) right.push(hairline(), hairline());
    return [...left, ...right];
  }

  /**
   * A paragraph's runs, the column break first where it starts the right column: LibreOffice
   * reads a break that opens a paragraph as the paragraph's own, where one that ends the
   * paragraph before leaves an empty line at the column's top.
   */
  private afterBreak(children: ParagraphChild[]): ParagraphChild[] {
    if (!this.columnBreak) return children;
    this.columnBreak = false;
    return [new ColumnBreak(), ...children];
  }

  /** Blocks down one column, spaced as the PDF sets them where they run down it. */
  private blocks(blocks: readonly RootContent[], textWidth: number): (Paragraph | Table)[] {
    this.lastBaseline = undefined;
    this.firstBefore = 0;
    this.spaced = flowsDown(blocks);
    return blocks.flatMap((block, k) => {
      const table = blocks[k + 1]?.data?.pdfTable;
      this.tableBelow = table && { ...table, over: lastParagraph(block) };
      const before = this.above;
      this.columnStart = k === 0;
      const written = this.block(block, textWidth);
      // A block that did not say where it ends (a picture, code) leaves the next one's space unknown.
      if (this.above === before) this.above = undefined;
      return written;
    });
  }

  /**
   * A paragraph's spacing as the PDF sets it: its lines at their pitch (a paragraph's own, or the
   * document's for a one-line one), the space above it that leaves its first line as far below
   * what stands above as on the page, and below it the space down to a table under it — so lines
   * break and pages fill as in the PDF.
   */
  private spacing(block: RootContent, body: boolean): { spacing?: { line?: number; lineRule?: typeof LineRuleType.EXACT; before?: number; after?: number } } {
    const pdf = block.data?.pdfText;
    if (!pdf || !this.spaced) return {};
    const { line, exact } = this.lineOf(pdf, body);
    // A line box holds the font's descent under the baseline, the rest of its height above it.
    const descent = DESCENT * pdf.size;
    const before = this.above === undefined ? undefined : pdf.baseline - (line - descent) - this.above;
    // A block that starts above the foot of what was written before it (small print the PDF sets
    // over a table's last row) stands under it here: what follows is spaced from where it ends here.
    const foot =
      before !== undefined && before < 0 && this.above !== undefined ? this.above + line + pdf.lastBaseline - pdf.baseline : pdf.lastBaseline + descent;
    const after = this.tableBelow?.over === block ? this.tableBelow.top - foot : undefined;
    this.above = foot;
    this.lastBaseline = pdf.lastBaseline;
    const kept = before !== undefined && before > 0 && before <= MOST_SPACE_ABOVE ? before : undefined;
    if (this.columnStart && kept !== undefined) this.firstBefore = kept;
    this.columnStart = false;
    const spacing = {
      ...(exact && { line: twips(line), lineRule: LineRuleType.EXACT }),
      ...(kept !== undefined && { before: twips(kept) }),
      ...(after !== undefined && after > 0 && after <= MOST_SPACE_ABOVE && { after: twips(after) }),
    };
    return Object.keys(spacing).length ? { spacing } : {};
  }

  /**
   * A paragraph's line pitch: its own, or for a one-line one the document's usual, no more than
   * the step down from the line above (list items, a one-line table of contents). Outside
   * PITCH_RANGE it is a reading's slip: the font's own spacing.
   */
  private lineOf(pdf: PdfTextStyle, body: boolean): { line: number; exact: boolean } {
    const step = this.lastBaseline === undefined ? undefined : pdf.baseline - this.lastBaseline;
    const usual = body ? this.bodyPitch : undefined;
    const pitch = pdf.pitch ?? (usual !== undefined && step !== undefined && step > 0 ? Math.min(usual, step) : usual);
    const exact = pitch !== undefined && pitch >= PITCH_RANGE[0] * pdf.size && pitch <= PITCH_RANGE[1] * pdf.size;
    if (exact) return { line: pitch, exact };
    // A document of one-line paragraphs has no usual pitch: the line is set at the height the space above counts with (a CJK face's own is taller).
    return { line: pdf.size * NATURAL_LINE, exact: pitch === undefined && this.bodyPitch === undefined };
  }

  /**
   * Where the page's first line box starts, points from the top, when its blocks keep the PDF's
   * spacing: a picture's top where the page starts with one.
   */
  firstLineTop(blocks: readonly RootContent[], pictures: readonly PagePicture[] = []): number | undefined {
    const first = blocks.find((block) => block.type !== 'image')?.data?.pdfText;
    if (!first || !flowsDown(blocks)) return undefined;
    const picture = blocks[0]?.type === 'image' ? pictureOf(pictures, blocks[0].url) : undefined;
    if (picture) return picture.top;
    this.lastBaseline = undefined;
    return first.baseline - (this.lineOf(first, true).line - DESCENT * first.size);
  }

  private block(block: RootContent, textWidth: number): (Paragraph | Table)[] {
    // A ruled table's cells as the page sets them, paragraphs and lists (pdf-grid.ts), where read noted them.
    const cells = block.data?.pdfCells ?? tableCells(block);
    if (cells)
      return [
        this.table(
          cells,
          textWidth,
          block.data?.pdfTable,
          block.data?.pdfRuled === true,
          gridLayout(block.data?.pdfGrid, columnsOf(cells), cells.length, textWidth, this.columnLeft),
        ),
      ];
    switch (block.type) {
      case 'heading':
        this.counts.headings++;
        return [
          new Paragraph({
            heading: HEADINGS[block.depth - 1],
            ...this.spacing(block, false),
            ...this.placed(block),
            children: this.afterBreak(runs(this.lineBreaks(block, block.children), { ...blockStyle(block), ...this.headingWeight(block) })),
          }),
        ];
      case 'paragraph':
        this.counts.paragraphs++;
        return [
          new Paragraph({
            ...this.spacing(block, true),
            ...this.placed(block),
            children: this.afterBreak(runs(withBoldLead(block, this.lineBreaks(block, block.children)), { ...blockStyle(block), ...this.bodyApart(block) })),
          }),
        ];
      case 'list':
        return this.list(block, 0);
      case 'code':
        this.counts.paragraphs++;
        return this.code(block);
      case 'blockquote':
        return block.children.flatMap((child) => this.block(child, textWidth));
      case 'image':
        return this.picture(block.url, textWidth);
      default:
        // Anything else the model may hold (a rule, an HTML snippet) carries no text to edit.
        return plainText(block).trim() ? [new Paragraph({ children: [new TextRun(plainText(block))] })] : [];
    }
  }

  /**
   * A block's text with a line break where the PDF ends a line short of its column (endsShort):
   * lines that wrapped flow, lines the document ended stay ended. Text in one run (plain or all
   * bold) only, where the PDF says where its lines end and the page keeps its spacing.
   */
  private lineBreaks(block: RootContent, nodes: PhrasingContent[]): PhrasingContent[] {
    const pdf = block.data?.pdfText;
    const only = nodes.length === 1 ? nodes[0] : undefined;
    if (only?.type === 'strong') return [{ ...only, children: this.lineBreaks(block, only.children) }];
    // A page read in columns and written as one (not spaced) runs its lines wider than the PDF's: they flow.
    if (!pdf?.lineEnds || only?.type !== 'text' || !this.spaced) return nodes;
    const text = only.value;
    // Most of its lines ending together across most of the column: prose wrapped in a box of its own, no wider than its longest line.
    const together = pdf.lineEnds.filter((end) => pdf.right - end.right < WRAPPED_EMS * pdf.size).length;
    const wrapped = together >= 2 && together >= (pdf.lineEnds.length * 2) / 3 && pdf.right - pdf.left > BOXED_SHARE * (this.columnRight - pdf.left);
    const right = wrapped ? Math.min(this.columnRight, pdf.right) : this.columnRight;
    // Centred lines end together on both sides: a line is short by all the room the column leaves it.
    const centred = this.acrossText && centredAxis(pdf) !== undefined;
    const cuts = pdf.lineEnds
      .map((end) => ({ at: text.length - end.after, gap: centred ? this.columnRight - this.columnLeft - (end.right - end.left) : right - end.right }))
      .filter(({ at, gap }) => at > 0 && at < text.length && endsShort(text.slice(at), gap, pdf.size));
    if (!cuts.length) return nodes;
    const out: PhrasingContent[] = [];
    let from = 0;
    for (const { at } of cuts) {
      out.push({ type: 'text', value: text.slice(from, at).trimEnd() }, { type: 'break' });
      from = at;
    }
    return [...out, { type: 'text', value: text.slice(from).trimStart() }];
  }

  /** Where a block stands across a page written as the PDF spaces it, in one column (placement.ts). */
  private placed(block: RootContent): Placement {
    const pdf = block.data?.pdfText;
    return pdf && this.spaced && this.acrossText ? placement(pdf, this.columnLeft, this.columnRight, this.axes) : {};
  }

  /** A code block, a paragraph a line, at the PDF's size and pitch where the PDF says. */
  private code(block: Code): Paragraph[] {
    const pdf = block.data?.pdfText;
    const size = pdf && { size: Math.round(pdf.size * 2) };
    const { spacing } = this.spacing(block, true);
    const inset = pdf && this.spaced && this.acrossText ? codeIndent(pdf, this.columnLeft) : '';
    const lines = block.value.split('\n');
    // The space above goes before the first line, the space down to a table after the last.
    return lines.map((line, k) => {
      const { before, after, ...pitch } = spacing ?? {};
      const own = { ...pitch, ...(k === 0 && before !== undefined && { before }), ...(k === lines.length - 1 && after !== undefined && { after }) };
      return new Paragraph({ spacing: own, children: this.afterBreak([new TextRun({ text: inset + line, font: CODE_FONT, ...size })]) });
    });
  }

  /**
   * A picture of the page in a paragraph of its own, at its size on the page (narrowed to the
   * text's width); where the page keeps the PDF's spacing, at the PDF's place: as far in from the
   * column's left and down from what stands above as on the page (a logo centred over a letterhead).
   */
  private picture(url: string, textWidth: number): Paragraph[] {
    const picture = this.pictureOf(url);
    if (!picture) return [];
    const scale = Math.min(1, textWidth / picture.width);
    const run = this.pictureRun(picture, textWidth);
    if (!this.spaced) return [new Paragraph({ children: [run] })];
    const before = this.above === undefined ? 0 : picture.top - this.above;
    const indent = Math.min(picture.left - this.columnLeft, textWidth - picture.width * scale);
    // LibreOffice sets a line holding only a picture as tall as the picture.
    this.above = picture.top + picture.height * scale;
    this.lastBaseline = undefined;
    return [
      new Paragraph({
        ...(before > 0 && before <= MOST_SPACE_ABOVE && { spacing: { before: twips(before) } }),
        ...(indent > 0 && { indent: { left: twips(indent) } }),
        children: this.afterBreak([run]),
      }),
    ];
  }

  /** A picture at its size on the page, narrowed to `width` points. */
  private pictureRun(picture: PagePicture, width: number): ImageRun {
    this.counts.images++;
    const scale = Math.min(1, width / picture.width);
    const transformation = { width: Math.round(picture.width * scale * PIXELS_PER_POINT), height: Math.round(picture.height * scale * PIXELS_PER_POINT) };
    return new ImageRun({ type: 'png', data: picture.png, transformation });
  }

  private pictureOf(url: string): PagePicture | undefined {
    return pictureOf(this.pictures, url);
  }

  private list(list: List, level: number): Paragraph[] {
    const hung = this.hangingIndent(list);
    const kind = list.ordered ? NUMBERS : BULLETS;
    const reference = hung ? `${kind}-${hung.indent.left}-${hung.indent.hanging}` : kind;
    if (hung) this.hungLists.set(reference, { ordered: list.ordered === true, indent: hung.indent });
    const instance = ++this.lists;
    return list.children.flatMap((item) =>
      item.children.flatMap((child, k) => {
        if (child.type === 'list') return this.list(child, Math.min(level + 1, 5));
        this.counts.paragraphs++;
        // An item keeps its own size and family where they are not the body's (a footnote list in small print).
        const style = { ...blockStyle(hung ? lessMarker(child, hung.textLeft) : child), ...this.bodyApart(child) };
        const children = this.afterBreak(
          child.type === 'paragraph' || child.type === 'heading'
            ? runs(withBoldLead(child, this.lineBreaks(child, child.children)), style)
            : [textRun(plainText(child), style)],
        );
        const spacing = this.spacing(child, true);
        // The item's first paragraph carries the number; later ones are indented to its text.
        // The marker at the item's size, as the PDF's: the hang was made to hold it.
        const marked = { numbering: { reference, level, instance }, ...(hung && { run: { size: style.size } }) };
        return [
          new Paragraph(k === 0 ? { children, ...spacing, ...marked } : { children, ...spacing, indent: { left: hung?.indent.left ?? indentOf(level + 1) } }),
        ];
      }),
    );
  }

  /** A list's indent where the PDF's items hang their lines past their markers and the page keeps the PDF's places (list-indent.ts). */
  private hangingIndent(list: List): ListIndent | undefined {
    const items = list.children.flatMap((item) => (item.children[0]?.type === 'paragraph' && item.children[0].data?.pdfText) || []);
    return this.spaced && items.length === list.children.length ? hangingIndent(items, this.columnLeft, list.ordered === true) : undefined;
  }

  /**
   * A table, its columns as the PDF sets them (table-columns.ts): a ruled table's as its grid draws
   * them (widths, padding, text size), a borderless table's starting where the PDF's do where read
   * measured that, else a borderless table's as wide as their text asks and a ruled one's equal. Where the PDF says where it ends, what follows keeps
   * its distance from it.
   */
  private table(rows: readonly CellSource[][], textWidth: number, box: PdfTableBox | undefined, ruled: boolean, ruledGrid?: GridLayout): Table {
    this.counts.tables++;
    const columns = columnsOf(rows);
    // A table without a box (one read could not place on the page) is ruled where pdf-rows.ts found its rules.
    const borderless = !(box?.ruled ?? ruled);
    const grid = borderless ? undefined : ruledGrid;
    const lefts = borderless ? borderlessGrid(rows, columns, box, [this.columnRight - textWidth, this.columnRight]) : undefined;
    // Else a borderless table's text stands where the PDF's does, flush with the margin, its cells' own margins outside it.
    const widths =
      grid?.columnWidths ?? lefts?.widths.map(twips) ?? this.columnWidths(rows, columns, twips(textWidth) + (borderless ? 2 * CELL_MARGIN : 0), borderless);
    const size = grid && this.body && Math.abs(grid.size - this.body.size) >= SIZE_APART ? { size: Math.round(grid.size * 2) } : {};
    // CJK cells set narrower than the East Asian font's em keep the PDF's width, as paragraphs do.
    const scale = grid && narrowedTo(grid, rows.flatMap((row) => row.flatMap((cell) => cell.blocks.map(plainText))).join(' '));
    const style = { ...size, ...(scale !== undefined && { scale }) };
    this.above = box?.bottom;
    this.lastBaseline = undefined;
    return new Table({
      // A table the PDF sets without lines (its columns found by how its text lines up) is drawn without them.
      ...(borderless && { borders: TableBorders.NONE, indent: { size: lefts ? twips(lefts.indent) : -CELL_MARGIN, type: WidthType.DXA } }),
      ...(lefts && { margins: { left: 0, right: 0 } }),
      ...(grid && { margins: grid.margins, indent: grid.indent }),
      ...(grid?.rules && { borders: tableBorders(grid.rules) }),
      width: { size: widths.reduce((sum, w) => sum + w, 0), type: WidthType.DXA },
      columnWidths: widths,
      rows: rows.map(
        (row, r) =>
          new TableRow({
            ...(grid?.paddedRows[r] ? heldHeight(grid.paddedRows[r].height) : rowHeight(box?.rowTops, r)),
            tableHeader: r === 0 && rows.length > 1,
            // Cells covered by a span are left out: the library writes a row span's continuations itself.
            children: spannedWidths(row, widths).flatMap(({ cell, width }) =>
              cell.covered
                ? []
                : [
                    this.cell(
                      cell,
                      { ...(r === 0 && rows.length > 1 && (grid?.headerBold ?? true) && { bold: true }), ...style },
                      width,
                      grid?.rules && cellBorders(grid.rules, r, cell.rowSpan),
                      grid?.paddedRows[r]?.centred,
                    ),
                  ],
            ),
          }),
      ),
    });
  }

  /** A borderless table's columns as wide as their text asks (table-columns.ts); a ruled one's equal. */
  private columnWidths(rows: readonly CellSource[][], columns: number, total: number, borderless: boolean): number[] {
    if (borderless) return contentWidths(rows, columns, total, twips(this.bodySize * this.faceScale));
    return Array.from({ length: columns }, () => Math.floor(total / columns));
  }

  private cell(cell: CellSource, style: RunStyle, width: number, borders?: ITableCellBorders, centred?: boolean): TableCell {
    const paragraphs = cell.blocks.flatMap((block) =>
      block.type === 'list'
        ? this.cellList(block, 0, style)
        : [
            new Paragraph({
              ...cellSpacing(block),
              children: runs(block.type === 'paragraph' || block.type === 'heading' ? block.children : [{ type: 'text', value: plainText(block) }], style),
            }),
          ],
    );
    return new TableCell({
      children: paragraphs.length ? paragraphs : [new Paragraph({})],
      width: { size: width, type: WidthType.DXA },
      ...(cell.colSpan > 1 && { columnSpan: cell.colSpan }),
      ...(cell.rowSpan > 1 && { rowSpan: cell.rowSpan }),
      ...(borders && { borders }),
      ...(centred && { verticalAlign: VerticalAlignTable.CENTER }),
    });
  }

  /** A list in a table's cell: its items bulleted or numbered as the body's lists, without the body's spacing. */
  private cellList(list: List, level: number, style: RunStyle): Paragraph[] {
    const numbering = { reference: list.ordered ? NUMBERS : BULLETS, level, instance: ++this.lists };
    return list.children.flatMap((item) =>
      item.children.flatMap((child, k) => {
        if (child.type === 'list') return this.cellList(child, Math.min(level + 1, 5), style);
        const children = runs(child.type === 'paragraph' ? child.children : [{ type: 'text', value: plainText(child) }], style);
        return [new Paragraph(k === 0 ? { children, numbering, ...cellSpacing(child) } : { children, indent: { left: indentOf(level + 1) } })];
      }),
    );
  }
}

/** An empty paragraph a point high. */
const hairline = () => new Paragraph({ spacing: { before: 0, after: 0, line: 20, lineRule: LineRuleType.EXACT } });

/** A table's columns: its widest row's, spans counted. */
const columnsOf = (rows: readonly CellSource[][]) => Math.max(1, ...rows.map((row) => row.reduce((n, cell) => n + (cell.covered ? 0 : cell.colSpan), 0)));

/** The space a cell's paragraph keeps above it, where the PDF leaves more than a line's (pdf-cell-paragraphs.ts). */
function cellSpacing(block: RootContent): { spacing?: { before: number } } {
  const above = block.data?.pdfSpaceAbove;
  return above === undefined ? {} : { spacing: { before: twips(Math.min(above, MOST_SPACE_ABOVE)) } };
}

/** A row at least `points` tall (a ruled row the PDF pads around its text, table-columns.ts). */
function heldHeight(points: number): { height: { value: number; rule: typeof HeightRule.ATLEAST } } {
  return { height: { value: twips(points), rule: HeightRule.ATLEAST } };
}

/**
 * A row at least as tall as the PDF sets it, from its text's top to the next row's (a borderless
 * table whose rows are each one line of the page): rows spaced apart keep their space. The last
 * row is as tall as its text, so what follows the table keeps its distance from the text.
 */
function rowHeight(tops: readonly number[] | undefined, row: number): { height?: { value: number; rule: typeof HeightRule.ATLEAST } } {
  const [top, next] = [tops?.[row], tops?.[row + 1]];
  return top === undefined || next === undefined ? {} : heldHeight(next - top);
}

/**
 * A paragraph whose first line starts with bold words and goes on in another weight (a list
 * item's term, a label) starts with them bold: set in the regular weight, they run narrower and
 * the paragraph onto fewer lines than the PDF's. Only where its text starts with them as read.
 */
function withBoldLead(block: RootContent, nodes: PhrasingContent[]): PhrasingContent[] {
  const lead = block.data?.pdfText?.boldLead;
  const first = nodes[0];
  if (!lead || first?.type !== 'text') return nodes;
  const text = first.value.trimStart();
  if (!text.startsWith(lead) || text.length === lead.length) return nodes;
  return [{ type: 'strong', children: [{ type: 'text', value: lead }] }, { type: 'text', value: text.slice(lead.length) }, ...nodes.slice(1)];
}

/** Inline content as runs, their emphasis as run properties. */
function runs(nodes: readonly PhrasingContent[], style: RunStyle = {}): ParagraphChild[] {
  return nodes.flatMap((node): ParagraphChild[] => {
    switch (node.type) {
      case 'text':
        return [textRun(node.value, style)];
      case 'inlineCode':
        return [textRun(node.value, { ...style, code: true })];
      case 'strong':
        return runs(node.children, { ...style, bold: true });
      case 'emphasis':
        return runs(node.children, { ...style, italics: true });
      case 'delete':
        return runs(node.children, { ...style, strike: true });
      case 'break':
        return [new TextRun({ break: 1 })];
      case 'link':
        return [new ExternalHyperlink({ link: node.url, children: runs(node.children, style).filter((r): r is TextRun => r instanceof TextRun) })];
      default:
        return 'value' in node ? [textRun(node.value, style)] : [];
    }
  });
}

/** The Symbol font's bullet (Word's, in the Private Use Area): shown as a box in any other face. */
const SYMBOL_BULLET = /\uF0B7/g;

function textRun(text: string, { code, ...style }: RunStyle): TextRun {
  return new TextRun({ text: text.replace(SYMBOL_BULLET, '\u2022'), ...style, ...(code && { font: CODE_FONT }) });
}

/**
 * A running line as a paragraph of the header or footer; the page's own number in it (a bare
 * number, "Page 3 of 9") becomes Word's PAGE field, which counts from the section's start number.
 */
function runningParagraph(line: string, page: number | undefined): Paragraph {
  const at = page === undefined ? -1 : line.search(new RegExp(`(?<!\\d)${page}(?!\\d)`));
  if (page === undefined || at < 0) return new Paragraph({ children: [new TextRun(line)] });
  const before = line.slice(0, at);
  const after = line.slice(at + String(page).length);
  return new Paragraph({ children: [new TextRun({ children: [before, PageNumber.CURRENT, after].filter((part) => part !== '') })] });
}

/** Points a header's or footer's lines take, set in the body's size at the font's own spacing. */
const runningHeight = (text: RunningText, size: number) => text.lines.length * size * NATURAL_LINE;

const running = (text: RunningText | undefined, page: number | undefined) => text?.lines.map((line) => runningParagraph(line, page));

const indentOf = (level: number) => 360 * (level + 1);

/** Nine levels of one kind of list: bullets, or decimal numbers (1. then a. then i., as Word's own). */
function listLevels(ordered: boolean, indent?: ListIndent['indent']): ILevelsOptions[] {
  const formats = [LevelFormat.DECIMAL, LevelFormat.LOWER_LETTER, LevelFormat.LOWER_ROMAN];
  const bullets = ['\u2022', '\u25E6', '\u25AA'];
  return Array.from({ length: 9 }, (_, level) => ({
    level,
    format: ordered ? (formats[level % 3] as (typeof formats)[number]) : LevelFormat.BULLET,
    text: ordered ? `%${level + 1}.` : (bullets[level % 3] as string),
    alignment: AlignmentType.LEFT,
    style: { paragraph: { indent: indent ?? { left: indentOf(level + 1), hanging: 360 } } },
  }));
}

/**
 * A PDF's font as a family Word knows: its subset prefix and style suffixes dropped, the
 * base-14 and Liberation faces as the families they stand in for, TeX's roman ones as the face
 * that sets their lines as wide (tex-faces.ts).
 */
export function fontFamily(pdfName: string): string | undefined {
  const name = pdfName
    .replace(/^[A-Z]{6}\+/, '')
    .replace(/[-,](Bold|Italic|Oblique|Regular|Roman|Medium|Light|Semibold|BoldItalic|BoldOblique)+$/i, '')
    .replace(/(PS)?MT$/, '');
  if (/times|liberationserif|nimbusroman|tinos/i.test(name)) return 'Times New Roman';
  const tex = texFamily(name);
  if (tex) return tex;
  if (/arial|helvetica|liberationsans|nimbussans|arimo/i.test(name)) return 'Arial';
  if (/courier|liberationmono|nimbusmono|cousine/i.test(name)) return 'Courier New';
  const dejaVu = /^DejaVu(Sans|Serif)(Mono)?/i.exec(name);
  if (dejaVu) return `DejaVu ${dejaVu[1]}${dejaVu[2] ? ' Mono' : ''}`;
  if (/^[A-Za-z][A-Za-z ]*$/.test(name)) return name.replace(/([a-z])([A-Z])/g, '$1 $2');
  return undefined;
}

interface HeadingStyle {
  paragraph: { outlineLevel: number };
  run: { size?: number; bold: boolean };
}

/**
 * Word's Heading 1–6 styles (the library's own) at the sizes the PDF's headings have, each with
 * its outline level, as Word's built-in ones carry it (LibreOffice makes outline headings of them by it).
 */
function headingStyles(sizes: readonly number[] | undefined): Record<string, HeadingStyle> {
  const styles: Record<string, HeadingStyle> = {};
  for (let index = 0; index < HEADINGS.length; index++) {
    const size = sizes?.[index];
    styles[`heading${index + 1}`] = { paragraph: { outlineLevel: index }, run: { ...(size !== undefined && { size: Math.round(size * 2) }), bold: true } };
  }
  return styles;
}

/**
 * A page's sections: one (a new page of the PDF page's size and margins), or where the page is set
 * in two columns (columns.ts) one a band down it, the bands after the first continuing its page.
 */
function sections(page: EditablePage, writer: Writer): ISectionOptions[] {
  const measured = page.margins ?? { top: DEFAULT_MARGIN, right: DEFAULT_MARGIN, bottom: DEFAULT_MARGIN, left: DEFAULT_MARGIN };
  const blocks = withSideTablesJoined(page.blocks);
  const bands = (!flowsDown(blocks) && columnBands(blocks, measured.left, page.width - measured.right)) || [{ blocks }];
  // The first line's box may start above its glyphs (a wide pitch): the margin is where it starts.
  const lineTop = writer.firstLineTop(firstColumn(bands[0] as Band), page.pictures);
  const margins = { ...measured, top: Math.max(LEAST_MARGIN, Math.min(measured.top, lineTop ?? measured.top)) };
  const landscape = page.width > page.height;
  const textWidth = Math.max(72, page.width - margins.left - margins.right);
  const header = running(page.header, page.number);
  const footer = running(page.footer, page.number);
  // The header and footer stand where the PDF sets them, inside the body's margins: a header the
  // PDF sets beside or below the body's first line (a page number under the date) is raised into
  // the top margin, as LibreOffice moves the body down under a header that does not fit there.
  const edges = {
    ...(page.header && { header: twips(Math.max(0, Math.min(page.header.edge, margins.top - runningHeight(page.header, writer.bodySize)))) }),
    ...(page.footer && { footer: twips(Math.min(page.footer.edge, margins.bottom)) }),
  };
  const properties = {
    page: {
      // The library swaps width and height for a landscape page.
      size: {
        width: twips(Math.min(page.width, page.height)),
        height: twips(Math.max(page.width, page.height)),
        orientation: landscape ? PageOrientation.LANDSCAPE : PageOrientation.PORTRAIT,
      },
      margin: {
        top: twips(margins.top),
        right: twips(margins.right),
        bottom: twips(Math.min(margins.bottom, Math.max(LEAST_MARGIN, margins.bottom - BOTTOM_SLACK))),
        left: twips(margins.left),
        ...edges,
      },
    },
  };
  writer.startPage(page.pictures, lineTop === undefined ? undefined : margins.top);
  // Columns whose text stands in from the page's margin start there (columns.ts): their section's own left margin.
  const bandLeft = (band: Band) => Math.max(margins.left, band.columns?.left ?? margins.left);
  return bands.map((band, k) => ({
    ...(k === 0 && header && { headers: { default: new Header({ children: header }) } }),
    ...(k === 0 && footer && { footers: { default: new Footer({ children: footer }) } }),
    properties: {
      ...properties,
      page: {
        ...properties.page,
        ...(bandLeft(band) > margins.left && { margin: { ...properties.page.margin, left: twips(bandLeft(band)) } }),
        // The page's number starts its first band; the bands after it go on counting.
        ...(k === 0 && page.number !== undefined && { pageNumbers: { start: page.number } }),
      },
      type: k === 0 ? SectionType.NEXT_PAGE : SectionType.CONTINUOUS,
      ...(band.columns && { column: { count: 2, space: twips(band.columns.space), equalWidth: true } }),
    },
    children: writer.band(band, textWidth - (bandLeft(band) - margins.left), bandLeft(band)),
  }));
}

/** The page's picture an image block names (`picture:<index>`). */
function pictureOf(pictures: readonly PagePicture[], url: string): PagePicture | undefined {
  const match = /^picture:(\d+)$/.exec(url);
  return match ? pictures[Number(match[1])] : undefined;
}

/** A band's blocks that stand first down the page: its left column's, or all. */
const firstColumn = (band: Band) => (band.columns ? band.blocks.slice(0, band.columns.split) : band.blocks);

/** The line pitch most paragraphs of more than one line show (the median's), in points. */
function bodyPitch(model: EditableModel): number | undefined {
  const pitches = model.pages.flatMap((page) => page.blocks.flatMap((block) => (block.type === 'paragraph' && block.data?.pdfText?.pitch) || []));
  return pitches.sort((a, b) => a - b)[Math.floor(pitches.length / 2)];
}

/** The DOCX's bytes and what it holds. */
export async function writeDocx(model: EditableModel): Promise<{ bytes: Uint8Array; counts: EditableCounts }> {
  const writer = new Writer(bodyPitch(model), model.body, faceScale(model.pages.flatMap((page) => page.blocks)));
  const pages = model.pages.flatMap((page) => sections(page, writer));
  const latin = model.body ? fontFamily(model.body.font) : undefined;
  const document = new Document({
    styles: {
      default: {
        document: {
          run: {
            ...(model.body && { size: Math.round(model.body.size * 2) }),
            font: { ...(latin && { ascii: latin, hAnsi: latin, cs: latin }), eastAsia: EAST_ASIAN_FONT },
          },
        },
        ...headingStyles(model.headingSizes),
      },
    },
    numbering: {
      config: [
        { reference: BULLETS, levels: listLevels(false) },
        { reference: NUMBERS, levels: listLevels(true) },
        ...[...writer.hungLists].map(([reference, { ordered, indent }]) => ({ reference, levels: listLevels(ordered, indent) })),
      ],
    },
    sections: pages,
  });
  return { bytes: new Uint8Array(await Packer.toBuffer(document)), counts: writer.counts };
}
