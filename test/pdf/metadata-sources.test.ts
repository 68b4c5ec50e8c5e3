// pdf/metadata on PDFs written by other programs, in the three ways a PDF may carry metadata:
// an Info dictionary (LibreOffice), none at all (qpdf, with a classic xref table and with an
// xref stream, and LibreOffice's file with its trailer's /Info cut out), and only an XMP packet.
// The earlier tests' PDFs all had an Info dictionary, so they never reached the branch that
// creates one, where the new dictionary was put into a stale copy of the trailer and never
// written. Every output is read back with poppler and qpdf.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PdfSink } from '../../wasm/pdf/engine.js';
import { mupdfEngine } from '../../wasm/pdf/mupdf-engine.js';
import { serializePdf } from '../helpers/make-pdf.js';
import { pageText, pdfinfo, qpdfCheckStrict } from '../helpers/pdf-inspect.js';

const LIBREOFFICE_PDF = path.resolve('fixtures/pdf/text.pdf');
/** The text of the fixture's page (LibreOffice's, see fixtures/README.md). */
const FIXTURE_TEXT = 'docwasm fixture';

/** As scanners and Adobe tools write XMP: properties as attributes and as elements, two descriptions. */
const XMP_ONLY_PACKET = [
  '<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
  '<rdf:Description rdf:about="" xmlns:pdf="http://ns.adobe.com/pdf/1.3/" xmlns:xmp="http://ns.adobe.com/xap/1.0/" pdf:Producer="Scan&amp;Co 2.1" xmp:CreateDate="2024-01-31T12:00:00+01:00" xmp:CreatorTool="ScanApp"/>',
  '<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">',
  '<dc:title><rdf:Alt><rdf:li xml:lang="de">Alter Titel</rdf:li><rdf:li xml:lang="x-default">XMP title &lt;1&gt;</rdf:li></rdf:Alt></dc:title>',
  '<dc:creator><rdf:Seq><rdf:li>Ann Author</rdf:li><rdf:li>Bob Builder</rdf:li></rdf:Seq></dc:creator>',
  '</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>',
].join('\n');

let dir: string;
const file = (name: string) => path.join(dir, name);
const bytesOf = (name: string) => new Uint8Array(fs.readFileSync(file(name)));
const into =
  (name: string): PdfSink =>
  (pdf) =>
    fs.writeFileSync(file(name), pdf);
