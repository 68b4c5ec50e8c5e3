// pdf/redact leaves no copy of a match anywhere in the file (contract v0.4): one PDF per hiding
// place (annotation appearances, rich text, form values, defaults and options, marked-content
// /ActualText, text off the page, link targets, XMP written with character references, the
// structure tree, attachments, outlines and named destinations, page labels, layer names,
// JavaScript, names with #xx escapes), each written byte by byte, redacted over real HTTP, and
// read back with independent tools: qpdf --qdf (every stream decompressed, no object streams)
// grepped for the secret in every encoding, pdftotext, pdfdetach. Where a match cannot be
// removed, the answer is INVALID_INPUT and nothing is written.

import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLACES, PUBLIC_LINE, pdfWithSecretIn, SECRET, secretForms, stream, type PlaceName } from '../helpers/redact-hostile.js';
import { makePdf, serializePdf } from '../helpers/make-pdf.js';
import { leftoverTempFiles, startService, type RunningService } from '../helpers/service.js';
import { sha256 } from '../helpers/tools.js';

let service: RunningService;
const file = (name: string) => path.join(service.dir, name);

beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service?.stop();
  if (service) fs.rmSync(service.dir, { recursive: true, force: true });
});

// The tools run asynchronously: a client loop blocked for seconds between two requests would
// reuse a keep-alive connection the service has closed meanwhile (docs/http-runtime.md).
const run = async (program: string, args: string[]) => (await promisify(execFile)(program, args, { encoding: 'latin1', maxBuffer: 64 * 1024 * 1024 })).stdout;

/** The whole file with every stream decompressed and no object streams (qpdf --qdf), as Latin-1. */
async function decompressed(pdf: string): Promise<string> {
  try {
    return await run('qpdf', ['--qdf', '--object-streams=disable', pdf, '-']);
  } catch (error) {
    // Exit 3: warnings only, the output is written.
    if ((error as { code?: number; stdout?: string }).code === 3) return (error as { stdout: string }).stdout;
    throw error;
  }
}

/** The forms of the secret qpdf's decompressed copy of `pdf` still holds. */
async function secretsIn(pdf: string): Promise<string[]> {
  const raw = await decompressed(pdf);
  return secretForms(SECRET)
    .filter((form) => form.test(raw))
    .map(String);
}

const allText = (pdf: string) => run('pdftotext', [pdf, '-']);
const attachments = (pdf: string) => run('pdfdetach', ['-list', pdf]);
/** pdftotext of the whole plane: -x/-y/-W/-H crop far beyond the page, so text drawn off it is read too. */
const offPageText = (pdf: string) => run('pdftotext', ['-x', '-2000', '-y', '-2000', '-W', '5000', '-H', '5000', pdf, '-']);

/** Redacts the secret from the PDF hiding it in `place`; `pages`, when given, is what the answer must name as touched. */
async function redactSecretIn(place: PlaceName, pages?: number[]): Promise<string> {
  const input = file(`${place}.pdf`);
  fs.writeFileSync(input, pdfWithSecretIn(PLACES[place]));
  // The fixture really hides it, and a reader sees the page as it should.
  expect(await secretsIn(input), `${place}: the input holds the secret`).not.toEqual([]);
  await run('qpdf', ['--check', input]);
  const output = file(`out/${place}.pdf`);
  const response = await service.post('/api/pdf/redact', { input: `${place}.pdf`, output: `out/${place}.pdf`, text: [SECRET] });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  if (pages) expect(response.body.data).toMatchObject({ pages });
  // qpdf --check exits non-zero (and run throws) on any damage or warning.
  await run('qpdf', ['--check', output]);
  expect(await secretsIn(output), `${place}: the decompressed output still holds`).toEqual([]);
  expect(await allText(output)).toContain(PUBLIC_LINE);
  expect(await offPageText(output)).not.toContain(SECRET);
  expect(await attachments(output)).not.toContain(SECRET);
  return output;
}

