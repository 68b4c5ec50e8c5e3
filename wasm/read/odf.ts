// OpenDocument (odt, ods, odp) from content.xml and styles.xml: headings from outline levels,
// lists with their nesting and number/bullet kind, spans bold/italic/code/strike by their
// styles (parents resolved), links, notes, tables with spans, sheets (repeated rows and columns
// expanded only where they hold something), slides with titles and notes. Hidden text, tracked
// deletions and comments are left out; fields keep what they display.

import type { BlockContent, FootnoteDefinition, RootContent } from 'mdast';
import { ApiError } from '../../core/errors.js';
import {
  append,
  asSlideLabel,
  codeBlocks,
  definedOnly,
  heading,
  MONOSPACE,
  isEmptyParagraph,
  nestLists,
  paragraph,
  styleChain,
  table,
  type CellSource,
  type Inline,
  type ListEntry,
  type RunStyle,
} from './blocks.js';
import type { OfficePackage } from './package.js';
import { blocksToHtml } from './render.js';
import { cellKey, sheetTables, type SheetCells } from './sheet-tables.js';
import { safeLinkUrl } from './inert.js';
import { slideSections, type Slide } from './slide-sections.js';
import { cellBudget, type Budget } from './limits.js';
import { child, childElements, find, findAll, isElement, textOf, type XmlElement } from './xml.js';

interface OdfStyle {
  parent?: string;
  run: RunStyle;
  hidden?: boolean;
  outlineLevel?: number;
  /** The Title or Subtitle paragraph style (LibreOffice's names), or one based on it. */
  role?: 'title' | 'subtitle';
  /** Space above the paragraph (fo:margin-top), in points. */
  spaceAbove?: number;
}

interface OdfContext {
  styles: Map<string, OdfStyle>;
  /** list style name → level (0-based) → ordered? */
  listStyles: Map<string, Map<number, boolean>>;
  notes: FootnoteDefinition[];
  images: { count: number };
  /** Added to outline levels: 1 when the document has a Title, which takes `#`. */
  headingShift: number;
  /** Cells of every table and sheet, repeated ones counted as written out. */
  cells: Budget;
  /** Embedded objects (charts) are parts of the same package. */
  pkg: OfficePackage;
  /** Where given, each paragraph block read is mapped to its text:p (a slide's labels need its spacing). */
  paragraphSources?: Map<RootContent, XmlElement>;
}

/** LibreOffice's paragraph styles for a document's title and subtitle. */
const TITLE_ROLES: Readonly<Record<string, 'title' | 'subtitle'>> = { Title: 'title', Subtitle: 'subtitle' };

export function readOdf(pkg: OfficePackage): RootContent[] {
  const content = pkg.xml('content.xml');
  if (content === undefined) throw new ApiError('INVALID_INPUT', 'The file is not an OpenDocument package (no content.xml)');
  const stylesRoot = pkg.xml('styles.xml');
  const styleRoots = [...(stylesRoot ? [stylesRoot] : []), content];
  const context: OdfContext = {
    styles: readStyles(styleRoots),
    listStyles: readListStyles(styleRoots),
    notes: [],
    images: { count: 0 },
    headingShift: 0,
    cells: cellBudget(),
    pkg,
  };
  const body = child(content, 'office:body');
  const text = body && child(body, 'office:text');
  if (text) {
    context.headingShift = findAll(text, 'text:p').some((p) => styleOf(p, context).role === 'title') ? 1 : 0;
    // Code paragraphs (Preformatted Text, a monospaced face) as code blocks, as in Word files.
    return [...codeBlocks(readFlow(text, context, 0)), ...context.notes];
  }
  const sheet = body && child(body, 'office:spreadsheet');
  if (sheet) return readSpreadsheet(sheet, context);
  const slides = body && child(body, 'office:presentation');
  if (slides) return readPresentation(slides, context);
  throw new ApiError('INVALID_INPUT', 'The OpenDocument body is neither text, a spreadsheet nor a presentation');
}

