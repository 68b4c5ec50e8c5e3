// Depth-first walk over an mdast tree (readers adjust nodes in place: note numbers, …), in
// document order. Iterative: no nesting depth can overflow the stack.

import type { Nodes } from 'mdast';

export function visit(node: Nodes, each: (node: Nodes) => void): void {
  const pending: Nodes[] = [node];
  while (pending.length) {
    const current = pending.pop() as Nodes;
    each(current);
    if ('children' in current) for (let i = current.children.length - 1; i >= 0; i--) pending.push(current.children[i] as Nodes);
  }
}
