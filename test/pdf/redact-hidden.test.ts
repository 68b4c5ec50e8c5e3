// pdf/redact where a page's own text search does not look (contract v0.5): page thumbnails
// (/Thumb) are removed, and text in an optional-content layer that is off — which a viewer can
// turn on — is removed like any other. Read back with independent tools: qpdf's JSON (no /Thumb
// left), tesseract over every image qpdf decodes, pdftotext once every layer is switched on.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  hasThumbnail,
  hiddenLayerPdf,
  hideEveryPage,
  pictureDocx,
  renderGray,
  textOfImages,
  textOfPageImages,
  textWithLayersOn,
  thumbnailPdf,
  WORD,
} from '../helpers/redact-hidden.js';
import { runSoffice } from '../helpers/soffice.js';
import { ROOT, startService, stopAndRemove, type RunningService } from '../helpers/service.js';
import { qpdfCheck } from '../helpers/tools.js';

let service: RunningService;
const file = (name: string) => path.join(service.dir, name);
const countOf = (text: string, word: string) => text.split(word).length - 1;

beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  if (service) await stopAndRemove(service);
});

describe('pdf/redact removes a match from thumbnails and hidden layers', () => {
  it('removes page thumbnails, also one showing the word on a page that does not hold it', async () => {
    // The thumbnails are the pages as pdftoppm draws them; page 2's shows page 1 (a hostile thumbnail).
    fs.writeFileSync(file('plain.pdf'), thumbnailPdf());
    const first = renderGray(file('plain.pdf'), 1, 40);
    fs.writeFileSync(file('thumbs.pdf'), thumbnailPdf([first, first]));
    const before = textOfImages(file('thumbs.pdf'), service.dir);
    expect(
      before.map((text) => countOf(text, WORD)).every((count) => count >= 8),
      before.join('\n---\n'),
    ).toBe(true);

    const response = await service.post('/api/pdf/redact', { input: 'thumbs.pdf', output: 'thumbs-out.pdf', text: [WORD] });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const out = file('thumbs-out.pdf');
    expect(qpdfCheck(out)).toBe(true);
    expect(hasThumbnail(out)).toBe(false);
    for (const text of textOfImages(out, service.dir)) expect(text).not.toContain(WORD);
    const pages = execFileSync('pdftotext', [out, '-']).toString();
    expect(pages).not.toContain(WORD);
    expect(pages).toContain('Nothing to hide on this page');
  });

  it('removes the word from a layer that is off, listed in /OFF or under /BaseState /OFF', async () => {
    for (const state of ['off-array', 'base-state'] as const) {
      fs.writeFileSync(file(`layer-${state}.pdf`), hiddenLayerPdf(state));
      expect(countOf(textWithLayersOn(file(`layer-${state}.pdf`)), WORD), state).toBe(1);
      expect(execFileSync('pdftotext', [file(`layer-${state}.pdf`), '-']).toString(), state).not.toContain(WORD);

      const response = await service.post('/api/pdf/redact', { input: `layer-${state}.pdf`, output: `layer-${state}-out.pdf`, text: [WORD] });
      expect(response.status, `${state}: ${JSON.stringify(response.body)}`).toBe(200);
      expect(response.body.data, state).toMatchObject({ pages: [1] });
      const out = file(`layer-${state}-out.pdf`);
      expect(qpdfCheck(out)).toBe(true);
      const shown = textWithLayersOn(out);
      expect(shown, state).not.toContain(WORD);
      expect(shown, state).toContain('Hidden');
      expect(shown, state).toContain('second hidden line');
      // The layer is still off as the author left it: only the match went.
      const asDelivered = execFileSync('pdftotext', [out, '-']).toString();
      expect(asDelivered, state).toContain('Public line stays');
      expect(asDelivered, state).not.toContain('second hidden line');
    }
  });

  it('removes the word from a hidden layer drawn in a subset font (LibreOffice), where the file holds no readable copy of it', async () => {
    hideEveryPage(path.join(ROOT, 'fixtures/pdf/text.pdf'), file('office-hidden.pdf'));
    expect(execFileSync('pdftotext', [file('office-hidden.pdf'), '-']).toString()).not.toContain('fixture');
    expect(textWithLayersOn(file('office-hidden.pdf'))).toContain('docwasm fixture');

    const response = await service.post('/api/pdf/redact', { input: 'office-hidden.pdf', output: 'office-hidden-out.pdf', text: ['fixture'] });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.data).toMatchObject({ pages: [1] });
    const out = file('office-hidden-out.pdf');
    expect(qpdfCheck(out)).toBe(true);
    const shown = textWithLayersOn(out);
    expect(shown).not.toContain('fixture');
    expect(shown).toContain('docwasm');
    expect(shown).toContain('Second paragraph');
  });
});

describe('pdf/redact reads the images of the pages with OCR', () => {
  /** A LibreOffice PDF of pictureDocx: the label exists only as the picture's pixels. */
  function officePdf(name: string, label: string, secret: string, pageBreakBefore = false): string {
    const docx = pictureDocx(service.dir, name, label, pageBreakBefore);
    runSoffice(path.join(service.dir, 'profile'), ['--convert-to', 'pdf', '--outdir', service.dir, docx], service.dir);
    const pdf = file(`${name}.pdf`);
    expect(textOfPageImages(pdf, service.dir)).toContain(secret);
    expect(execFileSync('pdftotext', [pdf, '-']).toString()).not.toContain(secret);
    return pdf;
  }

  it('blanks a word that only a picture shows, keeping the words beside it, and names the pages read by OCR', async () => {
    officePdf('label', `${WORD} 4471`, WORD);
    const response = await service.post('/api/pdf/redact', { input: 'label.pdf', output: 'label-out.pdf', text: [WORD] });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.data).toMatchObject({ pages: [1], ocrPages: [1] });
    const out = file('label-out.pdf');
    expect(qpdfCheck(out)).toBe(true);
    const seen = textOfPageImages(out, service.dir);
    expect(seen).not.toContain(WORD);
    expect(seen).toContain('4471');
    expect(execFileSync('pdftotext', [out, '-']).toString()).toContain('Report on the sample shipment');
  });

  it('finds a pattern in a picture on the second page, reading by OCR only the page with an image', async () => {
    officePdf('mail', 'write to bob@example.org now', 'bob@example.org', true);
    const response = await service.post('/api/pdf/redact', { input: 'mail.pdf', output: 'mail-out.pdf', patterns: ['email'], engine: 'tesseract' });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.data).toMatchObject({ pages: [2], ocrPages: [2] });
    const seen = textOfPageImages(file('mail-out.pdf'), service.dir);
    expect(seen).not.toMatch(/bob|example\.org/);
    expect(seen).toContain('write to');
  });
});
