// HTML pages to the block model by hast-util-from-html (the WHATWG parser of the unified
// ecosystem) and hast-util-to-mdast. Nothing the page points at is fetched: pictures become
// numbered placeholders, scripts and styles are dropped by the conversion. Tables go through the
// shared table model (html-table.ts).

import type { Image, Root, RootContent } from 'mdast';
import { fromHtml } from 'hast-util-from-html';
import { toMdast } from 'hast-util-to-mdast';
import { tableHandler } from './html-table.js';
import { visit } from './visit.js';

export function readHtml(html: string): RootContent[] {
  const tree = toMdast(fromHtml(html), { handlers: { table: tableHandler } }) as Root;
  let images = 0;
  visit(tree, (node) => {
    if (node.type === 'image') {
      const image = node as Image;
      image.url = `image-${++images}`;
      delete image.title;
    }
  });
  return tree.children;
}
