// PowerPoint decks (pptx) from their own XML: one `## ` section per shown slide, titled by its
// title placeholder (else by its one text set larger than the rest), bold labels in its text as
// `###` sub-headings, its shapes top to bottom (bullets as nested lists, tables, charts' titles
// and data, SmartArt as a nested list, image placeholders; a group's shapes where the group
// places them on the slide), then its speaker notes as a quote.

import type { BlockContent, RootContent } from 'mdast';
import { ApiError } from '../../core/errors.js';
import {
  append,
  asSlideLabel,
  codeBlocks,
  isEmptyParagraph,
  MONOSPACE,
  nestLists,
  paragraph,
  table,
  type CellSource,
  type Inline,
  type ListEntry,
} from './blocks.js';
import type { OfficePackage } from './package.js';
import { chartFrameBlocks } from './chart.js';
import { diagramFrameBlocks } from './diagram.js';
import { pictureAlt, showsImage } from './pictures.js';
import { blocksToHtml } from './render.js';
import { relationships, type Relationships } from './relationships.js';
import { safeLinkUrl } from './inert.js';
import { slideSections, type Slide } from './slide-sections.js';
import { child, childElements, find, findAll, isElement, textOf, type XmlElement } from './xml.js';

const TITLE_TYPES = new Set(['title', 'ctrTitle']);
/** Placeholders that hold a slide's content (a placeholder without a type is the body). */
const CONTENT_TYPES = new Set(['body', 'obj']);

interface SlideContext {
  rels: Relationships;
  /** Bold labels in the text are the slide's sub-headings (not in tables or notes). */
  labels?: boolean;
  /** The deck sets space above its labels: a bold paragraph without it is bold text. */
  spacedLabels: boolean;
  images: { count: number };
  pkg: OfficePackage;
}

export function readPptx(pkg: OfficePackage): RootContent[] {
  const presentation = pkg.xml('ppt/presentation.xml');
  if (presentation === undefined) throw new ApiError('INVALID_INPUT', 'The file is not a PowerPoint deck (no ppt/presentation.xml)');
  const rels = relationships(pkg, 'ppt/presentation.xml');
  const images = { count: 0 };
  const slides = findAll(presentation, 'p:sldId').flatMap((id) => {
    const part = rels.get(id.attrs['r:id'] ?? '')?.part;
    const slide = part ? pkg.xml(part) : undefined;
    return part && slide !== undefined ? [{ part, slide }] : [];
  });
  const spacedLabels = slides.some(({ slide }) => findAll(slide, 'a:p').some(isSpacedLabel));
  const shown = slides.flatMap(({ part, slide }, index) =>
    slide.attrs.show === '0' || slide.attrs.show === 'false'
      ? []
      : [readSlide(slide, index + 1, { rels: relationships(pkg, part), images, pkg, spacedLabels }, pkg)],
  );
  return slideSections(shown);
}

/** A paragraph of bold runs only with space set above it: how a deck sets its labels apart (pandoc's `###`). */
function isSpacedLabel(p: XmlElement): boolean {
  const runs = childElements(p, 'a:r').filter((r) => textOf(child(r, 'a:t') ?? r).trim() !== '');
  const bold = (r: XmlElement) => ['1', 'true'].includes(child(r, 'a:rPr')?.attrs.b ?? '');
  return runs.length > 0 && runs.every(bold) && spacedAbove(child(p, 'a:pPr'));
}

