// Pictures of a PowerPoint deck: a placeholder for each image the file holds, none for an image
// only linked from the author's disk, and no file name as alt text. The deck is Apache POI's
// test-data/slideshow/56812.pptx (made by PowerPoint for Mac: the same logo embedded, embedded
// and linked, and linked only); what it holds is read from its own XML with unzip.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zipPart, zipParts } from '../helpers/documents.js';
import { ROOT } from '../helpers/service.js';
import { inProcess, type InProcess } from './in-process.js';

let ops: InProcess;
const DECK = 'linked-pictures.pptx';

beforeAll(async () => {
  ops = await inProcess({ workers: '1' });
  ops.put(DECK, fs.readFileSync(path.join(ROOT, 'fixtures/office-content', DECK)));
});
afterAll(() => ops.close());

/** The slide's pictures as PowerPoint wrote them: alt text, and the part the blip embeds if any. */
function picturesOfSlide(): { descr: string; embedded: string | undefined }[] {
  const slide = zipPart(ops.at(DECK), 'ppt/slides/slide1.xml');
  const rels = zipPart(ops.at(DECK), 'ppt/slides/_rels/slide1.xml.rels');
  const internal = new Map([...rels.matchAll(/<Relationship Id="([^"]+)" Type="[^"]*\/image" Target="\.\.\/([^"]+)"\/>/g)].map((m) => [m[1], `ppt/${m[2]}`]));
  return [...slide.matchAll(/<p:pic>(.*?)<\/p:pic>/gs)].map((m) => ({
    descr: /descr="([^"]*)"/.exec(m[1] ?? '')?.[1] ?? '',
    embedded: internal.get(/r:embed="([^"]+)"/.exec(m[1] ?? '')?.[1] ?? ''),
  }));
}

describe('read: pictures of a PowerPoint deck (Apache POI 56812.pptx)', () => {
  it('gives one placeholder per picture whose image is in the file, none for the picture only linked', async () => {
    const pictures = picturesOfSlide();
    const parts = zipParts(ops.at(DECK));
    const shown = pictures.filter((p) => p.embedded !== undefined && parts.includes(p.embedded));
    expect(pictures).toHaveLength(3);
    expect(shown).toHaveLength(2);
    const text = (await ops.ok('read', { input: DECK })).text ?? '';
    expect(text.match(/!\[[^\]]*\]\(image-\d+\)/g)).toHaveLength(shown.length);
    // The slide's own caption of the linked picture is still read.
    expect(text).toContain('Link to file');
  });

  it('leaves out alt text that is only the inserted file’s name or path', async () => {
    const names = picturesOfSlide().map((p) => p.descr);
    expect(names.every((d) => /\.jpg$/.test(d))).toBe(true);
    const text = (await ops.ok('read', { input: DECK })).text ?? '';
    for (const name of names) expect(text).not.toContain(name);
    expect(text).toContain('![](image-1)');
  });
});
