// The one rule that keeps the Markdown inert, whatever a document holds, for every reader: links
// only to http(s) and mailto (any other link is its text), images only as `image-N`
// placeholders (anything else is its alt text), no HTML but the tables blocks.ts builds (whose
// cells are escaped), no comment from the input, and no `<!--` that could pass for a page
// marker. Readers call `safeLinkUrl` where they read a link; the renderer passes every block
// through `inertBlocks` before it is written, and every table cell before it becomes HTML.

import type { Html, Nodes, Parent, RootContent } from 'mdast';

/** Schemes a link may keep: nothing that runs (javascript:, vbscript:), embeds (data:) or reads local files (file:). */
const SAFE_SCHEMES = new Set(['http', 'https', 'mailto']);

/** What the renderer writes for images: the reader's own numbering. */
const PLACEHOLDER = /^image-\d+$/;

/**
 * The URL as a link may keep it, or undefined. Read as a browser reads it: tabs and line ends
 * anywhere are removed and controls and spaces at its ends trimmed (`java\tscript:` is
 * javascript:). Character references were decoded by the XML or HTML parser, so `jav&#x61;script:`
 * arrives as javascript:. A URL with no scheme (relative, `#anchor`) has nothing to point at in
 * Markdown of its own: it is no link either.
 */
export function safeLinkUrl(url: string | undefined): string | undefined {
  if (!url) return undefined;
  // eslint-disable-next-line no-control-regex -- controls are what is being removed
  const cleaned = url.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '');
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(cleaned)?.[1]?.toLowerCase();
  return scheme !== undefined && SAFE_SCHEMES.has(scheme) ? cleaned : undefined;
}

/** Marks an HTML node as one of the renderer's own tables: the only HTML the Markdown keeps. */
export function ownHtml(value: string, data: Readonly<Record<string, unknown>> = {}): Html {
  return { type: 'html', value, data: { ...data, docwasmTable: true } as Html['data'] };
}

const isOwnHtml = (node: Html): boolean => (node.data as { docwasmTable?: unknown } | undefined)?.docwasmTable === true;

/**
 * A block made inert (in place): zero, one or several blocks. Iterative, so no nesting depth
 * can overflow the stack.
 */
export function inertBlocks(block: RootContent): RootContent[] {
  const holder: Parent = { type: 'root', children: [block] } as Parent;
  const parents: Parent[] = [holder];
  while (parents.length) {
    const parent = parents.pop() as Parent;
    const kept: Nodes[] = [];
    const pending = [...(parent.children as Nodes[])].reverse();
    while (pending.length) {
      const node = pending.pop() as Nodes;
      const replaced = inertNode(node);
      if (!Array.isArray(replaced)) {
        kept.push(replaced);
        if ('children' in replaced) parents.push(replaced as Parent);
      } else for (let i = replaced.length - 1; i >= 0; i--) pending.push(replaced[i] as Nodes);
    }
    parent.children = kept as Parent['children'];
  }
  return holder.children as RootContent[];
}

/** The node itself when it may stay (made safe in place), else what replaces it. */
function inertNode(node: Nodes): Nodes | Nodes[] {
  switch (node.type) {
    case 'link': {
      const url = safeLinkUrl(node.url);
      if (url === undefined) return node.children;
      node.url = url;
      delete node.title;
      return node;
    }
    case 'image':
      // An alt text is one line: its writer's line breaks (PowerPoint's &#xA;) would come out as
      // character references inside the placeholder.
      node.alt = node.alt?.replace(/\s+/g, ' ').trim();
      if (!PLACEHOLDER.test(node.url)) return node.alt ? [{ type: 'text', value: node.alt }] : [];
      delete node.title;
      return node;
    case 'linkReference':
      return node.children;
    case 'imageReference':
      return node.alt ? [{ type: 'text', value: node.alt }] : [];
    case 'definition':
      return [];
    case 'html':
      // A comment or markup from the input (hast-util-to-mdast keeps comments as html).
      return isOwnHtml(node) ? node : [];
    case 'code':
    case 'inlineCode':
      // Code cannot be escaped in Markdown: the comment opener is broken with a backslash.
      node.value = node.value.replaceAll('<!--', '<\\!--');
      return node;
    default:
      return node;
  }
}
