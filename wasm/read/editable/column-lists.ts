// A list that goes on from the left column into the right one, cut where it crosses. `read` keeps
// a numbered list whole where a page's left column ends in its items and the right column goes on
// with more (a questionnaire over a two-page spread: questions 23–25 on the left, 26–28 on the
// right, the right's taken for a list nested in the last left item, as they stand further in).
// Whole, the list stands across the page's middle, so the page was not cut into columns and the
// DOCX set both pages' text down one column. Cut at the item where it crosses, its left part is the
// left column's last block and the rest the right column's first, a list of its own.

import type { List, ListItem, RootContent } from 'mdast';

/** Which side of the page's middle a block stands on, as columns.ts reckons it. */
export type SideOf = (block: RootContent) => 'left' | 'right' | 'full' | 'unknown';

/** A list's parts: what stays in the left column, and what goes on in the right one. */
interface Cut {
  left: ListItem[];
  right: RootContent[];
}

/**
 * The list cut in two where it goes on past the middle: its items down the left column, then the
 * rest (items of it, or of a list nested in its last left item) as the right column's blocks.
 * Undefined where it does not read so (a part crosses the middle, or the parts alternate).
 */
export function cutAtMiddle(list: List, sideOf: SideOf): RootContent[] | undefined {
  const cut = cutItems(list, sideOf);
  if (!cut || !cut.left.length || !cut.right.length) return undefined;
  const left: List = { ...list, children: cut.left };
  if (sideOf(left) !== 'left' || !cut.right.every((block) => sideOf(block) === 'right')) return undefined;
  return [left, ...cut.right];
}

/** Where in a list's items the right column begins: at an item, or inside one's nested list. */
function cutItems(list: List, sideOf: SideOf): Cut | undefined {
  for (let index = 0; index < list.children.length; index++) {
    const item = list.children[index] as ListItem;
    const side = sideOf({ ...list, children: [item] });
    if (side === 'left') continue;
    const rest = remainingItems(list, index + 1);
    if (side === 'right') return { left: list.children.slice(0, index), right: [remainingItems(list, index)].filter((part) => part !== undefined) };
    const inner = cutInsideItem(item, sideOf);
    if (!inner) return undefined;
    return {
      left: [...list.children.slice(0, index), ...(inner.left.length ? [{ ...item, children: inner.left }] : [])],
      right: [...inner.right, ...(rest ? [rest] : [])],
    };
  }
  return undefined;
}

/** An item that crosses the middle: its blocks on the left, then a nested list that goes on in the right column. */
function cutInsideItem(item: ListItem, sideOf: SideOf): { left: ListItem['children']; right: RootContent[] } | undefined {
  const children = item.children;
  for (let index = 0; index < children.length; index++) {
    const child = children[index] as ListItem['children'][number];
    const side = sideOf(child);
    if (side === 'left' || side === 'unknown') continue;
    // Only a nested list goes on in the right column: an item's own paragraph split over the two
    // would leave the right column's part without its marker.
    if (child.type !== 'list' || index === 0) return undefined;
    const after = children.slice(index + 1);
    if (side === 'right') return { left: children.slice(0, index), right: [...children.slice(index)] };
    const cut = cutItems(child, sideOf);
    if (!cut) return undefined;
    return { left: [...children.slice(0, index), ...(cut.left.length ? [{ ...child, children: cut.left }] : [])], right: [...cut.right, ...after] };
  }
  return undefined;
}

/** A list's items from `from` on, as a list of their own (a numbered one counting on from them). */
function remainingItems(list: List, from: number): List | undefined {
  if (from >= list.children.length) return undefined;
  const start = list.ordered ? (list.start ?? 1) + from : list.start;
  return { ...list, children: list.children.slice(from), ...(start !== undefined && start !== null && { start }) };
}