/** Block content of a text flow (the body, a section, a cell, a list item, a note). */
function readFlow(container: XmlElement, context: OdfContext, listDepth: number, listStyle?: string): RootContent[] {
  const out: RootContent[] = [];
  const elements = childElements(container);
  for (let index = 0; index < elements.length; index++) {
    const element = elements[index] as XmlElement;
    switch (element.name) {
      case 'text:h': {
        const level = Number(element.attrs['text:outline-level'] ?? styleOf(element, context).outlineLevel ?? 1) + context.headingShift;
        if (!isHidden(element, context)) out.push(heading(level, readSpans(element, context)));
        break;
      }
      case 'text:p': {
        if (isHidden(element, context)) break;
        const block = paragraphBlock(element, context);
        if (!isEmptyParagraph(block)) out.push(block);
        context.paragraphSources?.set(block, element);
        append(out, frameBlocks(element, context));
        break;
      }
      case 'text:list': {
        // Lists that follow each other are read as one: a list whose first item only holds a
        // sublist (how LibreOffice continues a list in another list style) nests under the
        // last item of the list before it.
        const entries = listEntries(element, context, listDepth, element.attrs['text:style-name'] ?? listStyle);
        for (let next = elements[index + 1]; next?.name === 'text:list'; next = elements[index + 1]) {
          append(entries, listEntries(next, context, listDepth, next.attrs['text:style-name'] ?? listStyle));
          index++;
        }
        append(out, nestLists(entries));
        break;
      }
      case 'table:table':
        out.push(readTable(element, context));
        break;
      case 'text:section':
      case 'text:index-body':
        if (!isHidden(element, context)) append(out, readFlow(element, context, listDepth, listStyle));
        break;
      default:
        // text:tracked-changes (deleted text lives there), office:annotation, text:sequence-decls, …
        break;
    }
  }
  return out;
}

/** A paragraph, or a heading when its style has an outline level or is the Title or Subtitle. */
function paragraphBlock(p: XmlElement, context: OdfContext): RootContent {
  const style = styleOf(p, context);
  if (style.role === 'title') return heading(1, readSpans(p, context));
  if (style.role === 'subtitle' && context.headingShift) return heading(2, readSpans(p, context));
  if (style.outlineLevel) return heading(style.outlineLevel + context.headingShift, readSpans(p, context));
  return paragraph(readSpans(p, context));
}

/** The entries of a list and its sublists, with their levels and kinds. */
function listEntries(list: XmlElement, context: OdfContext, depth: number, styleName: string | undefined): ListEntry[] {
  const ordered = context.listStyles.get(styleName ?? '')?.get(depth) ?? false;
  const entries: ListEntry[] = [];
  for (const item of childElements(list).filter((e) => e.name === 'text:list-item' || e.name === 'text:list-header')) {
    const own: BlockContent[] = [];
    for (const part of childElements(item)) {
      if (part.name === 'text:list') {
        // An item with nothing before its sublist is only the sublist's container: no entry.
        if (own.length) entries.push({ level: depth, ordered, content: own.splice(0) });
        append(entries, listEntries(part, context, depth + 1, part.attrs['text:style-name'] ?? styleName));
      } else {
        append(own, readFlow({ ...item, children: [part] }, context, depth, styleName) as BlockContent[]);
      }
    }
    if (own.length) entries.push({ level: depth, ordered, content: own });
  }
  return entries;
}

function readSpans(container: XmlElement, context: OdfContext, base: RunStyle = styleOf(container, context).run, link?: string): Inline[] {
  const out: Inline[] = [];
  for (const node of container.children) {
    if (!isElement(node)) {
      out.push({ ...base, text: node.replace(/\s+/g, ' '), ...(link && { link }) });
      continue;
    }
    switch (node.name) {
      case 'text:span':
        if (!isHidden(node, context)) append(out, readSpans(node, context, { ...base, ...definedOnly(styleOf(node, context).run) }, link));
        break;
      case 'text:a': {
        append(out, readSpans(node, context, base, safeLinkUrl(node.attrs['xlink:href']) ?? link));
        break;
      }
      case 'text:s':
        out.push({ ...base, text: ' '.repeat(Math.min(100, Number(node.attrs['text:c'] ?? 1))) });
        break;
      case 'text:tab':
        out.push({ ...base, text: '\t' });
        break;
      case 'text:line-break':
        out.push({ type: 'break' });
        break;
      case 'text:note':
        out.push(noteReference(node, context));
        break;
      case 'draw:frame':
      case 'draw:a':
        append(out, imagesOf(node, context));
        break;
      case 'office:annotation':
      case 'office:annotation-end':
      case 'text:tracked-changes':
      case 'text:change':
      case 'text:hidden-text':
      case 'text:bookmark-start':
      case 'text:bookmark-end':
      case 'text:soft-page-break':
        break;
      default:
        // fields (text:file-name, text:date, text:page-number, …) and other wrappers show their text
        append(out, readSpans(node, context, base, link));
    }
  }
  return out;
}

