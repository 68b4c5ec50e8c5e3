import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { currentSection, GENERATED } from './generated.js';
import { brokenBecause, headingId, relativeLinks } from './links.js';

const DOCS = fs.readdirSync('docs').filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`);

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

  it('every link of README.md and docs/ leads to a page that exists and, with #anchor, to one of its headings', () => {
    const links = ['README.md', ...DOCS].flatMap(relativeLinks);
    expect(links.length).toBeGreaterThan(50);
    expect(links.map(brokenBecause).filter((why) => why !== undefined)).toEqual([]);
  });

  it('docs/README.md lists every page of docs/, and README.md links to it', () => {
    const listed = new Set(relativeLinks('docs/README.md').map((link) => `docs/${link.target.split('#')[0]}`));
    expect(DOCS.filter((page) => page !== 'docs/README.md' && !listed.has(page))).toEqual([]);
    expect(relativeLinks('README.md').map((link) => link.target)).toContain('docs/README.md');
  });

  it('heading ids follow GitHub: punctuation dropped, spaces to hyphens, CJK kept', () => {
    expect(headingId('Long work — `"async": true` and `/api/jobs`')).toBe('long-work--async-true-and-apijobs');
    expect(headingId('PDF: redact, forms, stamp, sign (2026-11-25)')).toBe('pdf-redact-forms-stamp-sign-2026-11-25');
    expect(headingId('English inside Chinese pages 中文')).toBe('english-inside-chinese-pages-中文');
  });
});
