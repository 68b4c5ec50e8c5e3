// PDF → PDF/A with Ghostscript's pdfwrite (ghostscript.ts), chosen over mupdf because mupdf
// cannot embed the fonts a PDF leaves out (the base-14 fonts above all), which PDF/A requires,
// nor convert colours or flatten transparency for PDF/A-1. pdfwrite embeds (substitutes for)
// every font, writes the XMP with pdfaid part/conformance, and the PostScript below adds an
// sRGB output intent from the ICC profile compiled into Ghostscript.

import type { PdfaLevel } from '../../../core/pdfa.js';
import { runGhostscript } from './ghostscript.js';

const OUTPUT_INTENT = `%!
[/_objdef {icc_PDFA} /type /stream /OBJ pdfmark
[{icc_PDFA} <</N 3>> /PUT pdfmark
[{icc_PDFA} (%rom%iccprofiles/srgb.icc) (r) file /PUT pdfmark
[/_objdef {OutputIntent_PDFA} /type /dict /OBJ pdfmark
[{OutputIntent_PDFA} <<
  /Type /OutputIntent /S /GTS_PDFA1 /DestOutputProfile {icc_PDFA}
  /OutputConditionIdentifier (sRGB IEC61966-2.1) /Info (sRGB IEC61966-2.1) /RegistryName (http://www.color.org)
>> /PUT pdfmark
[{Catalog} <</OutputIntents [ {OutputIntent_PDFA} ]>> /PUT pdfmark
`;

const PART: Record<PdfaLevel, string> = { '1b': '1', '2b': '2', '3b': '3' };

/** `pdf` must open without a password (the engine decrypts first). */
export function convertToPdfa(pdf: Uint8Array, level: PdfaLevel): Promise<Uint8Array> {
  return runGhostscript({
    files: { '/input.pdf': pdf, '/pdfa.ps': OUTPUT_INTENT },
    output: '/output.pdf',
    args: [
      '-q',
      '-dNOPAUSE',
      '-dBATCH',
      '-sDEVICE=pdfwrite',
      `-dPDFA=${PART[level]}`,
      // 1: drop what PDF/A forbids (and say so) rather than give up or write a plain PDF.
      '-dPDFACompatibilityPolicy=1',
      '-sColorConversionStrategy=RGB',
      ...(level === '1b' ? ['-dCompatibilityLevel=1.4'] : []),
      '-sOutputFile=/output.pdf',
      '/pdfa.ps',
      '/input.pdf',
    ],
  });
}
