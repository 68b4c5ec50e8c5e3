// OFD's face to the engine workers, found by its kind's name (wasm/shared/format-engines.ts): read
// as Markdown or text by the reader worker, drawn as a PDF by the PDF worker. Each loads its part when first used, so
// the reader worker never loads the drawing code (mupdf).

import type { FormatEngine } from '../shared/format-engine.js';

export const engine: FormatEngine = {
  markdown: async (bytes, maxCharacters, limits) => (await import('./markdown.js')).readOfdMarkdown(bytes, maxCharacters, limits),
  text: async (bytes, limits) => (await import('./markdown.js')).readOfdText(bytes, limits),
  pdf: async (bytes, maxPixels, sink, limits) => {
    const [{ readOfd }, { ofdToPdf }] = await Promise.all([import('./open.js'), import('./pdf.js')]);
    const ofd = readOfd(bytes, 'draw', limits);
    ofdToPdf(ofd, maxPixels, sink);
    return { pages: ofd.pages.length, fields: ofd.fields, signatures: ofd.signatures };
  },
};