function readSlide(slide: XmlElement, number: number, context: SlideContext, pkg: OfficePackage): Slide<RootContent> {
  const shapes = orderedShapes(find(slide, 'p:spTree') ?? slide);
  const title = shapes.find((s) => TITLE_TYPES.has(placeholderType(s) ?? '')) ?? headlineOf(shapes);
  const titleLines = title ? childElements(find(title, 'p:txBody') ?? title, 'a:p').map((p) => readRuns(p, context)) : [];
  const out: RootContent[] = [];
  for (const shape of shapes) {
    if (shape === title) continue;
    append(out, readShape(shape, { ...context, labels: true }));
  }
  const notes = [...context.rels.values()].find((r) => r.type.endsWith('/notesSlide'))?.part;
  const notesRoot = notes ? pkg.xml(notes) : undefined;
  if (notes && notesRoot !== undefined) {
    const body = findAll(notesRoot, 'p:sp').find((s) => placeholderType(s) === 'body');
    const blocks = body ? readTextBody(find(body, 'p:txBody'), { ...context, rels: relationships(pkg, notes) }, false) : [];
    if (blocks.length) out.push({ type: 'blockquote', children: blocks.filter((b): b is BlockContent => b.type !== 'footnoteDefinition') as BlockContent[] });
  }
  // An untitled slide is named by its place.
  return { titleLines, place: `Slide ${number}`, content: out };
}

/** A slide without a title placeholder is headed by a line of text set at least this large (points)… */
const HEADLINE_MIN_SIZE = 20;
/** …and no longer than this. */
const HEADLINE_MAX_LENGTH = 100;

/** The largest size (points) a shape's runs set, or undefined when none sets one (it inherits). */
function setSize(shape: XmlElement): number | undefined {
  const sizes = findAll(shape, 'a:rPr')
    .map((r) => Number(r.attrs.sz) / 100)
    .filter((size) => size > 0);
  return sizes.length ? Math.max(...sizes) : undefined;
}

/**
 * A slide's heading where it has no title placeholder: its first text, in reading order, that is
 * one short line set larger than any other text of the slide (a text box used as the title), not
 * in the slide's content placeholder.
 */
function headlineOf(shapes: readonly XmlElement[]): XmlElement | undefined {
  const texts = shapes.filter((s) => s.name === 'p:sp' && textOf(find(s, 'p:txBody') ?? s).trim() !== '');
  const sized = texts.map((shape) => ({ shape, size: setSize(shape) }));
  const largest = Math.max(...sized.map((s) => s.size ?? 0));
  const first = sized.find((s) => s.size === largest);
  if (!first || largest < HEADLINE_MIN_SIZE || sized.filter((s) => s.size === largest).length > 1) return undefined;
  // The slide's content placeholder holds content however large it is set (pandoc's quote at 20 pt).
  if (CONTENT_TYPES.has(placeholderType(first.shape) ?? '')) return undefined;
  const paragraphs = childElements(find(first.shape, 'p:txBody') ?? first.shape, 'a:p').filter((p) => textOf(p).trim() !== '');
  return paragraphs.length === 1 && textOf(first.shape).trim().length <= HEADLINE_MAX_LENGTH ? first.shape : undefined;
}

/** Where a group's children are placed on the slide: slide = offset + scale × the child's own coordinates (EMU). */
interface Placement {
  dx: number;
  dy: number;
  sx: number;
  sy: number;
}

const ON_SLIDE: Placement = { dx: 0, dy: 0, sx: 1, sy: 1 };

/**
 * The placement of a group's children: a group's transform maps its children's coordinate space
 * (a:chOff, a:chExt) onto its own box (a:off, a:ext), which its own parent places in turn.
 */
function groupPlacement(group: XmlElement, outer: Placement): Placement {
  const xfrm = child(child(group, 'p:grpSpPr') ?? group, 'a:xfrm');
  const at = (name: string, x: string, y: string): [number, number] => {
    const element = xfrm && child(xfrm, name);
    return [Number(element?.attrs[x] ?? 0) || 0, Number(element?.attrs[y] ?? 0) || 0];
  };
  const [offX, offY] = at('a:off', 'x', 'y');
  const [extX, extY] = at('a:ext', 'cx', 'cy');
  const [chOffX, chOffY] = at('a:chOff', 'x', 'y');
  const [chExtX, chExtY] = at('a:chExt', 'cx', 'cy');
  const sx = extX > 0 && chExtX > 0 ? extX / chExtX : 1;
  const sy = extY > 0 && chExtY > 0 ? extY / chExtY : 1;
  return { dx: outer.dx + outer.sx * (offX - chOffX * sx), dy: outer.dy + outer.sy * (offY - chOffY * sy), sx: outer.sx * sx, sy: outer.sy * sy };
}

