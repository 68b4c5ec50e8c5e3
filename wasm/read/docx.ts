// Word documents (docx) from their own XML: headings from paragraph styles and outline levels
// (style inheritance resolved), lists from numbering definitions, runs with bold/italic/code/
// strike, links, footnotes and endnotes, tables, text boxes (DrawingML and VML), SmartArt (diagram.ts) and charts'
// titles and data after the paragraph they are anchored in, image placeholders. Hidden text, deleted
// revisions, comments and field codes are left out; a field's shown result is kept.

import type { BlockContent, FootnoteDefinition, RootContent } from 'mdast';
import { ApiError } from '../../core/errors.js';
import {
  append,
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
import { chartFrameBlocks } from './chart.js';
import { diagramFrameBlocks } from './diagram.js';
import { pictureAlt, showsImage } from './pictures.js';
import { blocksToHtml } from './render.js';
import { Numbering } from './docx-numbering.js';
import { relationships, type Relationships } from './relationships.js';
import { safeLinkUrl } from './inert.js';
import { child, childElements, find, findAll, isElement, type XmlElement } from './xml.js';

interface ParagraphStyle {
  basedOn?: string;
  name: string;
  outlineLevel?: number;
  numbering?: { numId: string; level: number };
  run: RunStyle;
}

interface DocxContext {
  styles: Map<string, ParagraphStyle>;
  numbering: Numbering;
  rels: Relationships;
  notes: FootnoteDefinition[];
  noteXml: Map<string, XmlElement>;
  /** Notes referred to and not read yet: read after the body, one by one (a chain of notes referring to notes is not a chain of calls). */
  pendingNotes: { note: FootnoteDefinition; xml: XmlElement }[];
  images: { count: number };
  /** Added to an outline level (0-based) to get a heading depth: 2 when a Title takes `#`. */
  headingShift: number;
  /** Blocks of the text boxes and charts anchored in the paragraph being read: they follow it. */
  anchored: RootContent[];
  pkg: OfficePackage;
}

/** The outline level given to the Title style: above every heading. */
const TITLE_LEVEL = -1;

export function readDocx(pkg: OfficePackage): RootContent[] {
  const document = pkg.xml('word/document.xml');
  if (document === undefined) throw new ApiError('INVALID_INPUT', 'The file is not a Word document (no word/document.xml)');
  const context: DocxContext = {
    styles: readStyles(pkg.xml('word/styles.xml')),
    numbering: new Numbering(pkg.xml('word/numbering.xml')),
    rels: relationships(pkg, 'word/document.xml'),
    notes: [],
    noteXml: new Map([...readNotes(pkg.xml('word/footnotes.xml'), 'w:footnote', 'fn'), ...readNotes(pkg.xml('word/endnotes.xml'), 'w:endnote', 'en')]),
    pendingNotes: [],
    images: { count: 0 },
    headingShift: 1,
    anchored: [],
    pkg,
  };
  const body = child(document, 'w:body');
  const usesTitle = body !== undefined && findAll(body, 'w:pStyle').some((s) => resolveStyle(attr(s, 'w:val'), context.styles).outlineLevel === TITLE_LEVEL);
  context.headingShift = usesTitle ? 2 : 1;
  // Code paragraphs (pandoc's Source Code style, Word's HTML Preformatted, any paragraph set
  // wholly in a monospaced face: one line each, or lines joined by breaks) as code blocks — in
  // the flow, not in table cells, where a name set in code stays inline code.
  const blocks = body ? codeBlocks(readBlocks(body, context)) : [];
  readPendingNotes(context);
  return [...blocks, ...context.notes];
}

/** Body-level content: paragraphs (grouped into lists) and tables. */
function readBlocks(container: XmlElement, context: DocxContext): RootContent[] {
  const out: RootContent[] = [];
  let pendingList: ListEntry[] = [];
  const flushList = () => {
    if (pendingList.length) append(out, nestLists(pendingList));
    pendingList = [];
  };
  for (const element of bodyElements(container)) {
    if (element.name === 'w:tbl') {
      flushList();
      append(out, readTable(element, context));
      continue;
    }
    const { block, list, anchored } = readParagraph(element, context);
    if (list && block.type === 'paragraph' && anchored.length === 0) {
      pendingList.push({ ...list, content: isEmptyParagraph(block) ? [] : [block] });
      continue;
    }
    if (list && block.type === 'paragraph') pendingList.push({ ...list, content: isEmptyParagraph(block) ? [] : [block] });
    flushList();
    if (!list && !isEmptyParagraph(block)) out.push(block);
    append(out, anchored);
  }
  flushList();
  return out;
}

/** w:p and w:tbl of a container, looking through content controls and custom XML. */
function bodyElements(container: XmlElement): XmlElement[] {
  const found: XmlElement[] = [];
  const pending = childElements(container).reverse();
  while (pending.length) {
    const element = pending.pop() as XmlElement;
    if (element.name === 'w:p' || element.name === 'w:tbl') found.push(element);
    else if (element.name === 'w:sdt') append(pending, childElements(child(element, 'w:sdtContent') ?? element).reverse());
    else if (element.name === 'w:customXml' || element.name === 'w:ins' || element.name === 'w:moveTo') append(pending, childElements(element).reverse());
  }
  return found;
}

interface ReadParagraph {
  block: BlockContent;
  list?: { level: number; ordered: boolean };
  /** Text boxes' and charts' blocks anchored in it, in the order met. */
  anchored: RootContent[];
}

function readParagraph(p: XmlElement, context: DocxContext): ReadParagraph {
  // Text boxes hold paragraphs of their own (and may hold text boxes): each paragraph collects its own.
  const outer = context.anchored;
  context.anchored = [];
  try {
    return { ...readParagraphContent(p, context), anchored: context.anchored };
  } finally {
    context.anchored = outer;
  }
}

function readParagraphContent(p: XmlElement, context: DocxContext): Omit<ReadParagraph, 'anchored'> {
  const pPr = child(p, 'w:pPr');
  const styleId = attr(child(pPr, 'w:pStyle'), 'w:val');
  const style = resolveStyle(styleId, context.styles);
  const inlines = readInlines(p, context, style.run, { inField: false });
  const ownOutline = attr(child(pPr, 'w:outlineLvl'), 'w:val');
  const outline = ownOutline !== undefined ? Number(ownOutline) : style.outlineLevel;
  const numPr = child(pPr, 'w:numPr');
  const numId = attr(child(numPr, 'w:numId'), 'w:val') ?? style.numbering?.numId;
  const level = Number(attr(child(numPr, 'w:ilvl'), 'w:val') ?? style.numbering?.level ?? 0);
  const numbered = numId !== undefined && context.numbering.has(numId);
  // Every numbered paragraph counts, so a heading's number is the one Word shows.
  const label = numbered ? context.numbering.advance(numId, level) : '';
  if (outline === TITLE_LEVEL) return { block: heading(1, inlines) };
  if (outline !== undefined && outline >= 0 && outline < 9)
    return { block: heading(outline + context.headingShift, label ? [{ text: `${label} ` }, ...inlines] : inlines) };
  const block = paragraph(inlines);
  if (!numbered) return { block };
  return { block, list: { level, ordered: context.numbering.isOrdered(numId, level) } };
}

interface InlineState {
  /** Inside a complex field's instruction part (between begin and separate): skipped. */
  inField: boolean;
}

function readInlines(container: XmlElement, context: DocxContext, base: RunStyle, state: InlineState, link?: string): Inline[] {
  const out: Inline[] = [];
  for (const node of container.children) {
    if (!isElement(node)) continue;
    switch (node.name) {
      case 'w:r':
        append(out, readRun(node, context, base, state, link));
        break;
      case 'w:hyperlink': {
        const target = context.rels.get(attr(node, 'r:id') ?? '')?.target;
        append(out, readInlines(node, context, base, state, safeLinkUrl(target) ?? link));
        break;
      }
      case 'w:fldSimple':
      case 'w:smartTag':
      case 'w:customXml':
      case 'w:ins':
      case 'w:moveTo':
      case 'w:bdo':
      case 'w:dir':
        append(out, readInlines(node, context, base, state, link));
        break;
      case 'w:sdt':
        append(out, readInlines(child(node, 'w:sdtContent') ?? node, context, base, state, link));
        break;
      default:
        // w:pPr, w:del, w:moveFrom, w:commentRangeStart, w:proofErr, w:bookmarkStart, …
        break;
    }
  }
  return out;
}

function readRun(r: XmlElement, context: DocxContext, base: RunStyle, state: InlineState, link?: string): Inline[] {
  const rPr = child(r, 'w:rPr');
  if (isOn(child(rPr, 'w:vanish'))) return [];
  const style = runStyle(rPr, base);
  const out: Inline[] = [];
  for (const node of r.children) {
    if (!isElement(node)) continue;
    if (node.name === 'w:fldChar') {
      const type = attr(node, 'w:fldCharType');
      if (type === 'begin') state.inField = true;
      else if (type === 'separate' || type === 'end') state.inField = false;
      continue;
    }
    if (state.inField) continue;
    const text = runText(node);
    if (text !== undefined) out.push({ ...style, text, ...(link && { link }) });
    else if (node.name === 'w:br' && attr(node, 'w:type') !== 'page') out.push({ type: 'break' });
    else if (node.name === 'w:footnoteReference' || node.name === 'w:endnoteReference') out.push(noteReference(node, context));
    else if (node.name === 'w:drawing' || node.name === 'w:pict' || node.name === 'w:object' || node.name === 'mc:AlternateContent')
      append(out, readDrawing(node, context));
  }
  return out;
}

/**
 * A drawing in a run: its text boxes' content and its charts' data join the blocks after the
 * paragraph; a picture stays in the run as a placeholder. Of an mc:AlternateContent only the
 * first choice is read (the fallback repeats it as VML).
 */
function readDrawing(node: XmlElement, context: DocxContext): Inline[] {
  const drawing = node.name === 'mc:AlternateContent' ? (child(node, 'mc:Choice') ?? child(node, 'mc:Fallback')) : node;
  if (!drawing) return [];
  const boxes = outermost(drawing, 'w:txbxContent');
  for (const box of boxes) append(context.anchored, codeBlocks(readBlocks(box, context)));
  const charts = findAll(drawing, 'c:chart');
  for (const chart of charts) append(context.anchored, chartFrameBlocks(chart, context.rels, context.pkg) ?? []);
  const diagrams = findAll(drawing, 'dgm:relIds');
  for (const diagram of diagrams) append(context.anchored, diagramFrameBlocks(diagram, context.rels, context.pkg) ?? []);
  const picture = find(drawing, 'pic:pic');
  if (picture) return showsImage(picture, context.rels, context.pkg) ? [imagePlaceholder(drawing, context)] : [];
  const isPicture = find(drawing, 'v:imagedata') !== undefined || drawing.name === 'w:object';
  return isPicture || boxes.length + charts.length + diagrams.length === 0 ? [imagePlaceholder(drawing, context)] : [];
}

/** Elements named `name` not inside another of that name (a text box in a text box is read with its outer one). */
function outermost(root: XmlElement, name: string): XmlElement[] {
  const found: XmlElement[] = [];
  const pending = [root];
  while (pending.length) {
    const element = pending.pop() as XmlElement;
    if (element.name === name) {
      found.push(element);
      continue;
    }
    for (let i = element.children.length - 1; i >= 0; i--) {
      const node = element.children[i];
      if (node !== undefined && isElement(node)) pending.push(node);
    }
  }
  return found;
}

function runText(node: XmlElement): string | undefined {
  switch (node.name) {
    case 'w:t':
      return node.children.filter((c): c is string => typeof c === 'string').join('');
    case 'w:tab':
    case 'w:ptab':
      return '\t';
    case 'w:noBreakHyphen':
      return '-';
    case 'w:softHyphen':
      return '';
    case 'w:cr':
      return ' ';
    default:
      return undefined;
  }
}

function runStyle(rPr: XmlElement | undefined, base: RunStyle): RunStyle {
  if (!rPr) return base;
  const fonts = child(rPr, 'w:rFonts');
  const rStyle = attr(child(rPr, 'w:rStyle'), 'w:val') ?? '';
  return {
    bold: toggle(child(rPr, 'w:b'), base.bold),
    italic: toggle(child(rPr, 'w:i'), base.italic),
    strike: toggle(child(rPr, 'w:strike'), base.strike),
    code: base.code || MONOSPACE.test(attr(fonts, 'w:ascii') ?? '') || /code|verbatim/i.test(rStyle),
  };
}

function noteReference(node: XmlElement, context: DocxContext): Inline {
  const kind = node.name === 'w:footnoteReference' ? 'fn' : 'en';
  const identifier = `${kind}${attr(node, 'w:id') ?? ''}`;
  const xml = context.noteXml.get(identifier);
  if (xml) {
    context.noteXml.delete(identifier); // a note that refers to itself is read once
    const note: FootnoteDefinition = { type: 'footnoteDefinition', identifier, label: identifier, children: [] };
    context.notes.push(note);
    context.pendingNotes.push({ note, xml });
  }
  return { type: 'footnoteReference', identifier, label: identifier };
}

/** Reads the notes referred to, and those their text refers to, in the order referred to. */
function readPendingNotes(context: DocxContext): void {
  // The list grows while it is read: notes referred to from notes join its end.
  for (let i = 0; i < context.pendingNotes.length; i++) {
    const { note, xml } = context.pendingNotes[i] as DocxContext['pendingNotes'][number];
    note.children = readBlocks(xml, context).filter((b): b is BlockContent => b.type !== 'footnoteDefinition');
  }
}

function imagePlaceholder(node: XmlElement, context: DocxContext): Inline {
  context.images.count++;
  return { type: 'image', url: `image-${context.images.count}`, alt: pictureAlt(find(node, 'wp:docPr')) };
}

/**
 * A table of one row of one cell is a frame around content (a box, a layout container), not
 * data: its blocks join the flow. Any other table is read as a table.
 */
function readTable(tbl: XmlElement, context: DocxContext): RootContent[] {
  const rows = tableRows(tbl, context);
  const only = rows.length === 1 && rows[0]?.length === 1 ? rows[0][0] : undefined;
  return only ? only.blocks : [table(rows, blocksToHtml)];
}

function tableRows(tbl: XmlElement, context: DocxContext): CellSource[][] {
  const rows: CellSource[][] = [];
  const openMerges = new Map<number, CellSource>(); // grid column → cell a vertical merge started in
  for (const tr of childElements(tbl, 'w:tr')) {
    // A row may start late or end early (gridBefore/gridAfter): those grid columns hold no cell.
    const trPr = child(tr, 'w:trPr');
    const gridBefore = Math.min(1000, Math.max(0, Number(attr(child(trPr, 'w:gridBefore'), 'w:val') ?? 0) || 0));
    const row: CellSource[] = Array.from({ length: gridBefore }, () => ({ blocks: [], colSpan: 1, rowSpan: 1 }));
    let column = gridBefore;
    for (const tc of childElements(tr).flatMap((e) =>
      e.name === 'w:tc' ? [e] : e.name === 'w:sdt' ? childElements(child(e, 'w:sdtContent') ?? e, 'w:tc') : [],
    )) {
      const tcPr = child(tc, 'w:tcPr');
      const colSpan = Math.max(1, Number(attr(child(tcPr, 'w:gridSpan'), 'w:val') ?? 1));
      const vMerge = child(tcPr, 'w:vMerge');
      const blocks = readBlocks(tc, context).filter((b): b is BlockContent => b.type !== 'footnoteDefinition');
      const cell: CellSource = { blocks, colSpan, rowSpan: 1 };
      if (vMerge && attr(vMerge, 'w:val') !== 'restart') {
        const start = openMerges.get(column);
        if (start) {
          start.rowSpan++;
          cell.covered = true;
        }
      } else if (vMerge) openMerges.set(column, cell);
      else openMerges.delete(column);
      row.push(cell);
      column += colSpan;
    }
    rows.push(row);
  }
  return rows;
}

function readStyles(root: XmlElement | undefined): Map<string, ParagraphStyle> {
  const styles = new Map<string, ParagraphStyle>();
  if (!root) return styles;
  for (const style of childElements(root, 'w:style')) {
    const id = attr(style, 'w:styleId');
    if (!id || (attr(style, 'w:type') ?? 'paragraph') !== 'paragraph') continue;
    const pPr = child(style, 'w:pPr');
    const numPr = child(pPr, 'w:numPr');
    const numId = attr(child(numPr, 'w:numId'), 'w:val');
    const outline = attr(child(pPr, 'w:outlineLvl'), 'w:val');
    const name = attr(child(style, 'w:name'), 'w:val') ?? id;
    styles.set(id, {
      name,
      ...(attr(child(style, 'w:basedOn'), 'w:val') !== undefined && { basedOn: attr(child(style, 'w:basedOn'), 'w:val') }),
      ...(outline !== undefined ? { outlineLevel: Number(outline) } : headingLevelOfName(name)),
      ...(numId !== undefined && { numbering: { numId, level: Number(attr(child(numPr, 'w:ilvl'), 'w:val') ?? 0) } }),
      run: runStyle(child(style, 'w:rPr'), {}),
    });
  }
  return styles;
}

/** "heading 2" → outline level 1; "Title" → above level 0. Word writes outlineLvl, other writers may not. */
function headingLevelOfName(name: string): { outlineLevel?: number } {
  const match = /^heading\s*([1-9])$/i.exec(name.trim());
  if (match) return { outlineLevel: Number(match[1]) - 1 };
  return /^title$/i.test(name.trim()) ? { outlineLevel: TITLE_LEVEL } : {};
}

/** A style with what it inherits (basedOn chains, cycles cut). */
function resolveStyle(id: string | undefined, styles: Map<string, ParagraphStyle>): ParagraphStyle {
  const chain = styleChain(id, styles, (style) => style.basedOn);
  const resolved: ParagraphStyle = { name: chain.at(-1)?.name ?? '', run: {} };
  for (const style of chain) {
    if (style.outlineLevel !== undefined) resolved.outlineLevel = style.outlineLevel;
    if (style.numbering) resolved.numbering = style.numbering;
    resolved.run = { ...resolved.run, ...definedOnly(style.run) };
  }
  return resolved;
}

function readNotes(root: XmlElement | undefined, element: string, prefix: string): [string, XmlElement][] {
  if (!root) return [];
  return childElements(root, element)
    .filter((note) => !attr(note, 'w:type') || attr(note, 'w:type') === 'normal')
    .map((note) => [`${prefix}${attr(note, 'w:id') ?? ''}`, note]);
}

/** An on/off property: present means on unless its val says false. */
function isOn(element: XmlElement | undefined): boolean {
  if (!element) return false;
  const value = attr(element, 'w:val');
  return value === undefined || !/^(0|false|off|none)$/i.test(value);
}

const toggle = (element: XmlElement | undefined, inherited: boolean | undefined): boolean | undefined => (element ? isOn(element) : inherited);

function attr(element: XmlElement | undefined, name: string): string | undefined {
  return element?.attrs[name];
}
