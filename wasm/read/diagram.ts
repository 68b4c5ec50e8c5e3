// SmartArt (DrawingML diagrams in docx and pptx) as what a reader can use: the text of its nodes
// as a bulleted list, nested as the diagram nests them. The text lives in the diagram's data part
// (`dgm:dataModel`): points (`dgm:pt`) hold it, connections (`dgm:cxn`, type parOf) say which point
// is whose child and in what order; the document point (`type="doc"`) is the root. Points of the
// other types (transitions, presentation points) carry no text of the author's.

import type { RootContent } from 'mdast';
import { nestLists, type ListEntry } from './blocks.js';
import type { OfficePackage } from './package.js';
import type { Relationships } from './relationships.js';
import { child, childElements, findAll, textOf, type XmlElement } from './xml.js';

/** Point types that are the author's content (a missing type means `node`). */
const CONTENT_POINTS = new Set(['node', 'asst']);
/** Most nodes one diagram contributes: a diagram's size is the document's word, not ours. */
const MAX_DIAGRAM_NODES = 2_000;

interface Point {
  text: string;
  content: boolean;
}

/**
 * The blocks of the diagram a drawing's `dgm:relIds` element points at (its `r:dm`, the data part,
 * resolved by the relationships of the part holding the drawing), or undefined when it points at
 * no part. As chart.ts's chartFrameBlocks for charts.
 */
export function diagramFrameBlocks(relIds: XmlElement, rels: Relationships, pkg: OfficePackage): RootContent[] | undefined {
  const part = rels.get(relIds.attrs['r:dm'] ?? '')?.part;
  return part === undefined ? undefined : diagramBlocks(pkg.xml(part));
}

/** The blocks of one diagram data part; none when its nodes hold no text (an empty placeholder diagram). */
function diagramBlocks(dataModel: XmlElement | undefined): RootContent[] {
  if (!dataModel) return [];
  const points = readPoints(dataModel);
  const children = childrenOf(dataModel);
  const root = [...points.entries()].find(([, point]) => !point.content)?.[0];
  const entries: ListEntry[] = [];
  const seen = new Set<string>();
  const walk = (id: string, level: number) => {
    if (seen.has(id) || seen.size >= MAX_DIAGRAM_NODES) return; // a cycle in a hostile file
    seen.add(id);
    const point = points.get(id);
    const shown = point?.content === true && point.text !== '';
    if (shown) entries.push({ level, ordered: false, content: [{ type: 'paragraph', children: [{ type: 'text', value: point.text }] }] });
    for (const next of children.get(id) ?? []) walk(next, shown ? level + 1 : level);
  };
  if (root !== undefined) walk(root, 0);
  // Nodes no connection reaches (a diagram whose connections were lost) keep document order.
  for (const [id, point] of points) if (point.content && !seen.has(id)) walk(id, 0);
  return nestLists(entries);
}

function readPoints(dataModel: XmlElement): Map<string, Point> {
  const points = new Map<string, Point>();
  for (const pt of childElements(child(dataModel, 'dgm:ptLst') ?? dataModel, 'dgm:pt').slice(0, MAX_DIAGRAM_NODES)) {
    const type = pt.attrs.type ?? 'node';
    if (type !== 'doc' && !CONTENT_POINTS.has(type)) continue;
    const body = child(pt, 'dgm:t');
    const text = body
      ? findAll(body, 'a:p')
          .map((p) => textOf(p).trim())
          .filter(Boolean)
          .join(' ')
      : '';
    points.set(pt.attrs.modelId ?? '', { text: text.replace(/\s+/g, ' '), content: type !== 'doc' });
  }
  return points;
}

/** Parent point → its children in the order the diagram gives them (`srcOrd`). */
function childrenOf(dataModel: XmlElement): Map<string, string[]> {
  const links = childElements(child(dataModel, 'dgm:cxnLst') ?? dataModel, 'dgm:cxn')
    .filter((cxn) => (cxn.attrs.type ?? 'parOf') === 'parOf')
    .map((cxn) => ({ parent: cxn.attrs.srcId ?? '', child: cxn.attrs.destId ?? '', order: Number(cxn.attrs.srcOrd ?? 0) }))
    .sort((a, b) => a.order - b.order);
  const children = new Map<string, string[]>();
  for (const link of links) {
    const list = children.get(link.parent) ?? [];
    list.push(link.child);
    children.set(link.parent, list);
  }
  return children;
}