/**
 * Shapes (groups opened) in the order a reader scans a slide: top to bottom, and shapes set side
 * by side left to right, a group's shapes where the group puts them on the slide. Side by side
 * means tops aligned within a tenth of the shorter shape's height: boxes in a row are rarely
 * aligned to the EMU, and a strict top-to-bottom sort would read them in the order of their
 * few-hundredths-of-an-inch offsets.
 */
function orderedShapes(tree: XmlElement): XmlElement[] {
  const placed = placedShapes(tree, ON_SLIDE).map((item, index) => ({ ...item, index }));
  placed.sort((a, b) => a.top - b.top || a.left - b.left || a.index - b.index);
  const rows: (typeof placed)[] = [];
  for (const item of placed) {
    const row = rows.at(-1);
    const lead = row?.[0];
    if (row && lead && item.top - lead.top <= Math.min(lead.height, item.height) / 10) row.push(item);
    else rows.push([item]);
  }
  return rows.flatMap((row) => row.sort((a, b) => a.left - b.left || a.top - b.top || a.index - b.index).map((item) => item.shape));
}

/** Every shape of a tree, groups opened, with its box on the slide. */
function placedShapes(tree: XmlElement, placement: Placement): { shape: XmlElement; top: number; left: number; height: number }[] {
  return childElements(tree).flatMap((e) => {
    if (e.name === 'p:grpSp') return placedShapes(e, groupPlacement(e, placement));
    if (!['p:sp', 'p:graphicFrame', 'p:pic'].includes(e.name)) return [];
    const box = boxOf(e);
    return [{ shape: e, top: placement.dy + placement.sy * box.top, left: placement.dx + placement.sx * box.left, height: placement.sy * box.height }];
  });
}

function boxOf(shape: XmlElement): { top: number; left: number; height: number } {
  // The shape's own transform (a graphic frame's is p:xfrm); `a:ext` elsewhere are extension lists.
  const xfrm = find(shape, 'a:xfrm') ?? find(shape, 'p:xfrm');
  const off = xfrm && child(xfrm, 'a:off');
  const ext = xfrm && child(xfrm, 'a:ext');
  return { top: Number(off?.attrs.y ?? 0), left: Number(off?.attrs.x ?? 0), height: Number(ext?.attrs.cy ?? 0) };
}

function placeholderType(shape: XmlElement): string | undefined {
  const ph = find(shape, 'p:ph');
  if (!ph) return undefined;
  return ph.attrs.type ?? 'body';
}

function readShape(shape: XmlElement, context: SlideContext): RootContent[] {
  if (shape.name === 'p:pic') {
    if (!showsImage(shape, context.rels, context.pkg)) return [];
    context.images.count++;
    return [{ type: 'paragraph', children: [{ type: 'image', url: `image-${context.images.count}`, alt: pictureAlt(find(shape, 'p:cNvPr')) }] }];
  }
  if (shape.name === 'p:graphicFrame') {
    const tbl = find(shape, 'a:tbl');
    if (tbl) return [readTable(tbl, context)];
    const chartFrame = find(shape, 'c:chart');
    const chart = chartFrame && chartFrameBlocks(chartFrame, context.rels, context.pkg);
    if (chart) return chart;
    const diagram = find(shape, 'dgm:relIds');
    return (diagram && diagramFrameBlocks(diagram, context.rels, context.pkg)) ?? [];
  }
  const type = placeholderType(shape);
  return readTextBody(find(shape, 'p:txBody'), context, CONTENT_TYPES.has(type ?? ''));
}

