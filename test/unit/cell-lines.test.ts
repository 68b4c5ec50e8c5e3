// A table cell's blocks as lines (wasm/read/cell-lines.ts), on block models built by hand.

import type { BlockContent } from 'mdast';
import { describe, expect, it } from 'vitest';
import { blocksToHtml } from '../../wasm/read/render.js';

const text = (value: string) => ({ type: 'paragraph' as const, children: [{ type: 'text' as const, value }] });

describe('cell lines', () => {
  it('writes a heading in a cell as a line of its text, task items with their boxes', () => {
    const blocks: BlockContent[] = [
      { type: 'heading', depth: 3, children: [{ type: 'text', value: 'Intake' }] },
      {
        type: 'list',
        ordered: false,
        children: [
          { type: 'listItem', checked: true, children: [text('drained')] },
          { type: 'listItem', checked: false, children: [text('filled')] },
        ],
      },
    ];
    expect(blocksToHtml(blocks)).toBe('Intake<br>- [x] drained<br>- [ ] filled');
  });

  it('numbers an ordered list from its start and keeps an empty line of code', () => {
    const blocks: BlockContent[] = [
      { type: 'list', ordered: true, start: 3, children: [{ type: 'listItem', children: [text('third')] }] },
      { type: 'code', value: 'a = 1\n\nb = 2' },
    ];
    expect(blocksToHtml(blocks)).toBe('3. third<br><code>a = 1</code><br><br><code>b = 2</code>');
  });

  it('keeps the HTML of a cell holding a quote', () => {
    expect(blocksToHtml([text('Note'), { type: 'blockquote', children: [text('quoted')] }])).toBe('<p>Note</p><blockquote><p>quoted</p></blockquote>');
  });
});
