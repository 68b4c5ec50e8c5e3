import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { currentSection, GENERATED } from './generated.js';

describe('docs/ written from the code', () => {
  for (const section of GENERATED) {
    it(`${section.file} holds the ${section.marker} table the code has (run npm run docs after changing it)`, () => {
      expect(currentSection(section)).toBe(section.render());
    });
  }

  it('README stays short and every docs/ page it links to exists', () => {
    const readme = fs.readFileSync('README.md', 'utf8');
    expect(readme.split('\n').length).toBeLessThanOrEqual(200);
    const links = [...readme.matchAll(/\]\((docs\/[^)#]+)/g)].map((m) => m[1] as string);
    expect(links.length).toBeGreaterThan(5);
    for (const link of links) expect(fs.existsSync(link), link).toBe(true);
  });
});