/** Text boxes anchored in a paragraph hold blocks of their own; charts anchored there, their title and data. */
function frameBlocks(p: XmlElement, context: OdfContext): RootContent[] {
  return [
    ...findAll(p, 'draw:text-box').flatMap((box) => readFlow(box, context, 0)),
    ...findAll(p, 'draw:object').flatMap((object) => chartObjectBlocks(object, context)),
  ];
}

/**
 * An embedded chart (`draw:object` pointing at an `Object N/` sub-document whose body is an
 * office:chart): its title and subtitle as paragraphs, its own data table (the chart's
 * "local-table", series names in the header row) as a table.
 */
function chartObjectBlocks(object: XmlElement, context: OdfContext): RootContent[] {
  const href = (object.attrs['xlink:href'] ?? '').replace(/^\.\//, '').replace(/\/$/, '');
  // Only parts inside this package: no URL, no absolute or parent path.
  if (!href || /^[a-z][a-z0-9+.-]*:|^\/|(^|\/)\.\.(\/|$)/i.test(href)) return [];
  const content = context.pkg.xml(`${href}/content.xml`);
  const chart = content && find(content, 'chart:chart');
  if (!chart) return [];
  const out: RootContent[] = [];
  for (const name of ['chart:title', 'chart:subtitle']) {
    const text = textOf(child(chart, name) ?? { name: '', attrs: {}, children: [] })
      .replace(/\s+/g, ' ')
      .trim();
    if (text) out.push(paragraph([{ text }]));
  }
  const data = find(chart, 'table:table');
  if (data) out.push(readTable(data, context));
  return out;
}

function imagesOf(frame: XmlElement, context: OdfContext): Inline[] {
  if (!find(frame, 'draw:image') && frame.name === 'draw:frame') return [];
  context.images.count++;
  const alt = textOf(child(frame, 'svg:title') ?? child(frame, 'svg:desc') ?? { name: '', attrs: {}, children: [] }).trim();
  return [{ type: 'image', url: `image-${context.images.count}`, alt }];
}

function noteReference(note: XmlElement, context: OdfContext): Inline {
  const identifier = `${note.attrs['text:note-class'] === 'endnote' ? 'en' : 'fn'}${context.notes.length + 1}`;
  const body = child(note, 'text:note-body');
  context.notes.push({ type: 'footnoteDefinition', identifier, label: identifier, children: body ? (readFlow(body, context, 0) as BlockContent[]) : [] });
  return { type: 'footnoteReference', identifier, label: identifier };
}

interface GridCell {
  source: CellSource;
  text: string;
}

function readTable(element: XmlElement, context: OdfContext): RootContent {
  return table(usedRange(readGrid(element, context, false)), blocksToHtml);
}

/**
 * A table's cells with repeated rows and columns written out where they hold something (blank
 * ones, a sheet's formatted rows and columns to its edge, are kept once), every written cell
 * spent from the document's budget before it is made: TOO_LARGE once it would pass.
 */
function readGrid(element: XmlElement, context: OdfContext, sheetMode: boolean): GridCell[][] {
  const rows: GridCell[][] = [];
  for (const row of tableRows(element)) {
    const cells: GridCell[] = [];
    for (const cell of childElements(row).filter((c) => c.name === 'table:table-cell' || c.name === 'table:covered-table-cell')) {
      const blocks = cellBlocks(cell, context, sheetMode);
      const text = blocks.length ? 'x' : '';
      const repeat = text ? repeatCount(cell.attrs['table:number-columns-repeated']) : 1;
      context.cells.spend(repeat);
      for (let i = 0; i < repeat; i++) {
        cells.push({
          text,
          source: {
            blocks,
            colSpan: Number(cell.attrs['table:number-columns-spanned'] ?? 1),
            rowSpan: Number(cell.attrs['table:number-rows-spanned'] ?? 1),
            covered: cell.name === 'table:covered-table-cell',
          },
        });
      }
    }
    const repeat = cells.some((c) => c.text) ? repeatCount(row.attrs['table:number-rows-repeated']) : 1;
    context.cells.spend(cells.length * (repeat - 1));
    for (let i = 0; i < repeat; i++) rows.push(cells);
  }
  return rows;
}

const repeatCount = (value: string | undefined): number => Math.max(1, Math.floor(Number(value ?? 1)) || 1);

/** Rows of a table, through row groups and header rows. */
function tableRows(element: XmlElement): XmlElement[] {
  return childElements(element).flatMap((e) =>
    e.name === 'table:table-row' ? [e] : ['table:table-header-rows', 'table:table-rows', 'table:table-row-group'].includes(e.name) ? tableRows(e) : [],
  );
}

/** Trims empty rows and columns around the content (sheets carry thousands of formatted blanks). */
function usedRange(rows: GridCell[][]): CellSource[][] {
  const filled = rows.map((r) => r.map((c) => c.text !== '' || !!c.source.covered));
  const rowIndexes = filled.flatMap((r, i) => (r.some(Boolean) ? [i] : []));
  if (!rowIndexes.length) return [];
  const first = rowIndexes[0] as number;
  const last = rowIndexes.at(-1) as number;
  let lastCol = -1;
  let firstCol = Infinity;
  for (const r of filled) {
    lastCol = Math.max(lastCol, r.lastIndexOf(true));
    const first = r.indexOf(true);
    if (first >= 0) firstCol = Math.min(firstCol, first);
  }
  return rows
    .slice(first, last + 1)
    .map((r) => Array.from({ length: lastCol - firstCol + 1 }, (_, i) => r[firstCol + i]?.source ?? { blocks: [], colSpan: 1, rowSpan: 1 }));
}

/** The cells that hold something or belong to a merged range, by position. */
function sheetCells(rows: GridCell[][]): SheetCells {
  const cells = new Map<number, CellSource>();
  rows.forEach((row, r) =>
    row.forEach((cell, c) =>
      cell.text !== '' || cell.source.covered || cell.source.colSpan > 1 || cell.source.rowSpan > 1 ? cells.set(cellKey(r, c), cell.source) : undefined,
    ),
  );
  return cells;
}

function cellBlocks(cell: XmlElement, context: OdfContext, sheetMode: boolean): BlockContent[] {
  if (sheetMode) {
    const type = cell.attrs['office:value-type'];
    const value = type === 'date' ? cell.attrs['office:date-value']?.replace(/T00:00:00(\.0+)?$/, '').replace('T', ' ') : undefined;
    if (value) return [{ type: 'paragraph', children: [{ type: 'text', value }] }];
  }
  return readFlow(cell, context, 0).filter((b): b is BlockContent => b.type !== 'footnoteDefinition' && !isEmptyParagraph(b)) as BlockContent[];
}

function readSpreadsheet(sheet: XmlElement, context: OdfContext): RootContent[] {
  return childElements(sheet, 'table:table')
    .filter((t) => !isHidden(t, context))
    .flatMap((t) => {
      return [heading(2, [{ text: t.attrs['table:name'] ?? 'Sheet' }]), ...sheetTables(sheetCells(readGrid(t, context, true)))];
    });
}

/** Points in one unit of an ODF length. */
const POINTS: Readonly<Record<string, number>> = { pt: 1, pc: 12, in: 72, cm: 72 / 2.54, mm: 72 / 25.4, px: 0.75 };

/** An ODF length (`0.169cm`) in points, or undefined when it is none. */
function lengthInPoints(length: string | undefined): number | undefined {
  const match = /^(-?[\d.]+)(pt|pc|in|cm|mm|px)$/.exec(length?.trim() ?? '');
  const points = match ? Number(match[1]) * (POINTS[match[2] as string] ?? 1) : NaN;
  return Number.isFinite(points) ? points : undefined;
}

/** A slide's text box: its blocks (code gathered) and, for each paragraph among them, whether space above it sets it apart. */
interface SlideBox {
  blocks: RootContent[];
  setApart: Map<RootContent, boolean>;
}

/**
 * LibreOffice sets space above every paragraph of a slide's text box (pandoc's pptx: 0.169 cm),
 * above a label more (1.058 cm): a paragraph is set apart when it has more than the box's least.
 */
function slideBox(box: XmlElement, context: OdfContext): SlideBox {
  const sources = new Map<RootContent, XmlElement>();
  const blocks = codeBlocks(readFlow(box, { ...context, paragraphSources: sources }, 0));
  const space = new Map([...sources].map(([block, p]) => [block, styleOf(p, context).spaceAbove ?? 0]));
  const least = [...space.values()].reduce((a, b) => Math.min(a, b), Infinity);
  return { blocks, setApart: new Map([...space].map(([block, above]) => [block, above > least])) };
}

/** A box's blocks with its labels as `###` headings; spacing counts only in a deck that sets its labels apart by it. */
function boxLabels({ blocks, setApart }: SlideBox, spacedLabels: boolean): RootContent[] {
  return blocks.map((block, index) => {
    const apart = setApart.get(block);
    return asSlideLabel(block, 3, { ...(spacedLabels && apart !== undefined && { setApart: apart }), followed: index < blocks.length - 1 });
  });
}

/** Whether a box holds a label set apart by space above it (pandoc's `###`, through LibreOffice). */
const setsLabelsApart = ({ blocks, setApart }: SlideBox) =>
  blocks.some((block) => setApart.get(block) === true && asSlideLabel(block, 3, { setApart: true, followed: true }).type === 'heading');

function readPresentation(presentation: XmlElement, context: OdfContext): RootContent[] {
  // A text box's labels wait for the whole deck: whether it sets its labels apart decides them.
  const slides: Slide<RootContent | SlideBox>[] = [];
  childElements(presentation, 'draw:page').forEach((page, index) => {
    if (isHidden(page, context)) return;
    const frames = slideShapes(page);
    const title = frames.find((f) => f.attrs['presentation:class'] === 'title');
    const titleLines = title ? findAll(title, 'text:p').map((p) => readSpans(p, context)) : [];
    const out: (RootContent | SlideBox)[] = [];
    // An untitled slide is named by its author or by its place.
    slides.push({ titleLines, place: page.attrs['draw:name'] || `Slide ${index + 1}`, content: out });
    for (const frame of frames) {
      if (frame === title) continue;
      const box = find(frame, 'draw:text-box');
      const tbl = find(frame, 'table:table');
      if (box) {
        const boxed = slideBox(box, context);
        // An empty box (a placeholder left blank) holds nothing: it leaves a title's slide bare.
        if (boxed.blocks.length) out.push(boxed);
      } else if (tbl) out.push(readTable(tbl, context));
      else if (find(frame, 'draw:object'))
        append(
          out,
          findAll(frame, 'draw:object').flatMap((object) => chartObjectBlocks(object, context)),
        );
      else if (find(frame, 'draw:image')) out.push({ type: 'paragraph', children: phrasingOf(imagesOf(frame, context)) });
      else if (frame.name === 'draw:custom-shape') append(out, readFlow(frame, context, 0));
    }
    const notes = child(page, 'presentation:notes');
    const notesBox = notes && findAll(notes, 'draw:frame').find((f) => f.attrs['presentation:class'] === 'notes');
    const noteBlocks = notesBox ? readFlow(find(notesBox, 'draw:text-box') ?? notesBox, context, 0) : [];
    if (noteBlocks.length) out.push({ type: 'blockquote', children: noteBlocks as BlockContent[] });
  });
  const sections = slideSections(slides);
  const boxes = sections.filter((part): part is SlideBox => 'setApart' in part);
  const spacedLabels = boxes.some(setsLabelsApart);
  return sections.flatMap((part) => ('setApart' in part ? boxLabels(part, spacedLabels) : [part]));
}

/** A slide's frames and shapes, groups opened (a group of text shapes holds several text boxes). */
function slideShapes(container: XmlElement): XmlElement[] {
  return childElements(container).flatMap((e) => (e.name === 'draw:g' ? slideShapes(e) : e.name === 'draw:frame' || e.name === 'draw:custom-shape' ? [e] : []));
}

const phrasingOf = (inlines: Inline[]) => inlines.filter((i): i is Exclude<Inline, { text: string }> => 'type' in i);

function styleOf(element: XmlElement, context: OdfContext): OdfStyle {
  const name = element.attrs['text:style-name'] ?? element.attrs['table:style-name'] ?? element.attrs['draw:style-name'];
  return resolveStyle(name, context.styles);
}

function isHidden(element: XmlElement, context: OdfContext): boolean {
  if (element.attrs['text:display'] === 'none' || element.attrs['text:is-hidden'] === 'true') return true;
  return styleOf(element, context).hidden === true;
}

function resolveStyle(name: string | undefined, styles: Map<string, OdfStyle>): OdfStyle {
  const chain = styleChain(name, styles, (style) => style.parent);
  const resolved: OdfStyle = { run: {} };
  for (const style of chain) {
    resolved.run = { ...resolved.run, ...definedOnly(style.run) };
    if (style.hidden !== undefined) resolved.hidden = style.hidden;
    if (style.outlineLevel !== undefined) resolved.outlineLevel = style.outlineLevel;
    if (style.role !== undefined) resolved.role = style.role;
    if (style.spaceAbove !== undefined) resolved.spaceAbove = style.spaceAbove;
  }
  return resolved;
}

function readStyles(roots: readonly XmlElement[]): Map<string, OdfStyle> {
  const styles = new Map<string, OdfStyle>();
  for (const root of roots) {
    for (const style of findAll(root, 'style:style')) {
      const props = child(style, 'style:text-properties');
      const tableProps = child(style, 'style:table-properties');
      const pageProps = child(style, 'style:drawing-page-properties');
      const weight = props?.attrs['fo:font-weight'];
      const fontStyle = props?.attrs['fo:font-style'];
      const through = props?.attrs['style:text-line-through-style'];
      const font = props?.attrs['style:font-name'] ?? props?.attrs['fo:font-family'];
      const hidden =
        props?.attrs['text:display'] === 'none' || tableProps?.attrs['table:display'] === 'false' || pageProps?.attrs['presentation:visibility'] === 'hidden';
      const spaceAbove = lengthInPoints(child(style, 'style:paragraph-properties')?.attrs['fo:margin-top']);
      const outline = style.attrs['style:default-outline-level'];
      const name = style.attrs['style:name'] ?? '';
      styles.set(name, {
        ...(style.attrs['style:parent-style-name'] !== undefined && { parent: style.attrs['style:parent-style-name'] }),
        run: {
          ...(weight !== undefined && { bold: weight === 'bold' || Number(weight) >= 600 }),
          ...(fontStyle !== undefined && { italic: fontStyle === 'italic' || fontStyle === 'oblique' }),
          ...(through !== undefined && { strike: through !== 'none' }),
          ...(font !== undefined && MONOSPACE.test(font) && { code: true }),
        },
        ...(hidden && { hidden: true }),
        ...(outline !== undefined && outline !== '' && { outlineLevel: Number(outline) }),
        ...(style.attrs['style:family'] === 'paragraph' && TITLE_ROLES[name] && { role: TITLE_ROLES[name] }),
        ...(spaceAbove !== undefined && { spaceAbove }),
      });
    }
  }
  return styles;
}

function readListStyles(roots: readonly XmlElement[]): Map<string, Map<number, boolean>> {
  const lists = new Map<string, Map<number, boolean>>();
  for (const root of roots) {
    for (const style of findAll(root, 'text:list-style')) {
      const levels = new Map<number, boolean>();
      for (const level of childElements(style)) {
        const n = Number(level.attrs['text:level'] ?? 1) - 1;
        if (level.name === 'text:list-level-style-number') levels.set(n, (level.attrs['style:num-format'] ?? '1') !== '');
        else if (level.name === 'text:list-level-style-bullet' || level.name === 'text:list-level-style-image') levels.set(n, false);
      }
      lists.set(style.attrs['style:name'] ?? '', levels);
    }
  }
  return lists;
}
