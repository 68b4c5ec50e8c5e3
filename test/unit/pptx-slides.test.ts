// Slides (pptx.ts): shapes read in the order they stand on the slide, a group's shapes where the
// group's transform puts them (its children's own coordinates scaled and moved), and the
// slide's heading from its title, else from its first text set larger than the rest.

import { describe, expect, it } from 'vitest';
import { readBlocks } from '../../wasm/read/document.js';
import { renderedBlocks } from '../../wasm/read/render.js';
import { pptx } from '../helpers/hostile-readers.js';

/** A text box at (x, y) EMU, 1 inch high, with one paragraph; `size` in points when given. */
const textBox = (text: string, x: number, y: number, size?: number) =>
  `<p:sp><p:nvSpPr><p:cNvPr id="2" name="Text"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr><p:spPr><a:xfrm><a:off x="${x}" y="${y}"/><a:ext cx="3000000" cy="914400"/></a:xfrm></p:spPr><p:txBody><a:bodyPr/><a:p><a:r><a:rPr lang="en-US"${size ? ` sz="${size * 100}"` : ''}/><a:t>${text}</a:t></a:r></a:p></p:txBody></p:sp>`;

const title = (text: string) =>
  `<p:sp><p:nvSpPr><p:cNvPr id="1" name="Title"/><p:cNvSpPr/><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr><p:spPr><a:xfrm><a:off x="500000" y="100000"/><a:ext cx="8000000" cy="900000"/></a:xfrm></p:spPr><p:txBody><a:bodyPr/><a:p><a:r><a:t>${text}</a:t></a:r></a:p></p:txBody></p:sp>`;

/** A group placing its children's space (chOff, chExt) onto its box (off, ext). */
const group = (off: [number, number], ext: [number, number], chOff: [number, number], chExt: [number, number], children: string) =>
  `<p:grpSp><p:nvGrpSpPr><p:cNvPr id="9" name="Group"/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr><a:xfrm><a:off x="${off[0]}" y="${off[1]}"/><a:ext cx="${ext[0]}" cy="${ext[1]}"/><a:chOff x="${chOff[0]}" y="${chOff[1]}"/><a:chExt cx="${chExt[0]}" cy="${chExt[1]}"/></a:xfrm></p:grpSpPr>${children}</p:grpSp>`;

/** A text box at (x, y) EMU holding one paragraph of runs, each `[text, bold, Courier]`. */
const runsBox = (runs: [string, boolean, boolean][], x: number, y: number) =>
  `<p:sp><p:nvSpPr><p:cNvPr id="3" name="Text"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr><p:spPr><a:xfrm><a:off x="${x}" y="${y}"/><a:ext cx="3000000" cy="914400"/></a:xfrm></p:spPr><p:txBody><a:bodyPr/><a:p>${runs
    .map(
      ([text, bold, code]) =>
        `<a:r><a:rPr lang="en-US"${bold ? ' b="1"' : ''}>${code ? '<a:latin typeface="Courier"/>' : ''}</a:rPr><a:t xml:space="preserve">${text}</a:t></a:r>`,
    )
    .join('')}</a:p></p:txBody></p:sp>`;

/** A title placeholder of paragraphs of runs, each `[text, Courier]`. */
const runsTitle = (...paragraphs: [string, boolean][][]) =>
  `<p:sp><p:nvSpPr><p:cNvPr id="1" name="Title"/><p:cNvSpPr/><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr><p:spPr><a:xfrm><a:off x="500000" y="100000"/><a:ext cx="8000000" cy="900000"/></a:xfrm></p:spPr><p:txBody><a:bodyPr/>${paragraphs
    .map(
      (runs) =>
        `<a:p>${runs.map(([text, code]) => `<a:r><a:rPr lang="en-US" b="1">${code ? '<a:latin typeface="Courier"/>' : ''}</a:rPr><a:t xml:space="preserve">${text}</a:t></a:r>`).join('')}</a:p>`,
    )
    .join('')}</p:txBody></p:sp>`;

/** A text box of paragraphs `[text, bold, points of space before]`, as pandoc sets a slide's body (no bullets). */
const spacedBox = (paragraphs: [string, boolean, number][]) =>
  `<p:sp><p:nvSpPr><p:cNvPr id="4" name="Body"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr><p:spPr><a:xfrm><a:off x="500000" y="1500000"/><a:ext cx="8000000" cy="4000000"/></a:xfrm></p:spPr><p:txBody><a:bodyPr/>${paragraphs
    .map(
      ([text, bold, before]) =>
        `<a:p><a:pPr lvl="0" indent="0" marL="0">${before ? `<a:spcBef><a:spcPts val="${before * 100}"/></a:spcBef>` : ''}<a:buNone/></a:pPr><a:r><a:rPr${bold ? ' b="1"' : ''}/><a:t>${text}</a:t></a:r></a:p>`,
    )
    .join('')}</p:txBody></p:sp>`;

const read = (shapes: string) => [...renderedBlocks(readBlocks(pptx(shapes), 'pptx'))];

