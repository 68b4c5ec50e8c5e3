// HTML pages to the block model by hast-util-from-html (the WHATWG parser of the unified
// ecosystem) and hast-util-to-mdast, the page's main content only (html-main.ts). Nothing the page points at is fetched: pictures become
// numbered placeholders as they are met (table cells included), scripts, styles and the page's
// own comments are dropped by the conversion. Tables go through the shared table model
// (html-table.ts). A page nested deeper than MAX_NESTING is TOO_LARGE: the conversions recurse
// once per level, so the depth is measured (iteratively) before they run.

import type { Nodes as HastNodes, Root as HastRoot } from 'hast';
import type { Image, Nodes, Root, RootContent } from 'mdast';
import { fromHtml } from 'hast-util-from-html';
import { defaultHandlers, toMdast, type Handle, type State } from 'hast-util-to-mdast';
import { withoutRepeatedTitle } from './html-headings.js';
import { mainContent } from './html-main.js';
import { tableHandler } from './html-table.js';
import { MAX_NESTING, nestedTooDeep } from './limits.js';

export function readHtml(html: string): RootContent[] {
  const page = mainContent(parsePage(html));
  // Each picture is numbered where it is converted, so pictures in table cells (written as HTML
  // there and then) are placeholders in document order too. A handler's result holds the
  // pictures of its children, numbered already.
  const numbered = new WeakSet<Image>();
  let count = 0;
  const numbering =
    (handle: Handle): Handle =>
    (state: State, node, parent) => {
      const result = handle(state, node, parent);
      for (const made of Array.isArray(result) ? result : result ? [result] : []) {
        forEachImage(made, (image) => {
          if (numbered.has(image)) return;
          numbered.add(image);
          image.url = `image-${++count}`;
        });
      }
      return result;
    };
  const handlers = {
    base: baseHandler,
    table: tableHandler,
    img: numbering(defaultHandlers.img),
    image: numbering(defaultHandlers.image),
    input: numbering(defaultHandlers.input),
    video: numbering(defaultHandlers.video),
    audio: numbering(defaultHandlers.audio),
  };
  const tree = toMdast(page, { handlers, nodeHandlers: { comment: () => undefined } }) as Root;
  return withoutRepeatedTitle(tree.children);
}

/**
 * The first <base href> resolves the page's links, as hast-util-to-mdast's own handler does, but
 * only when it is an absolute URL, and a link that does not resolve against it is kept as written:
 * the library's `new URL` threw on `<base href="foo">` (issue 41 item 8). A page's links are not
 * followed anyway; the base only makes them absolute.
 */
const baseHandler: Handle = (state, node) => {
  if (state.baseFound) return;
  state.baseFound = true;
  const href = String(node.properties.href ?? '');
  if (!URL.canParse(href)) return;
  state.frozenBaseUrl = href;
  const resolve = state.resolve.bind(state);
  state.resolve = (url) => {
    try {
      return resolve(url);
    } catch {
      return url ?? '';
    }
  };
};

/** The page's tree, refused when it nests deeper than MAX_NESTING. */
function parsePage(html: string): HastRoot {
  let page: HastRoot;
  try {
    page = fromHtml(html);
  } catch (err) {
    // parse5 builds the tree iteratively, but hast-util-from-parse5 copies it recursively: a
    // page some 20,000 elements deep overflows the stack there, far past MAX_NESTING.
    if (err instanceof RangeError) throw nestedTooDeep('The page');
    throw err;
  }
  if (depthOf(page) > MAX_NESTING) throw nestedTooDeep('The page');
  return page;
}

function depthOf(root: HastRoot): number {
  let deepest = 0;
  const pending: [HastNodes, number][] = [[root, 0]];
  while (pending.length) {
    const [node, depth] = pending.pop() as [HastNodes, number];
    deepest = Math.max(deepest, depth);
    if ('children' in node) for (const c of node.children) pending.push([c, depth + 1]);
    // A <template>'s content is a tree of its own.
    if (node.type === 'element' && node.content) pending.push([node.content, depth + 1]);
  }
  return deepest;
}

/** Every image in `node`, in document order. */
function forEachImage(node: Nodes, each: (image: Image) => void): void {
  const pending: Nodes[] = [node];
  while (pending.length) {
    const current = pending.pop() as Nodes;
    if (current.type === 'image') each(current);
    if ('children' in current) for (let i = current.children.length - 1; i >= 0; i--) pending.push(current.children[i] as Nodes);
  }
}
