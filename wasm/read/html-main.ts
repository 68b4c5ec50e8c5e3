// A web page's own content, without the site around it: the page's one <main> (or role=main)
// when it has one with text, and everywhere the site's chrome left out — navigation (<nav>,
// role=navigation, search), sidebars (<aside> and role=complementary outside an article), the
// page footer (<footer> and role=contentinfo outside an article or section), a site banner
// (<header>, role=banner, when it holds no <h1>: the page title stays), skip links, cookie
// banners and what the page hides (`hidden`, aria-hidden). A page with none of this markup is
// read whole, as before. The rules follow the HTML landmark roles (WAI-ARIA), which is what
// sites mark their chrome with; no text-density guess is made, so nothing of an unmarked page
// is lost.

import type { Element, ElementContent, Root, RootContent } from 'hast';

type Node = Root | RootContent;

/** Elements that hold an article's own parts: a <header> or <footer> inside one is content. */
const SECTIONING = new Set(['article', 'section', 'main']);
const CHROME_ROLES = new Set(['navigation', 'search', 'contentinfo', 'complementary', 'banner']);
/** Class or id of consent banners and skip links, which sites mark with no landmark. */
const CHROME_NAMES = /(^|[-_\s])(cookie|consent|gdpr)([-_\s]|banner|notice|bar|$)|(^|[-_\s])skip[-_]?(link|to|nav)/i;

/** The page's main content, chrome removed; `page` is left as it was. */
export function mainContent(page: Root): Root {
  const mains = outermost(page, (e) => e.tagName === 'main' || roleOf(e) === 'main');
  const main = mains.length === 1 ? mains[0] : undefined;
  const base: Root = main && hasText(main) ? { type: 'root', children: [main] } : page;
  return withoutChrome(base, false) as Root;
}

function withoutChrome<T extends Node>(node: T, inSection: boolean): T {
  if (!('children' in node)) return node;
  const inside = inSection || (node.type === 'element' && SECTIONING.has(node.tagName));
  const children = (node.children as ElementContent[]).filter((c) => c.type !== 'element' || !isChrome(c, inside)).map((c) => withoutChrome(c, inside));
  return { ...node, children } as T;
}

function isChrome(element: Element, inSection: boolean): boolean {
  const { tagName, properties } = element;
  if (properties.hidden !== undefined && properties.hidden !== false) return true;
  if (String(properties.ariaHidden) === 'true') return true;
  const role = roleOf(element);
  if (tagName === 'nav' || role === 'navigation' || role === 'search') return true;
  if (!inSection && (tagName === 'aside' || role === 'complementary')) return true;
  if (!inSection && (tagName === 'footer' || role === 'contentinfo')) return true;
  if ((tagName === 'header' && !inSection) || role === 'banner') return !holdsTitle(element);
  if (role !== undefined && CHROME_ROLES.has(role)) return true;
  // A menu's toggle (a checkbox or button acting as one) and a list of the page in other languages.
  if (tagName === 'input' && (role === 'button' || properties.ariaHaspopup !== undefined)) return true;
  if (isLanguageList(element)) return true;
  return isSkipLink(element) || CHROME_NAMES.test(`${classNames(element)} ${String(properties.id ?? '')}`);
}

/** A list whose every item is one link to the page in another language (`hreflang`): a language switcher. */
function isLanguageList(element: Element): boolean {
  if (element.tagName !== 'ul' && element.tagName !== 'ol') return false;
  const items = element.children.filter((c): c is Element => c.type === 'element' && c.tagName === 'li');
  return (
    items.length > 0 &&
    items.every((li) => {
      const links = outermost(li, (e) => e.tagName === 'a');
      return links.length === 1 && links[0]?.properties.hrefLang !== undefined;
    })
  );
}

/** "Skip to content": a link to a fragment of the page whose text says skip. */
function isSkipLink(element: Element): boolean {
  if (element.tagName !== 'a') return false;
  const href = String(element.properties.href ?? '');
  return href.startsWith('#') && /^\s*(skip|jump)\b/i.test(textOf(element));
}

const roleOf = (element: Element): string | undefined =>
  typeof element.properties.role === 'string' ? element.properties.role.trim().toLowerCase() : undefined;

function classNames(element: Element): string {
  const value = element.properties.className;
  return Array.isArray(value) ? value.join(' ') : String(value ?? '');
}

function holdsTitle(element: Element): boolean {
  return outermost(element, (e) => e.tagName === 'h1').length > 0;
}

/** Elements matching `test` that are not inside another match, in document order. */
function outermost(root: Node, test: (element: Element) => boolean): Element[] {
  const found: Element[] = [];
  const pending: Node[] = [root];
  while (pending.length) {
    const node = pending.pop() as Node;
    if (node.type === 'element' && node !== root && test(node)) {
      found.push(node);
      continue;
    }
    if ('children' in node) for (let i = node.children.length - 1; i >= 0; i--) pending.push(node.children[i] as Node);
  }
  return found;
}

function textOf(node: Node): string {
  let text = '';
  const pending: Node[] = [node];
  while (pending.length) {
    const current = pending.pop() as Node;
    if (current.type === 'text') text += current.value;
    if ('children' in current) for (let i = current.children.length - 1; i >= 0; i--) pending.push(current.children[i] as Node);
  }
  return text;
}

const hasText = (node: Node): boolean => /\S/.test(textOf(node));
