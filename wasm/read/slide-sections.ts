// A deck's `##` sections, one a slide (the contract), titled by the slide's title. A slide with no
// title that follows a slide showing its title alone (a section's title slide) continues that
// section: pandoc sets a `#` heading's title on a slide of its own and the text under it on the
// next, untitled one. Such a slide's section repeats the title it continues; any other untitled
// slide is named by its place.

import type { Heading } from 'mdast';
import { slideTitle, type Inline } from './blocks.js';

/** One shown slide: its title's paragraphs (none: untitled), its name where untitled, and what it holds after its title. */
export interface Slide<T> {
  titleLines: readonly (readonly Inline[])[];
  place: string;
  content: readonly T[];
}

/** Each slide's heading followed by its content, in order. */
export function slideSections<T>(slides: readonly Slide<T>[]): (Heading | T)[] {
  const out: (Heading | T)[] = [];
  let previous: { heading: Heading; titled: boolean; bare: boolean } | undefined;
  for (const slide of slides) {
    const own = slideTitle(slide.titleLines, '');
    const titled = own.children.length > 0;
    const continues = !titled && previous?.titled === true && previous.bare;
    const heading = continues && previous ? structuredClone(previous.heading) : titled ? own : slideTitle([], slide.place);
    out.push(heading);
    for (const item of slide.content) out.push(item);
    previous = { heading, titled, bare: slide.content.length === 0 };
  }
  return out;
}
