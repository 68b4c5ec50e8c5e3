// A deck's sections (slide-sections.ts, through the pptx and odp readers): one `##` a slide, an
// untitled slide after a slide that shows its title alone continuing that title's section (pandoc
// sets the text under a `#` so), any other untitled slide named by its place.

import { describe, expect, it } from 'vitest';
import { readBlocks } from '../../wasm/read/document.js';
import { renderedBlocks } from '../../wasm/read/render.js';
import { odp } from '../helpers/hostile-readers.js';
import { makeZip } from '../helpers/zip.js';

const P =
  'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';
const RELS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const SLIDE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide';
const NOTES = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/notesSlide';

/** A shape of one paragraph: the title placeholder, or the body placeholder pandoc fills. */
const shape = (text: string, type: 'title' | 'body') =>
  `<p:sp><p:nvSpPr><p:cNvPr id="2" name="${type}"/><p:cNvSpPr/><p:nvPr><p:ph ${type === 'title' ? 'type="title"' : 'idx="1"'}/></p:nvPr></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/><a:p><a:pPr><a:buNone/></a:pPr><a:r><a:rPr/><a:t>${text}</a:t></a:r></a:p></p:txBody></p:sp>`;

interface SlideParts {
  title?: string;
  body?: string;
  notes?: string;
}

/** A deck of the slides given, each a title and a body placeholder where given, and notes. */
function deck(slides: readonly SlideParts[]): Buffer {
  const parts = slides.flatMap(({ title, body, notes }, i) => {
    const n = i + 1;
    const shapes = (title === undefined ? '' : shape(title, 'title')) + (body === undefined ? '' : shape(body, 'body'));
    const rels = notes === undefined ? '' : `<Relationship Id="rId1" Type="${NOTES}" Target="../notesSlides/notesSlide${n}.xml"/>`;
    return [
      { name: `ppt/slides/slide${n}.xml`, data: `<p:sld ${P}><p:cSld><p:spTree>${shapes}</p:spTree></p:cSld></p:sld>` },
      { name: `ppt/slides/_rels/slide${n}.xml.rels`, data: `<Relationships xmlns="${RELS}">${rels}</Relationships>` },
      ...(notes === undefined
        ? []
        : [{ name: `ppt/notesSlides/notesSlide${n}.xml`, data: `<p:notes ${P}><p:cSld><p:spTree>${shape(notes, 'body')}</p:spTree></p:cSld></p:notes>` }]),
    ];
  });
  return makeZip([
    {
      name: 'ppt/presentation.xml',
      data: `<p:presentation ${P}><p:sldIdLst>${slides.map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${i + 1}"/>`).join('')}</p:sldIdLst></p:presentation>`,
    },
    {
      name: 'ppt/_rels/presentation.xml.rels',
      data: `<Relationships xmlns="${RELS}">${slides.map((_, i) => `<Relationship Id="rId${i + 1}" Type="${SLIDE}" Target="slides/slide${i + 1}.xml"/>`).join('')}</Relationships>`,
    },
    ...parts,
  ]);
}

/** The same slides as LibreOffice writes an odp: pages named page1, page2, … */
const odpDeck = (slides: readonly SlideParts[]) =>
  odp(
    slides
      .map(({ title, body }, i) => {
        const frame = (text: string, kind: string) =>
          `<draw:frame presentation:class="${kind}"><draw:text-box><text:p>${text}</text:p></draw:text-box></draw:frame>`;
        return `<draw:page draw:name="page${i + 1}">${title === undefined ? '' : frame(title, 'title')}${body === undefined ? '' : frame(body, 'outline')}</draw:page>`;
      })
      .join(''),
  );

const headings = (bytes: Buffer, kind: string) => [...renderedBlocks(readBlocks(bytes, kind))].filter((b) => b.startsWith('#'));

describe('a deck’s sections (pptx and odp)', () => {
  it('heads an untitled slide after a slide of its title alone with that title: it continues the section', () => {
    const slides = [{ title: 'Part one' }, { body: 'Why it matters.' }, { title: 'Setup', body: 'Run it.' }];
    expect([...renderedBlocks(readBlocks(deck(slides), 'pptx'))]).toEqual(['## Part one', '## Part one', 'Why it matters.', '## Setup', 'Run it.']);
    expect(headings(odpDeck(slides), 'odp')).toEqual(['## Part one', '## Part one', '## Setup']);
  });

  it('names an untitled slide by its place after a slide with content, with notes, or after another untitled slide', () => {
    const afterContent = [{ title: 'Setup', body: 'Run it.' }, { body: 'More to come.' }];
    expect(headings(deck(afterContent), 'pptx')).toEqual(['## Setup', '## Slide 2']);
    expect(headings(odpDeck(afterContent), 'odp')).toEqual(['## Setup', '## page2']);
    expect(headings(deck([{ title: 'Part one', notes: 'Say hello.' }, { body: 'Why it matters.' }]), 'pptx')).toEqual(['## Part one', '## Slide 2']);
    const twoUntitled = [{ title: 'Part one' }, { body: 'Why it matters.' }, { body: 'And more.' }];
    expect(headings(deck(twoUntitled), 'pptx')).toEqual(['## Part one', '## Part one', '## Slide 3']);
    expect(headings(odpDeck(twoUntitled), 'odp')).toEqual(['## Part one', '## Part one', '## page3']);
  });
});
