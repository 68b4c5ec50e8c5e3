// A page's title said twice (html-headings.ts): pandoc's standalone pages and many sites'
// templates set the page's title block above the article's own first heading, the same words at
// the same level. Read through the HTML reader (html.ts) on hand-written pages.

import { describe, expect, it } from 'vitest';
import { readHtml } from '../../wasm/read/html.js';
import { renderMarkdown } from '../../wasm/read/render.js';

const markdownOf = (html: string) => renderMarkdown(readHtml(html), 1_000_000).markdown.trimEnd();

describe('a title said twice (html-headings.ts)', () => {
  it('reads pandoc’s title block and the first heading after it as one heading', () => {
    const page = '<header id="title-block-header"><h1 class="title">Message Filter</h1></header><h1 id="message-filter">Message Filter</h1><p>Two ways.</p>';
    expect(markdownOf(page)).toBe('# Message Filter\n\nTwo ways.');
  });

  it('reads a template’s title over its article’s own heading as one, whatever the spaces and markup', () => {
    const page =
      '<header><h1 class="entry-title">Getting  started</h1></header><article><h1><a href="#start">Getting started</a></h1><p>Install it.</p></article>';
    expect(markdownOf(page)).toBe('# Getting started\n\nInstall it.');
  });

  it('keeps a heading repeated after text, or at another level', () => {
    expect(markdownOf('<h2>Notes</h2><p>First.</p><h2>Notes</h2><p>Second.</p>')).toBe('## Notes\n\nFirst.\n\n## Notes\n\nSecond.');
    expect(markdownOf('<h1>Setup</h1><h2>Setup</h2><p>Steps.</p>')).toBe('# Setup\n\n## Setup\n\nSteps.');
  });
});
