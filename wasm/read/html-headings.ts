// A page's title said twice, read once: pandoc's standalone pages (`<header
// id="title-block-header"><h1 class="title">`) and many sites' templates set the page's title above
// the article's own first heading, the same words at the same level. In Markdown that is one
// heading, so a heading that repeats the heading just before it — nothing between them, the same
// level, the same words — is dropped. A heading repeated after text, or at another level, stays.

import type { RootContent } from 'mdast';
import { plainText } from './blocks.js';

const words = (block: RootContent) => plainText(block).replace(/\s+/g, ' ').trim();

/** `blocks` without a heading that repeats the one right before it. */
export function withoutRepeatedTitle(blocks: readonly RootContent[]): RootContent[] {
  return blocks.filter((block, i) => {
    const before = blocks[i - 1];
    return !(block.type === 'heading' && before?.type === 'heading' && before.depth === block.depth && words(before) === words(block));
  });
}
