// Depth-first walk over an mdast tree (readers adjust nodes in place: image placeholders, …).

import type { Nodes } from 'mdast';

export function visit(node: Nodes, each: (node: Nodes) => void): void {
  each(node);
  if ('children' in node) for (const c of node.children as Nodes[]) visit(c, each);
}