const qpdf = (...args: string[]) => execFileSync('qpdf', args).toString();
const xmpOf = (name: string) => execFileSync('pdfinfo', ['-meta', file(name)]).toString();

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docwasm-metadata-'));
  fs.copyFileSync(LIBREOFFICE_PDF, file('libreoffice.pdf'));
  // qpdf's new documents have no Info dictionary.
  qpdf('--empty', '--pages', LIBREOFFICE_PDF, '--', file('qpdf-no-info.pdf'));
  qpdf('--object-streams=generate', file('qpdf-no-info.pdf'), file('qpdf-no-info-xref-stream.pdf'));
  // LibreOffice's file with the trailer's /Info line cut out of qpdf's QDF form.
  const qdf = qpdf('--qdf', '--object-streams=disable', LIBREOFFICE_PDF, '-');
  const withoutInfo = qdf.replace(/^ {2}\/Info \d+ 0 R\n/m, '');
  expect(withoutInfo).not.toBe(qdf);
  fs.writeFileSync(file('stripped-info.pdf'), execFileSync('fix-qdf', { input: withoutInfo }));
  // An XMP packet added by qpdf to its document without Info.
  const maxObject = JSON.parse(qpdf('--json-output=2', '--json-key=qpdf', file('qpdf-no-info.pdf'))).qpdf[0].maxobjectid as number;
  const update = {
    qpdf: [
      { jsonversion: 2, pushedinheritedpageresources: false, calledgetallpages: false, maxobjectid: maxObject },
      {
        'obj:1 0 R': { value: { '/Type': '/Catalog', '/Pages': '2 0 R', '/Metadata': `${maxObject + 1} 0 R` } },
        [`obj:${maxObject + 1} 0 R`]: { stream: { dict: { '/Type': '/Metadata', '/Subtype': '/XML' }, data: Buffer.from(XMP_ONLY_PACKET).toString('base64') } },
      },
    ],
  };
  fs.writeFileSync(file('update.json'), JSON.stringify(update));
  qpdf(file('qpdf-no-info.pdf'), `--update-from-json=${file('update.json')}`, file('xmp-only.pdf'));
  // A hand-written file whose trailer holds its Info dictionary directly, not by reference.
  fs.writeFileSync(
    file('direct-info.pdf'),
    serializePdf(
      ['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>'],
      ' /Info << /Title (Direct title) /Producer (Handmade) >>',
    ),
  );
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('pdf/metadata on PDFs from other programs (mupdf engine)', () => {
  it('the inputs are what they claim: Info in one, none in three, XMP only in one', () => {
    expect(qpdf('--show-object=trailer', file('libreoffice.pdf'))).toContain('/Info');
    for (const name of ['qpdf-no-info.pdf', 'qpdf-no-info-xref-stream.pdf', 'stripped-info.pdf', 'xmp-only.pdf']) {
      expect(qpdf('--show-object=trailer', file(name))).not.toContain('/Info');
      expect(pdfinfo(file(name)).Title).toBeUndefined();
    }
    expect(pdfinfo(file('xmp-only.pdf'))['Metadata Stream']).toBe('yes');
  });

  it.each(['libreoffice.pdf', 'qpdf-no-info.pdf', 'qpdf-no-info-xref-stream.pdf', 'stripped-info.pdf'])(
    'sets title and author that pdfinfo shows, on %s',
    (name) => {
      const output = `set-${name}`;
      mupdfEngine.setMetadata(bytesOf(name), { title: 'New title', author: 'Zoë Writer' }, into(output));
      const info = pdfinfo(file(output));
      expect(info).toMatchObject({ Title: 'New title', Author: 'Zoë Writer' });
      expect(info.ModDate).toBeDefined();
      expect(qpdf('--show-object=trailer', file(output))).toMatch(/\/Info \d+ 0 R/);
      expect(pageText(file(output), 1)).toContain(FIXTURE_TEXT);
      expect(qpdfCheckStrict(file(output)).ok).toBe(true);
    },
  );

  it('keeps the fields of an Info dictionary it does not change (LibreOffice)', () => {
    mupdfEngine.setMetadata(bytesOf('libreoffice.pdf'), { subject: 'Only the subject' }, into('subject.pdf'));
    expect(pdfinfo(file('subject.pdf'))).toMatchObject({ Subject: 'Only the subject', Creator: 'Writer', Producer: 'LibreOffice 7.4' });
    expect(pdfinfo(file('subject.pdf')).CreationDate).toBe(pdfinfo(file('libreoffice.pdf')).CreationDate);
  });

  it('edits an Info dictionary held directly in the trailer', () => {
    mupdfEngine.setMetadata(bytesOf('direct-info.pdf'), { author: 'Direct author' }, into('direct.pdf'));
    expect(pdfinfo(file('direct.pdf'))).toMatchObject({ Title: 'Direct title', Author: 'Direct author', Producer: 'Handmade' });
  });

  describe('an XMP-only PDF', () => {
    it('gets an Info dictionary with the packet’s fields, the given one changed, and a packet that agrees', () => {
      mupdfEngine.setMetadata(bytesOf('xmp-only.pdf'), { subject: 'New subject' }, into('xmp-set.pdf'));
      const info = pdfinfo(file('xmp-set.pdf'));
      expect(info).toMatchObject({
        Title: 'XMP title <1>',
        Author: 'Ann Author; Bob Builder',
        Subject: 'New subject',
        Creator: 'ScanApp',
        Producer: 'Scan&Co 2.1',
        'Metadata Stream': 'yes',
      });
      expect(info.CreationDate).toMatch(/2024/);
      const xmp = xmpOf('xmp-set.pdf');
      expect(xmp).toContain('<dc:title><rdf:Alt><rdf:li xml:lang="x-default">XMP title &#60;1&#62;</rdf:li>');
      expect(xmp).toContain('<dc:creator><rdf:Seq><rdf:li>Ann Author; Bob Builder</rdf:li>');
      expect(xmp).toContain('<dc:description><rdf:Alt><rdf:li xml:lang="x-default">New subject</rdf:li>');
      expect(xmp).toContain('<pdf:Producer>Scan&#38;Co 2.1</pdf:Producer>');
      expect(xmp).toContain('<xmp:CreateDate>2024-01-31T11:00:00Z</xmp:CreateDate>');
      expect(qpdfCheckStrict(file('xmp-set.pdf')).ok).toBe(true);
    });

    it('changes a field the packet holds in both places, and clears one in both', () => {
      mupdfEngine.setMetadata(bytesOf('xmp-only.pdf'), { title: 'Replaced', author: '' }, into('xmp-replaced.pdf'));
      const info = pdfinfo(file('xmp-replaced.pdf'));
      expect(info.Title).toBe('Replaced');
      expect(info.Author).toBeUndefined();
      const xmp = xmpOf('xmp-replaced.pdf');
      expect(xmp).toContain('<rdf:li xml:lang="x-default">Replaced</rdf:li>');
      expect(xmp).not.toContain('XMP title');
      expect(xmp).not.toContain('dc:creator');
    });
  });
});
