// Stage 6 of PDF reading, the outline (pdf-outline.ts): titles compared as the text shows them,
// depths from the outline's nesting, trusted only when the text shows enough of its titles, and
// each entry taken once, on its own page.

import { describe, expect, it } from 'vitest';
import { OutlineLevels, outlineEntries, outlineKey } from '../../wasm/read/pdf-outline.js';

const OUTLINE = [
  {
    title: '1 Installation',
    page: 0,
    down: [
      { title: 'Before you start', page: 0 },
      { title: 'Wiring', page: 1, down: [{ title: 'Cable set', page: 1 }] },
    ],
  },
  { title: 'Operation', page: 2 },
  { title: '   ', page: 2 },
];

describe('the outline (pdf-outline.ts)', () => {
  it('compares titles without case, spacing, punctuation or a leading section number', () => {
    expect(outlineKey('2.1  Before You Start:')).toBe(outlineKey('Before you start'));
    expect(outlineKey('第一章 安装')).toBe('第一章安装');
    expect(outlineKey('2.5 kg')).toBe('kg');
  });

  it('flattens the outline with each entry’s depth and page, leaving out untitled entries', () => {
    expect(outlineEntries(OUTLINE).map((e) => [e.key, e.depth, e.page])).toEqual([
      ['installation', 1, 0],
      ['beforeyoustart', 2, 0],
      ['wiring', 2, 1],
      ['cableset', 3, 1],
      ['operation', 1, 2],
    ]);
    expect(outlineEntries(null)).toEqual([]);
  });

  it('is trusted when the text shows half of its titles or more', () => {
    const levels = new OutlineLevels(outlineEntries(OUTLINE));
    expect(levels.matches(2)).toBe(false);
    expect(levels.matches(3)).toBe(true);
    expect(new OutlineLevels([]).matches(0)).toBe(false);
  });

  it('gives each entry to the first paragraph on its page that shows its title, and none to the same words elsewhere', () => {
    const levels = new OutlineLevels(outlineEntries(OUTLINE));
    expect(levels.depthOf('Cable Set')).toBe(3);
    const second = levels.onPage(2);
    expect(second.take('Before you start')).toBeUndefined();
    expect(second.take('2.1 Wiring')).toBe(2);
    expect(second.take('Wiring')).toBeUndefined();
    expect(second.take('Cable set')).toBe(3);
    expect(levels.onPage(3).take('Operation')).toBe(1);
  });
});