describe('pdf/redact removes a match from every place a PDF can hold it', () => {
  it("a stamp's appearance stream (the stamp has no /Contents to redact)", async () => {
    await redactSecretIn('stampAppearance', [1]);
  });

  it("a FreeText annotation's /Contents and its own appearance stream", async () => {
    await redactSecretIn('freeTextAppearance');
  });

  it("markup annotations: /RC rich text with XML character references, UTF-16 /Contents of a highlight, a popup's /Contents", async () => {
    await redactSecretIn('markupAnnotations');
  });

  it("a choice field's value, options (plain and export pairs) and its drawn appearance", async () => {
    await redactSecretIn('choiceField');
  });

  it("a text field's default value (/DV)", async () => {
    await redactSecretIn('textFieldDefault');
  });

  it('marked-content /ActualText (PDFDocEncoding and UTF-16BE), and the glyphs it stands for', async () => {
    const output = await redactSecretIn('actualText');
    expect(await allText(output)).not.toMatch(/XXXX|YYYY/);
  });

  it('text drawn outside the MediaBox, still in the content stream', async () => {
    const input = file('offPage-probe.pdf');
    fs.writeFileSync(input, pdfWithSecretIn(PLACES.offPage));
    expect(await offPageText(input)).toContain(SECRET);
    const output = await redactSecretIn('offPage');
    expect(await offPageText(output)).toContain('Below');
  });

  it("a link's /URI", async () => {
    await redactSecretIn('linkUri');
  });

  it('XMP metadata written with XML character references (&#83;ECRET)', async () => {
    const output = await redactSecretIn('xmpReferences');
    // The packet is still XML qpdf finds, with the words around the secret.
    expect(await decompressed(output)).toContain('plans &amp;');
  });

  it("the structure tree's /Alt, /ActualText and /E", async () => {
    await redactSecretIn('structureTree');
  });

  it('an attachment whose name, description and body hold the secret is removed', async () => {
    fs.writeFileSync(file('embeddedFile-probe.pdf'), pdfWithSecretIn(PLACES.embeddedFile));
    expect(await attachments(file('embeddedFile-probe.pdf'))).toContain('SECRET.txt');
    const output = await redactSecretIn('embeddedFile');
    expect(await attachments(output)).toMatch(/^0 embedded files/m);
  });

  it('an attachment whose body alone holds the secret is removed', async () => {
    const output = await redactSecretIn('embeddedBodyOnly');
    expect(await attachments(output)).toMatch(/^0 embedded files/m);
  });

  it('a FileAttachment annotation whose file name holds the secret is removed', async () => {
    await redactSecretIn('fileAttachmentAnnotation', [1]);
  });

  it('bookmarks (UTF-16 titles) and named destinations (name tree keys, old-style /Dests keys and the /Dest names using them)', async () => {
    await redactSecretIn('outlineAndDestinations');
  });

  it('page labels', async () => {
    const output = await redactSecretIn('pageLabels');
    expect(await run('pdfinfo', ['-f', '1', '-l', '1', output])).not.toContain(SECRET);
  });

  it('optional-content layer names', async () => {
    const output = await redactSecretIn('layerNames');
    expect(await allText(output)).toContain('Layered');
  });

  it('JavaScript: a name-tree action with a compressed /JS stream and an /OpenAction /JS string', async () => {
    await redactSecretIn('javaScript');
  });

  it('Info strings in UTF-16BE and hex, and a name written with #xx escapes', async () => {
    await redactSecretIn('namesAndInfo');
  });
});

describe("pdf/redact and PDF's own vocabulary", () => {
  it('redacts words that are also PDF names (Page, Form, Text, Font, Widget) without touching /Type /Page and the like', async () => {
    fs.writeFileSync(file('vocabulary.pdf'), makePdf({ pages: ['Page one of the Form Text Font Widget'], bookmarks: [{ title: 'Page and Form', page: 0 }] }));
    const response = await service.post('/api/pdf/redact', {
      input: 'vocabulary.pdf',
      output: 'vocabulary-out.pdf',
      text: ['Page', 'Form', 'Text', 'Font', 'Widget'],
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const output = file('vocabulary-out.pdf');
    await run('qpdf', ['--check', output]);
    const text = await allText(output);
    expect(text).toContain('one of the');
    expect(text).not.toMatch(/Page|Form|Text|Font|Widget/);
    expect(await decompressed(output)).toMatch(/\/Type\s*\/Page\b/);
  });
});

describe('pdf/redact fails rather than leave a match it cannot remove', () => {
  /** The secret as a resource name (renaming it would break the content that uses it) and in a writer's private data stream. */
  const unremovable = {
    resourceKey: serializePdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /${SECRET} 3 0 R >> >> /Contents 5 0 R >>`,
      stream(`BT /${SECRET} 12 Tf 72 740 Td (${PUBLIC_LINE}) Tj ET`),
    ]),
    privateData: serializePdf([
      '<< /Type /Catalog /Pages 2 0 R /PieceInfo << /Writer << /Private 6 0 R >> >> >>',
      '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>',
      stream(`BT /F1 12 Tf 72 740 Td (${PUBLIC_LINE}) Tj ET`),
      stream(`writer state: last search was ${SECRET}`, '', true),
    ]),
  };

  for (const [name, pdf] of Object.entries(unremovable)) {
    it(`${name}: INVALID_INPUT, no output, no temp file, the input untouched`, async () => {
      fs.writeFileSync(file(`${name}.pdf`), pdf);
      const before = sha256(file(`${name}.pdf`));
      const response = await service.post('/api/pdf/redact', { input: `${name}.pdf`, output: `${name}-out.pdf`, text: [SECRET] });
      expect([response.status, response.body.code], JSON.stringify(response.body)).toEqual([422, 'INVALID_INPUT']);
      expect(String(response.body.error)).toMatch(/could not be removed/);
      expect(fs.existsSync(file(`${name}-out.pdf`))).toBe(false);
      expect(leftoverTempFiles(service.dir)).toEqual([]);
      expect(sha256(file(`${name}.pdf`))).toBe(before);
    });
  }
});