/** Paragraphs of a text body; in body placeholders every paragraph is a bullet unless it says none. */
function readTextBody(body: XmlElement | undefined, context: SlideContext, bulletsByDefault: boolean): RootContent[] {
  if (!body) return [];
  const out: RootContent[] = [];
  let list: ListEntry[] = [];
  const flush = () => {
    if (list.length) append(out, nestLists(list));
    list = [];
  };
  const paragraphs = childElements(body, 'a:p')
    .map((p) => ({ p, block: paragraph(readRuns(p, context)) }))
    .filter(({ block }) => !isEmptyParagraph(block));
  paragraphs.forEach(({ p, block }, index) => {
    const pPr = child(p, 'a:pPr');
    const kind = child(pPr ?? p, 'a:buAutoNum')
      ? 'ordered'
      : child(pPr ?? p, 'a:buChar')
        ? 'bullet'
        : child(pPr ?? p, 'a:buNone')
          ? 'none'
          : bulletsByDefault
            ? 'bullet'
            : 'none';
    if (kind === 'none') {
      flush();
      // Space above tells a label from bold text only in a deck that sets its labels so.
      const place = { ...(context.spacedLabels && { setApart: spacedAbove(pPr) }), followed: index < paragraphs.length - 1 };
      out.push(context.labels ? asSlideLabel(block, 3, place) : block);
    } else list.push({ level: Number(pPr?.attrs.lvl ?? 0), ordered: kind === 'ordered', content: [block] });
  });
  flush();
  // Code only on the slide itself: a code block in a table cell would turn the table into HTML.
  return context.labels ? codeBlocks(out) : out;
}

/** Whether a paragraph sets space above itself (a:spcBef, in points or in lines), as a heading does. */
function spacedAbove(pPr: XmlElement | undefined): boolean {
  const before = pPr && child(pPr, 'a:spcBef');
  const amount = before && (child(before, 'a:spcPts') ?? child(before, 'a:spcPct'));
  return Number(amount?.attrs.val ?? 0) > 0;
}

function readRuns(p: XmlElement, context: SlideContext): Inline[] {
  const out: Inline[] = [];
  for (const node of p.children) {
    if (!isElement(node)) continue;
    if (node.name === 'a:br') out.push({ type: 'break' });
    if (node.name !== 'a:r' && node.name !== 'a:fld') continue;
    const rPr = child(node, 'a:rPr');
    const linkId = child(rPr ?? node, 'a:hlinkClick')?.attrs['r:id'];
    const target = linkId ? context.rels.get(linkId) : undefined;
    const link = target?.external ? safeLinkUrl(target.target) : undefined;
    out.push({
      text: textOf(child(node, 'a:t') ?? { name: '', attrs: {}, children: [] }),
      bold: rPr?.attrs.b === '1' || rPr?.attrs.b === 'true',
      italic: rPr?.attrs.i === '1' || rPr?.attrs.i === 'true',
      strike: rPr?.attrs.strike !== undefined && rPr.attrs.strike !== 'noStrike',
      code: MONOSPACE.test(child(rPr ?? node, 'a:latin')?.attrs.typeface ?? ''),
      ...(link && { link }),
    });
  }
  return out;
}

function readTable(tbl: XmlElement, context: SlideContext): RootContent {
  const rows: CellSource[][] = childElements(tbl, 'a:tr').map((tr) =>
    childElements(tr, 'a:tc').map((tc) => ({
      blocks: readTextBody(child(tc, 'a:txBody'), { ...context, labels: false }, false).filter(
        (b): b is BlockContent => b.type !== 'footnoteDefinition',
      ) as BlockContent[],
      colSpan: Number(tc.attrs.gridSpan ?? 1),
      rowSpan: Number(tc.attrs.rowSpan ?? 1),
      covered: tc.attrs.hMerge === '1' || tc.attrs.vMerge === '1',
    })),
  );
  return table(rows, blocksToHtml);
}
