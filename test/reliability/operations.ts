// Every POST endpoint of the service as a job the suite can send: which route, which fixture,
// and the body for a given output name. A test checks this list against /openapi.json, so a
// new endpoint without a row here fails the suite instead of going untested.

import { FIXTURES, P12_PASSWORD } from './fixtures.js';

export type Engine = 'pdf' | 'image' | 'ocr' | 'document' | 'read';

export interface Operation {
  name: string;
  route: string;
  engine: Engine;
  /** The request body; `input` replaces the default fixture, `out` is a fresh output stem. */
  body: (out: string, input?: string) => Record<string, unknown>;
  /** Extension an input of this operation has (for hostile inputs). */
  inputExtension: string;
  /** The fixture it reads by default. */
  input: string;
  /** False for an operation that only reads (pdf/info): no output path to escape or check. */
  writes?: false;
}

export const OPERATIONS: readonly Operation[] = [
  {
    name: 'pdf.merge',
    input: FIXTURES.pdf,
    route: '/api/pdf/merge',
    engine: 'pdf',
    inputExtension: 'pdf',
    body: (out, input) => ({ files: [input ?? FIXTURES.pdf, FIXTURES.pdf2], output: `out/${out}.pdf` }),
  },
  {
    name: 'pdf.split',
    input: FIXTURES.pdf,
    route: '/api/pdf/split',
    engine: 'pdf',
    inputExtension: 'pdf',
    body: (out, input) => ({ input: input ?? FIXTURES.pdf, pages: '1,2-3', outputDir: `out/${out}` }),
  },
  {
    name: 'pdf.encrypt',
    input: FIXTURES.pdf,
    route: '/api/pdf/encrypt',
    engine: 'pdf',
    inputExtension: 'pdf',
    body: (out, input) => ({ input: input ?? FIXTURES.pdf, password: 'secret', output: `out/${out}.pdf` }),
  },
  {
    name: 'pdf.info',
    input: FIXTURES.pdf,
    route: '/api/pdf/info',
    engine: 'pdf',
    inputExtension: 'pdf',
    writes: false,
    body: (_out, input) => ({ input: input ?? FIXTURES.pdf }),
  },
  {
    name: 'pdf.metadata',
    input: FIXTURES.pdf,
    route: '/api/pdf/metadata',
    engine: 'pdf',
    inputExtension: 'pdf',
    body: (out, input) => ({ input: input ?? FIXTURES.pdf, output: `out/${out}.pdf`, title: 'Load' }),
  },
  {
    name: 'pdf.decrypt',
    input: FIXTURES.pdf,
    route: '/api/pdf/decrypt',
    engine: 'pdf',
    inputExtension: 'pdf',
    body: (out, input) => ({ input: input ?? FIXTURES.pdf, password: 'secret', output: `out/${out}.pdf` }),
  },
  {
    name: 'pdf.rotate',
    input: FIXTURES.pdf,
    route: '/api/pdf/rotate',
    engine: 'pdf',
    inputExtension: 'pdf',
    body: (out, input) => ({ input: input ?? FIXTURES.pdf, degrees: 90, output: `out/${out}.pdf` }),
  },
  {
    name: 'pdf.rearrange',
    input: FIXTURES.pdf,
    route: '/api/pdf/rearrange',
    engine: 'pdf',
    inputExtension: 'pdf',
    body: (out, input) => ({ input: input ?? FIXTURES.pdf, pages: '3-1', output: `out/${out}.pdf` }),
  },
  {
    name: 'pdf.watermark',
    input: FIXTURES.pdf,
    route: '/api/pdf/watermark',
    engine: 'pdf',
    inputExtension: 'pdf',
    body: (out, input) => ({ input: input ?? FIXTURES.pdf, text: 'DRAFT 草稿', output: `out/${out}.pdf` }),
  },
  {
    name: 'pdf.compress',
    input: FIXTURES.pdf,
    route: '/api/pdf/compress',
    engine: 'pdf',
    inputExtension: 'pdf',
    body: (out, input) => ({ input: input ?? FIXTURES.pdf, output: `out/${out}.pdf` }),
  },
  {
    name: 'pdf.to-pdfa',
    input: FIXTURES.pdf,
    route: '/api/pdf/to-pdfa',
    engine: 'pdf',
    inputExtension: 'pdf',
    body: (out, input) => ({ input: input ?? FIXTURES.pdf, output: `out/${out}.pdf` }),
  },
  {
    name: 'pdf.redact',
    input: FIXTURES.pdf,
    route: '/api/pdf/redact',
    engine: 'pdf',
    inputExtension: 'pdf',
    body: (out, input) => ({ input: input ?? FIXTURES.pdf, text: ['Second'], patterns: ['email'], output: `out/${out}.pdf` }),
  },
  {
    name: 'pdf.stamp',
    input: FIXTURES.pdf,
    route: '/api/pdf/stamp',
    engine: 'pdf',
    inputExtension: 'pdf',
    body: (out, input) => ({ input: input ?? FIXTURES.pdf, text: 'PAID 已付', output: `out/${out}.pdf` }),
  },
  {
    name: 'pdf.form-fields',
    input: FIXTURES.form,
    route: '/api/pdf/form-fields',
    engine: 'pdf',
    inputExtension: 'pdf',
    writes: false,
    body: (_out, input) => ({ input: input ?? FIXTURES.form }),
  },
  {
    name: 'pdf.fill',
    input: FIXTURES.form,
    route: '/api/pdf/fill',
    engine: 'pdf',
    inputExtension: 'pdf',
    body: (out, input) => ({ input: input ?? FIXTURES.form, values: { field1: 'Load 负载' }, output: `out/${out}.pdf` }),
  },
  {
    name: 'pdf.flatten',
    input: FIXTURES.form,
    route: '/api/pdf/flatten',
    engine: 'pdf',
    inputExtension: 'pdf',
    body: (out, input) => ({ input: input ?? FIXTURES.form, output: `out/${out}.pdf` }),
  },
  {
    name: 'pdf.sign',
    input: FIXTURES.pdf,
    route: '/api/pdf/sign',
    engine: 'pdf',
    inputExtension: 'pdf',
    body: (out, input) => ({ input: input ?? FIXTURES.pdf, certificate: FIXTURES.p12, certificatePassword: P12_PASSWORD, output: `out/${out}.pdf` }),
  },
  {
    name: 'pdf.signatures',
    input: FIXTURES.pdf,
    route: '/api/pdf/signatures',
    engine: 'pdf',
    inputExtension: 'pdf',
    writes: false,
    body: (_out, input) => ({ input: input ?? FIXTURES.pdf }),
  },
  {
    name: 'pipeline',
    input: FIXTURES.pdf,
    route: '/api/pipeline',
    engine: 'pdf',
    inputExtension: 'pdf',
    body: (out, input) => ({
      input: input ?? FIXTURES.pdf,
      steps: [
        { operation: 'pdf/rotate', degrees: 90 },
        { operation: 'pdf/watermark', text: 'LOAD' },
      ],
      output: `out/${out}.pdf`,
    }),
  },
  {
    name: 'pdf.to-images',
    input: FIXTURES.pdf,
    route: '/api/pdf/to-images',
    engine: 'pdf',
    inputExtension: 'pdf',
    body: (out, input) => ({ input: input ?? FIXTURES.pdf, dpi: 36, outputDir: `out/${out}` }),
  },
  {
    name: 'pdf.from-images',
    input: FIXTURES.png,
    route: '/api/pdf/from-images',
    engine: 'image',
    inputExtension: 'png',
    body: (out, input) => ({ files: [input ?? FIXTURES.png, FIXTURES.jpeg], output: `out/${out}.pdf` }),
  },
  {
    name: 'image.convert',
    input: FIXTURES.png,
    route: '/api/image/convert',
    engine: 'image',
    inputExtension: 'png',
    body: (out, input) => ({ input: input ?? FIXTURES.png, output: `out/${out}.webp` }),
  },
  {
    name: 'image.compress',
    input: FIXTURES.jpeg,
    route: '/api/image/compress',
    engine: 'image',
    inputExtension: 'jpg',
    body: (out, input) => ({ input: input ?? FIXTURES.jpeg, output: `out/${out}.jpg`, quality: 60 }),
  },
  {
    name: 'image.resize',
    input: FIXTURES.jpeg,
    route: '/api/image/resize',
    engine: 'image',
    inputExtension: 'jpg',
    body: (out, input) => ({ input: input ?? FIXTURES.jpeg, output: `out/${out}.png`, width: 160 }),
  },
  {
    name: 'ocr',
    input: FIXTURES.ocr,
    route: '/api/ocr',
    engine: 'ocr',
    inputExtension: 'png',
    body: (out, input) => ({ input: input ?? FIXTURES.ocr, language: 'eng', output: `out/${out}.txt` }),
  },
  {
    name: 'read',
    input: FIXTURES.docx,
    route: '/api/read',
    engine: 'read',
    inputExtension: 'docx',
    body: (out, input) => ({ input: input ?? FIXTURES.docx, output: `out/${out}.md` }),
  },
  {
    name: 'convert',
    input: FIXTURES.docx,
    route: '/api/convert',
    engine: 'document',
    inputExtension: 'docx',
    body: (out, input) => ({ input: input ?? FIXTURES.docx, output: `out/${out}.pdf`, format: 'pdf' }),
  },
  {
    name: 'convert.batch',
    input: FIXTURES.docx,
    route: '/api/convert/batch',
    engine: 'document',
    inputExtension: 'docx',
    body: (out, input) => ({ files: [input ?? FIXTURES.docx, FIXTURES.csv], format: 'pdf', outputDir: `out/${out}` }),
  },
];

export function operation(name: string): Operation {
  const found = OPERATIONS.find((o) => o.name === name);
  if (!found) throw new Error(`no operation ${name}`);
  return found;
}