describe('slides (pptx.ts)', () => {
  it('reads a group’s shapes where the group places them, below a box that stands above them', () => {
    const shapes = [
      title('Wiring'),
      group([500000, 4000000], [6000000, 2000000], [0, 0], [6000000, 2000000], textBox('Lower one', 0, 0) + textBox('Lower two', 0, 1000000)),
      textBox('Middle', 500000, 2000000),
    ].join('');
    expect(read(shapes)).toEqual(['## Wiring', 'Middle', 'Lower one', 'Lower two']);
  });

  it('scales a group’s child coordinates to its box', () => {
    // Child space ten times the group's height: a child at 9,000,000 stands at 1,900,000 on the slide, above "Middle".
    const shapes = [
      title('Wiring'),
      textBox('Middle', 500000, 2000000),
      group([500000, 1000000], [6000000, 1000000], [0, 0], [60000000, 10000000], textBox('Scaled low', 0, 9000000) + textBox('Scaled top', 0, 0)),
    ].join('');
    expect(read(shapes)).toEqual(['## Wiring', 'Scaled top', 'Scaled low', 'Middle']);
  });

  it('heads a slide without a title by its first text set larger than the rest, and by its place where none is', () => {
    const headed = [
      textBox('Quarterly results', 500000, 300000, 32),
      textBox('Revenue rose', 500000, 2000000, 18),
      textBox('Costs held', 500000, 3000000),
    ].join('');
    expect(read(headed)).toEqual(['## Quarterly results', 'Revenue rose', 'Costs held']);
    // Two texts as large as each other, or the largest below a heading's size: no headline.
    const even = [textBox('Left column', 500000, 300000, 28), textBox('Right column', 5000000, 300000, 28)].join('');
    expect(read(even)).toEqual(['## Slide 1', 'Left column', 'Right column']);
    expect(read(textBox('A caption', 500000, 300000, 14))).toEqual(['## Slide 1', 'A caption']);
  });

  it('reads a bold paragraph whose words are set in bold Courier too as one `###` label, code kept inline', () => {
    // pandoc's `### Check the \`out\` value`: bold runs, the code word a bold run of Courier.
    const label = runsBox(
      [
        ['Check the ', true, false],
        ['out', true, true],
        [' value', true, false],
      ],
      500000,
      1500000,
    );
    expect(read(title('Usage') + label + textBox('It prints.', 500000, 2500000))).toEqual(['## Usage', '### Check the `out` value', 'It prints.']);
    // A paragraph bold only in part stays a paragraph.
    const part = runsBox(
      [
        ['Check the ', true, false],
        ['out', false, true],
        [' value', true, false],
      ],
      500000,
      1500000,
    );
    expect(read(title('Usage') + part)).toEqual(['## Usage', '**Check the** `out` **value**']);
  });

  it('keeps a title’s code spans, its paragraphs and line breaks on one line', () => {
    // pandoc's `## Run \`boot\` now`: the code word a run of Courier in the title placeholder.
    const code = runsTitle([
      ['Run ', false],
      ['boot', true],
      [' now', false],
    ]);
    expect(read(code + textBox('It starts.', 500000, 2000000))).toEqual(['## Run `boot` now', 'It starts.']);
    // A title of two paragraphs, the second all code: one heading line, the code still a span.
    const twoLines = runsTitle([['Options of', false]], [['  --verbose', true]]);
    expect(read(twoLines)).toEqual(['## Options of `--verbose`']);
  });

  it('reads a bold paragraph ending in a colon as a `###` label where it stands apart with content after it, else as bold text', () => {
    // pandoc's `### Options:`: a bold paragraph with a heading's space above it, content below.
    const labelled = spacedBox([
      ['Intro text.', false, 0],
      ['Options:', true, 30],
      ['Use the defaults.', false, 0],
    ]);
    expect(read(title('Setup') + labelled)).toEqual(['## Setup', 'Intro text.', '### Options:', 'Use the defaults.']);
    // pandoc's `**Note:**`: the same bold paragraph with no space set apart is a lead-in, not a label…
    const leadIn = spacedBox([
      ['Intro text.', false, 0],
      ['Note:', true, 0],
      ['Use the defaults.', false, 0],
    ]);
    expect(read(title('Setup') + leadIn)).toEqual(['## Setup', 'Intro text.', '**Note:**', 'Use the defaults.']);
    // …and one set apart with nothing after it on the slide labels nothing.
    const last = spacedBox([
      ['Intro text.', false, 0],
      ['Options:', true, 30],
    ]);
    expect(read(title('Setup') + last)).toEqual(['## Setup', 'Intro text.', '**Options:**']);
  });

  it('reads a bold paragraph without space above it as bold text in a deck that sets its labels apart by space, as a label in one that does not', () => {
    // pandoc's `**Caveats**` on a slide of a deck whose `###` labels have space above them.
    const labelled = spacedBox([
      ['Options', true, 30],
      ['Use the defaults.', false, 0],
    ]);
    const bold = spacedBox([
      ['Caveats', true, 0],
      ['None known.', false, 0],
    ]).replace('y="1500000"', 'y="5600000"');
    expect(read(title('Setup') + labelled + bold)).toEqual(['## Setup', '### Options', 'Use the defaults.', '**Caveats**', 'None known.']);
    // The same paragraph in a deck that sets no label apart: a label, as before.
    expect(read(title('Setup') + bold)).toEqual(['## Setup', '### Caveats', 'None known.']);
  });

  it('heads an untitled slide by its place, not by a large quote in its body placeholder (pandoc’s `>` after a `#`)', () => {
    // pandoc sets a quote at 20 pt, indented, in the slide's content placeholder: content, not a title.
    const quote = `<p:sp><p:nvSpPr><p:cNvPr id="3" name="Content Placeholder 2"/><p:cNvSpPr/><p:nvPr><p:ph idx="1"/></p:nvPr></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/><a:p><a:pPr lvl="0" indent="0" marL="1270000"><a:buNone/></a:pPr><a:r><a:rPr sz="2000"/><a:t>Use the newer mode</a:t></a:r></a:p></p:txBody></p:sp>`;
    expect(read(quote)).toEqual(['## Slide 1', 'Use the newer mode']);
    // A text box set as large, beside smaller text, still heads its slide.
    expect(read(textBox('Use the newer mode', 500000, 300000, 20) + textBox('Details', 500000, 2000000, 14))).toEqual(['## Use the newer mode', 'Details']);
  });
});
