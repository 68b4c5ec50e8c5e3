// Pictures of Word and PowerPoint files, one rule for both: a placeholder for each picture whose
// image the file holds or links to (Word and PowerPoint show a linked one where the link
// resolves), with its alt text but never a file name as alt text. The deck is Apache POI's
// test-data/slideshow/56812.pptx (made by PowerPoint for Mac: the same logo embedded, embedded
// and linked, and linked only); the Word file is made here by LibreOffice from a flat ODF text
// with a linked, an embedded and a file-named picture. What each holds is read from its own XML
// with unzip.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zipPart, zipParts } from '../helpers/documents.js';
import { runSofficeAsync } from '../helpers/soffice.js';
import { ROOT } from '../helpers/service.js';
import { inProcess, type InProcess } from './in-process.js';
import { PYTHON } from '../helpers/tools.js';

let ops: InProcess;
let work: string;
const DECK = 'linked-pictures.pptx';
const WORD = 'linked-pictures.docx';
/** The same file with its linked pictures named by `r:embed` (their relationships still external), as some writers do. */
const WORD_EMBED_EXTERNAL = 'external-embed.docx';
const REWRITE_BLIPS = [
  'import sys, zipfile',
  'src, dst = sys.argv[1], sys.argv[2]',
  'with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:',
  '    for item in zin.infolist():',
  '        data = zin.read(item.filename)',
  '        if item.filename == "word/document.xml": data = data.replace(b"<a:blip r:link=", b"<a:blip r:embed=")',
  '        zout.writestr(item, data)',
].join('\n');
/** A 2 × 2 red PNG, embedded in the page as a data: URL. */
const RED_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEUlEQVR4nGP4z8DAwMDAwMAAAA0DAf+rPtXlAAAAAElFTkSuQmCC';

/** A text LibreOffice turns into a docx: its file: picture stays linked, its binary-data one is embedded. */
function flatText(linked: string): string {
  const frame = (name: string, image: string, description: string) =>
    `<text:p><draw:frame draw:name="${name}" text:anchor-type="as-char" svg:width="1cm" svg:height="0.75cm">${image}<svg:desc>${description}</svg:desc></draw:frame></text:p>`;
  const link = `<draw:image xlink:href="${linked}" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/>`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">',
    '<office:body><office:text><text:p>Before the pictures.</text:p>',
    frame('Linked', link, 'A square linked from disk'),
    frame('Embedded', `<draw:image><office:binary-data>${RED_PNG}</office:binary-data></draw:image>`, 'A square held in the file'),
    frame('Named', link, 'square.png'),
    '<text:p>After the pictures.</text:p></office:text></office:body></office:document>',
  ].join('\n');
}

beforeAll(async () => {
  ops = await inProcess({ workers: '1' });
  ops.put(DECK, fs.readFileSync(path.join(ROOT, 'fixtures/office-content', DECK)));
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'docwasm-pictures-'));
  const square = path.join(work, 'square.png');
  fs.writeFileSync(square, Buffer.from(RED_PNG, 'base64'));
  fs.writeFileSync(path.join(work, 'linked-pictures.fodt'), flatText(`file://${square}`));
  await runSofficeAsync(path.join(work, 'profile'), ['--convert-to', 'docx:MS Word 2007 XML', '--outdir', work, path.join(work, 'linked-pictures.fodt')]);
  ops.put(WORD, fs.readFileSync(path.join(work, WORD)));
  execFileSync(PYTHON, ['-c', REWRITE_BLIPS, path.join(work, WORD), path.join(work, WORD_EMBED_EXTERNAL)]);
  ops.put(WORD_EMBED_EXTERNAL, fs.readFileSync(path.join(work, WORD_EMBED_EXTERNAL)));
}, 120_000);
afterAll(async () => {
  await ops.close();
  fs.rmSync(work, { recursive: true, force: true });
});

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

const placeholders = (text: string) => text.match(/!\[[^\]]*\]\(image-\d+\)/g) ?? [];

describe('read: pictures of a PowerPoint deck (Apache POI 56812.pptx)', () => {
  it('gives one placeholder per picture, whether its image is in the file or only linked', async () => {
    const pictures = picturesOfSlide();
    const parts = zipParts(ops.at(DECK));
    expect(pictures).toHaveLength(3);
    expect(pictures.filter((p) => p.embedded !== undefined && parts.includes(p.embedded))).toHaveLength(2);
    const text = (await ops.ok('read', { input: DECK })).text ?? '';
    expect(placeholders(text)).toEqual(['![](image-1)', '![](image-2)', '![](image-3)']);
    // The slide's own caption of the linked picture is read too.
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

describe('read: pictures of a Word file (LibreOffice from a flat ODF text)', () => {
  it('gives the linked and the embedded picture a placeholder each, with the alt text Word keeps', async () => {
    const xml = zipPart(ops.at(WORD), 'word/document.xml');
    const rels = zipPart(ops.at(WORD), 'word/_rels/document.xml.rels');
    const blips = [...xml.matchAll(/<a:blip r:(embed|link)="([^"]+)"/g)].map((m) => m[1]);
    const descriptions = [...xml.matchAll(/<wp:docPr [^>]*descr="([^"]*)"/g)].map((m) => m[1]);
    expect(blips).toEqual(['link', 'embed', 'link']);
    expect(rels).toMatch(/TargetMode="External"/);
    expect(descriptions).toEqual(['A square linked from disk', 'A square held in the file', 'square.png']);
    const text = (await ops.ok('read', { input: WORD })).text ?? '';
    expect(placeholders(text)).toEqual(['![A square linked from disk](image-1)', '![A square held in the file](image-2)', '![](image-3)']);
    expect(text).toContain('After the pictures.');
  });

  it('takes an r:embed whose relationship is external for a linked picture', async () => {
    const xml = zipPart(ops.at(WORD_EMBED_EXTERNAL), 'word/document.xml');
    expect([...xml.matchAll(/<a:blip r:(embed|link)=/g)].map((m) => m[1])).toEqual(['embed', 'embed', 'embed']);
    const text = (await ops.ok('read', { input: WORD_EMBED_EXTERNAL })).text ?? '';
    expect(placeholders(text)).toEqual(['![A square linked from disk](image-1)', '![A square held in the file](image-2)', '![](image-3)']);
  });
});
